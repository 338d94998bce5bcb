package pipeline

import (
	"errors"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
)

// Config is one run: what to read, how to search it, where to write.
type Config struct {
	// Inputs are file patterns on any registered Beam filesystem
	// (/data/*.warc.gz, gs://bucket/crawl/*). A pattern without a
	// wildcard that matches nothing is an error, as a missing file is
	// for the CLI.
	Inputs []string
	// Output is the prefix of the output files (see ShardName).
	Output string
	// Options are the CLI's extraction options.
	Options Options
	// Shards is the number of result files; 0 means DefaultShards.
	Shards int
	// CountShards is the number of files of the URI, host and domain
	// counts; 0 means DefaultCountShards. Scheme counts, the top N and
	// the errors are one file each.
	CountShards int
	// Top is how many URIs the top list holds; 0 means DefaultTop, a
	// negative number leaves the list out.
	Top int
	// SpreadLimit is the largest document sent on as an element of its
	// own; 0 means DefaultSpreadLimit.
	SpreadLimit int
}

// Defaults of Config.
const (
	DefaultShards      = 16
	DefaultCountShards = 4
	DefaultTop         = 1000
)

// Build adds the pipeline of c to s. The outputs, JSON Lines, with
// P = c.Output:
//
//   - P-SSSSS-of-NNNNN.jsonl: one line per URI found, the object that
//     `urix --json` prints for it, byte for byte;
//   - P.schemes-*: {"scheme":"https","count":N}, per scheme (lower case);
//   - P.hosts-*: {"host":"www.example.com","domain":"example.com","count":N},
//     per host of the normal form (host null: no authority, as mailto:;
//     domain null: an IP address, or no registrable domain);
//   - P.domains-*: {"domain":"example.com","count":N}, per registrable domain;
//   - P.uris-*: {"uri":"http://example.com/","count":N}, per distinct
//     normal form (the URI as found, when --invalid asks for invalid ones);
//   - P.top-00000-of-00001.jsonl: the Top lines of P.uris of the largest
//     counts, the largest first (ties: the lexically first URI);
//   - P.errors-00000-of-00001.jsonl: {"file":F,"level":"error"|"warning",
//     "message":M}, what the CLI says on stderr: files that could not be
//     read, malformed messages and records, skipped candidates.
//
// Each count sums the result lines: every result is counted once in each.
func Build(s beam.Scope, c Config) error {
	if err := c.Options.Check(); err != nil {
		return err
	}
	if len(c.Inputs) == 0 {
		return errors.New("no input: give one or more file patterns")
	}
	if c.Output == "" {
		return errors.New("no output prefix")
	}
	shards := orDefault(c.Shards, DefaultShards)
	countShards := orDefault(c.CountShards, DefaultCountShards)
	topN := orDefault(c.Top, DefaultTop)

	s = s.Scope("urix")
	matched := fileio.MatchAll(s, beam.CreateList(s, c.Inputs))
	// The files that one pattern lists come out of one bundle; reshuffled,
	// they are read on every worker.
	files := fileio.ReadMatches(s, beam.Reshuffle(s, matched), fileio.ReadUncompressed())
	docs, lines1, keys1, msgs1 := beam.ParDo4(s, &readFn{Opts: c.Options, SpreadLimit: c.SpreadLimit}, files)
	// And the documents of one file are searched on every worker: a few
	// large WARC files keep them all busy.
	lines2, keys2, msgs2 := beam.ParDo3(s, &extractFn{Opts: c.Options}, beam.Reshuffle(s, docs))

	writeSharded(s, beam.Flatten(s, lines1, lines2), c.Output, "", shards)
	schemes, hosts, domains, uris := counts(s, beam.Flatten(s, keys1, keys2))
	writeSharded(s, schemes, c.Output, "schemes", 1)
	writeSharded(s, hosts, c.Output, "hosts", countShards)
	writeSharded(s, domains, c.Output, "domains", countShards)
	writeSharded(s, beam.ParDo(s, uriLine, uris), c.Output, "uris", countShards)
	if topN > 0 {
		writeTop(s, uris, c.Output, topN)
	}
	writeSharded(s, beam.Flatten(s, msgs1, msgs2), c.Output, "errors", 1)
	return nil
}

func orDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}
