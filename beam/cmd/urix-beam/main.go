// Command urix-beam runs urix's extraction as an Apache Beam pipeline: on
// this machine (the prism runner, the default), on Flink, Spark or Google
// Cloud Dataflow. Its extraction flags are the CLI's and mean the same
// (the workers map them as the CLI does); the results are the lines of
// `urix --json`, written where they are found (a file per bundle), with
// counts per scheme, host, registrable domain and URI, and the link graph
// of WARC input, beside them (package pipeline says which files).
//
//	urix-beam --input '/data/mail/*.mbox.gz' --output /data/out/mail
//	urix-beam --input_list wet.paths.gz --input_prefix s3://commoncrawl/ --output s3://bucket/uris
//
// Beam's own flags (--runner, --endpoint, --environment_type, --project,
// --region, ...) are taken as well; see beam/README.md.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/urix-dev/urix/beam/pipeline"
	"github.com/urix-dev/urix/internal/cli"

	// The filesystems --input and --output may name.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
)

// list is a repeatable flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

// cliFlag is a flag of the urix command line: each use is kept as the
// word --NAME=VALUE, in the order given, for the workers to map as the
// CLI maps it (pipeline.Config.Flags).
type cliFlag struct {
	doc   cli.FlagDoc
	words *[]string
}

func (f *cliFlag) String() string {
	if f == nil || f.words == nil {
		return ""
	}
	return f.doc.Default
}

func (f *cliFlag) Set(v string) error {
	*f.words = append(*f.words, "--"+f.doc.Name+"="+v)
	return nil
}

func (f *cliFlag) IsBoolFlag() bool { return !f.doc.TakesValue }

// usage is what urix-beam says of the CLI's flags whose help speaks of
// the CLI's plain output.
var usage = map[string]string{
	"invalid":   "keep only the invalid URIs (valid false, with the reason)",
	"text":      "read the binary files that a ** pattern finds too (skipped by default, as by urix -r; a file named or matched otherwise is always read)",
	"normalize": "accepted for the CLI's command lines: each result carries its normal form (\"normalized\") as urix --json does, and the counts are by it",
	"warnings":  "write each data-quality warning of mail (a missing closing boundary, an unknown charset label, 8-bit bytes in a header) in the errors output; they are counted, not written, by default",
}

func main() {
	var (
		c             pipeline.Config
		inputs, lists list
	)
	flag.Var(&inputs, "input", "read the files matching `PATTERN` (local or any Beam filesystem: gs://, s3://; ** for any number of local directories; repeatable)")
	flag.Var(&lists, "input_list", "read the files that `FILE` lists, one path or URL a line (gzip or not; blank lines and # comments skipped; repeatable)")
	flag.StringVar(&c.InputPrefix, "input_prefix", "", "put `PREFIX` before each entry of an --input_list that is not absolute (no SCHEME://, no leading /): s3://commoncrawl/")
	flag.StringVar(&c.Output, "output", "", "write the outputs to files named `PREFIX`-00000-of-N.jsonl.gz (a file per bundle), PREFIX.schemes-..., ...")
	// The CLI's flags, with the CLI's help but where the results, the
	// lines of --json, make it read otherwise.
	for _, d := range cli.FlagDocs(pipeline.Flags) {
		flag.Var(&cliFlag{doc: d, words: &c.Flags}, d.Name, cmp.Or(usage[d.Name], d.Usage))
	}
	compress := flag.String("compress", string(pipeline.Gzip), "compress the outputs: gzip (FILE.jsonl.gz) or none (FILE.jsonl)")
	flag.IntVar(&c.Top, "top", pipeline.DefaultTop, "list the `N` most frequent URIs (-1: no list)")
	flag.Int64Var(&c.RangeBytes, "range_bytes", pipeline.DefaultRangeBytes, "read an mbox, WARC or plain-text file larger than `N` bytes in ranges of about N, at messages and records (gzip members that start one) or line ends, each on some worker (0 or negative: every file whole; the default with prism, which reads them one after the other)")
	flag.BoolVar(&c.RangeForward, "range_forward", false, "read in ranges the files of filesystems that Beam reads only from the start (not local files, gs:// or s3://, which are read in ranges without it): each range transfers the bytes before it (without it they are read whole)")
	flag.Parse()
	c.RangeBytes = rangeBytes(c.RangeBytes, flagGiven("range_bytes"), *runners.Runner)
	c.Inputs, c.InputLists = inputs, lists
	var err error
	if c.Compress, err = pipeline.ParseCompression(*compress); err != nil {
		fail(2, err.Error())
	}
	beam.Init() // on a worker, runs the worker and never returns
	if err := setWorkerBinary(); err != nil {
		fail(2, err.Error())
	}

	if inProcess(*runners.Runner, *jobopts.EnvironmentType) {
		// Prism runs the search as one bundle here: each file is read
		// with all the CPUs, as `urix -j N` reads it.
		pipeline.FileJobs = runtime.GOMAXPROCS(0)
	}
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(s, c); err != nil {
		fail(2, err.Error())
	}
	res, err := beamx.RunWithMetrics(context.Background(), p)
	if err != nil {
		fail(2, err.Error())
	}
	// As the CLI's exit status: 2 when a file could not be read (its
	// message is in PREFIX.errors-*), 1 when nothing was found.
	if res == nil {
		return // a Dataflow --dry_run: the job was printed, not submitted
	}
	if *jobopts.Async {
		// The job was submitted and runs on: its result has no metrics
		// (Metrics would panic), its errors file tells at the end. The
		// portable runners give no ID here (they log it).
		fmt.Fprintln(os.Stderr, strings.TrimSpace("urix-beam: submitted job "+res.JobID()))
		return
	}
	counters := map[string]int64{}
	for _, r := range res.Metrics().AllMetrics().Counters() {
		if r.Key.Namespace == "urix" {
			counters[r.Key.Name] += r.Result()
		}
	}
	fmt.Fprintf(os.Stderr, "urix-beam: %d files (%d ranges of split ones), %d bytes, %d URIs, %d invalid, %d results, %d errors, %d warnings\n",
		counters["files"], counters["ranges"], counters["bytes"], counters["uris"], counters["invalid"], counters["results"], counters["errors"], counters["warnings"])
	switch {
	case counters["errors"] > 0:
		os.Exit(2)
	case counters["results"] == 0:
		os.Exit(1)
	}
}

// rangeBytes is Config.RangeBytes for --range_bytes n, given or not,
// on runner: -1 (every file whole) for 0 or less, and by default on a
// runner that reads the elements of a stage one after the other on this
// machine (prism, the default, and the direct runner), where ranges cost
// the listing and a stage and gain nothing (beam/README.md).
func rangeBytes(n int64, given bool, runner string) int64 {
	if localRunner(runner) && !given {
		return -1
	}
	if n <= 0 {
		return -1 // Config's "whole files"; its 0 is the default
	}
	return n
}

// flagGiven tells whether the flag name is on the command line.
func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// inProcess reports whether the job runs in this process: on prism (the
// default) or direct, with the workers as goroutines of urix-beam.
func inProcess(runner, environment string) bool {
	return localRunner(runner) && (environment == "" || strings.EqualFold(environment, "loopback"))
}

// localRunner tells whether runner runs the job on this machine: prism
// (the default) or direct.
func localRunner(runner string) bool {
	switch strings.ToLower(runner) {
	case "", "prism", "prismrunner", "direct", "directrunner":
		return true
	}
	return false
}

func fail(status int, msg string) {
	fmt.Fprintf(os.Stderr, "urix-beam: %s\n", msg)
	os.Exit(status)
}
