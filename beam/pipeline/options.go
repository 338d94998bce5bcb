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

// engineOptions are the options with which the engine reads each file:
// those of the command line for flags (the CLI's own mapping,
// cli.ParseOptions), with the output of `urix --json`, one worker a
// file.
func engineOptions(flags []string) (engine.Options, error) {
	o, err := cli.ParseOptions(flags, Flags)
	if err != nil {
		return o, err
	}
	o.Output.JSON = true
	o.Jobs = 1
	return o, nil
}
