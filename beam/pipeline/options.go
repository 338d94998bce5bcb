package pipeline

import (
	"github.com/urix-dev/urix/engine"
	"github.com/urix-dev/urix/internal/cli"
)

// Flags are the flags of the urix command line that the pipeline takes,
// with the meaning they have there: what to find, and how to read the
// inputs; those of the -r walk (--text, --include, --exclude, -R) for
// the walks of "**" patterns. The others (the output's form, -r, -j,
// ...) are the pipeline's own business.
var Flags = []string{
	"scheme", "any-scheme", "www", "email", "embedded", "hyphen", "bare-break", "max-length", "fold-width",
	"invalid", "normalize", "ascii",
	"format", "decompress", "max-window", "warnings",
	"text", "include", "exclude", "dereference-recursive",
}

// FileJobs is the number of workers with which the engine reads one file
// (the CLI's -j): 1, since a runner's worker runs a bundle on each of its
// cores. Prism runs the search as one bundle (it makes one of all the
// elements a shuffle gives a stage), its files read one after the other
// on one core: urix-beam sets FileJobs to the CPUs when the job runs in
// its own process (prism), where this variable is the workers'. The
// results are the same whatever it is (engine: not a result depends on
// -j).
var FileJobs = 1

// engineOptions are the options with which the engine reads each file:
// those of the command line for flags (the CLI's own mapping,
// cli.ParseOptions), with the output of `urix --json`, FileJobs workers
// a file.
func engineOptions(flags []string) (engine.Options, error) {
	o, err := cli.ParseOptions(flags, Flags)
	if err != nil {
		return o, err
	}
	o.Output.JSON = true
	o.Jobs = max(1, FileJobs)
	return o, nil
}
