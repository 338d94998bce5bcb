// Command urix-beam runs urix's extraction as an Apache Beam pipeline: on
// this machine (the prism runner, the default), on Flink, Spark or Google
// Cloud Dataflow. Its extraction flags are the CLI's and mean the same;
// the results are the lines of `urix --json`, written sharded, with counts
// per scheme, host, registrable domain and URI beside them (package
// pipeline says which files).
//
//	urix-beam --input '/data/mail/*.mbox.gz' --output /data/out/mail
//
// Beam's own flags (--runner, --endpoint, --environment_type, --project,
// --region, ...) are taken as well; see beam/README.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/urix-dev/urix/beam/pipeline"

	// The filesystems --input and --output may name.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
)

// list is a repeatable flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	var (
		c      pipeline.Config
		inputs list
		o      = &c.Options
	)
	flag.Var(&inputs, "input", "read the files matching `PATTERN` (local or any Beam filesystem: gs://, s3://; repeatable)")
	flag.StringVar(&c.Output, "output", "", "write the outputs to files named `PREFIX`-00000-of-00016.jsonl, PREFIX.schemes-..., ...")
	flag.Var((*list)(&o.Schemes), "scheme", "find only the schemes in `LIST` (comma-separated; repeatable)")
	flag.BoolVar(&o.AnyScheme, "any-scheme", false, "find any scheme of two or more characters, not only the registered ones")
	flag.BoolVar(&o.WWW, "www", false, "also find bare www.host... (reported as http://www.host...)")
	flag.BoolVar(&o.Email, "email", false, "also find bare user@host.tld (reported as mailto:user@host.tld)")
	flag.BoolVar(&o.Invalid, "invalid", false, "keep only the invalid URIs (valid false, with the reason)")
	normalize := flag.Bool("normalize", false, "accepted for the CLI's command lines: each result carries its normal form (\"normalized\") as `urix --json` does, and the counts are by it")
	flag.BoolVar(&o.ASCII, "ascii", false, "report IRIs in their URI form (percent-encoding, IDNA A-labels)")
	flag.StringVar(&o.Hyphen, "hyphen", "keep", "a URI broken across lines right after a hyphen: `MODE` keep, drop or both")
	flag.StringVar(&o.BareBreak, "bare-break", "keep", "a bare URI that ends a line and may go on on the next: `MODE` keep, join or both")
	flag.IntVar(&o.MaxLength, "max-length", pipeline.DefaultMaxLength, "skip (and report) candidates longer than `BYTES`")
	flag.BoolVar(&o.FoldWidth, "fold-width", false, "read fullwidth forms as ASCII")
	flag.StringVar(&o.Format, "format", "auto", "read input as `FORMAT`: text, mail, mbox, news, warc or auto")
	flag.BoolVar(&o.Decompress, "decompress", false, "insist that every input is compressed")
	flag.IntVar(&c.Shards, "shards", pipeline.DefaultShards, "write the results in `N` files")
	flag.IntVar(&c.CountShards, "count-shards", pipeline.DefaultCountShards, "write the URI, host and domain counts in `N` files each")
	flag.IntVar(&c.Top, "top", pipeline.DefaultTop, "list the `N` most frequent URIs (-1: no list)")
	flag.IntVar(&c.SpreadLimit, "spread-limit", pipeline.DefaultSpreadLimit, "search a document larger than `BYTES` where it is read instead of spreading it")
	flag.Parse()
	_ = normalize
	c.Inputs = inputs
	if c.Shards < 1 || c.CountShards < 1 {
		fail(2, "--shards and --count-shards: want at least 1")
	}
	beam.Init()

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
		return // a runner that gives no metrics (a submitted Dataflow job without --wait)
	}
	counters := map[string]int64{}
	for _, r := range res.Metrics().AllMetrics().Counters() {
		if r.Key.Namespace == "urix" {
			counters[r.Key.Name] += r.Result()
		}
	}
	fmt.Fprintf(os.Stderr, "urix-beam: %d files, %d bytes, %d URIs, %d invalid, %d results, %d errors, %d warnings\n",
		counters["files"], counters["bytes"], counters["uris"], counters["invalid"], counters["results"], counters["errors"], counters["warnings"])
	switch {
	case counters["errors"] > 0:
		os.Exit(2)
	case counters["results"] == 0:
		os.Exit(1)
	}
}

func fail(status int, msg string) {
	fmt.Fprintf(os.Stderr, "urix-beam: %s\n", msg)
	os.Exit(status)
}
