package pipeline

import (
	"errors"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Config is one run: what to read, how to search it, where to write.
type Config struct {
	// Inputs are file patterns on any registered Beam filesystem
	// (/data/*.warc.gz, gs://bucket/crawl/*; local ones may hold "**":
	// /data/**/*.warc.gz). A pattern without a wildcard is a path: one
	// that names no file is an error line, as a missing file is for the
	// CLI (inputs.go).
	Inputs []string
	// InputLists are files that list inputs, one path a line, gzip or
	// not (Common Crawl's wet.paths.gz); InputPrefix goes before each
	// entry that is not absolute (listFn).
	InputLists  []string
	InputPrefix string
	// Output is the prefix of the output files (see ShardName).
	Output string
	// Flags are flags of the urix command line, among Flags, with the
	// meaning they have there, one flag a word with its value after "="
	// or in the next word: {"--www", "--hyphen=both"}. The workers map
	// them to the engine's options by the command line's own mapping.
	Flags []string
	// Compress is how the outputs are compressed: "" is Gzip.
	Compress Compression
	// Top is how many URIs the top list holds; 0 means DefaultTop, a
	// negative number leaves the list out.
	Top int
	// RangeBytes is about how many bytes of a file each worker reads: an
	// mbox, WARC or plain-text file of more is read in ranges of about that many,
	// each on some worker (ranges.go); 0 means DefaultRangeBytes, a
	// negative number reads every file whole.
	RangeBytes int64
	// RangeForward reads in ranges the files of filesystems that only
	// read forward from the start too (not local files, gs:// or s3://,
	// read at any offset: remote.go): each range of such a file
	// transfers the bytes before it (forwardReader). Without it they
	// are read whole.
	RangeForward bool
}

// Defaults of Config.
const (
	DefaultTop = 1000
)

// Build adds the pipeline of c to s. The outputs, JSON Lines, each a set
// of files P.KIND-SSSSS-of-NNNNN.jsonl.gz (.jsonl with Compress None),
// with P = c.Output:
//
//   - P-SSSSS-of-NNNNN.jsonl.gz: one line per URI found, the object that
//     `urix --json` prints for it, byte for byte, written where it is
//     found: a file per bundle of the search (bundleFile);
//   - P.schemes-*: {"scheme":"https","count":N}, per scheme (lower case);
//   - P.hosts-*: {"host":"www.example.com","domain":"example.com","count":N},
//     per host of the normal form (host null: no authority, as mailto:;
//     domain null: an IP address, or no registrable domain);
//   - P.domains-*: {"domain":"example.com","count":N}, per registrable domain;
//   - P.uris-*: {"uri":"http://example.com/","count":N}, per distinct
//     normal form (the URI as found, when --invalid asks for invalid ones);
//   - P.hostlinks-*: {"from":"a.example","to":"b.example","count":N}, the
//     host link graph of WARC records with a WARC-Target-URI (links.go);
//   - P.domainlinks-*: the same between registrable domains;
//   - P.top-00000-of-00001.jsonl.gz: the Top lines of P.uris of the largest
//     counts, the largest first (ties: the lexically first URI);
//   - P.errors-00000-of-00001.jsonl.gz: {"file":F,"level":"error"|"warning",
//     "message":M}, each line the CLI says on stderr ("urix: F: M"):
//     files that could not be read, malformed messages and records,
//     skipped candidates; as many warnings of one cause a file as the CLI
//     prints, then the count of the others.
//
// Each count sums the result lines: every result is counted once in each.
// The results, hosts, domains, uris and link graphs are written a file
// per bundle (N is the number of bundles that wrote lines); the schemes,
// top and errors are one file each; an output of no lines is one empty
// file.
func Build(s beam.Scope, c Config) error {
	if _, err := engineOptions(c.Flags); err != nil {
		return err
	}
	if len(c.Inputs) == 0 && len(c.InputLists) == 0 {
		return errors.New("no input: give one or more file patterns or input lists")
	}
	if err := checkPatterns(c.Inputs); err != nil {
		return err
	}
	if c.Output == "" {
		return errors.New("no output prefix")
	}
	compress, err := ParseCompression(string(c.Compress))
	if err != nil {
		return err
	}
	topN := orDefault(c.Top, DefaultTop)

	s = s.Scope("urix")
	paths, listMsgs := inputs(s, c)
	// The files that one pattern lists come out of one bundle; reshuffled,
	// they are listed on every worker: a large mbox or WARC file as its
	// ranges (offsets, not text), reshuffled in turn to be read on every
	// worker, any other file as its path.
	whole, ranges := beam.ParDo2(s, &listRangesFn{Flags: c.Flags, Target: rangeBytes(c), Forward: c.RangeForward}, beam.Reshuffle(s, paths))
	// Each file or range is read where it is opened: its documents are
	// searched there, never sent on (the engine undoes the compression,
	// tells the format, and reads the documents as the CLI does).
	// The results are written by the search, where they are found: only
	// the names of its files go on, to be committed.
	resultFiles, keys, fileMsgs := beam.ParDo3(s, &searchFn{Flags: c.Flags, Prefix: c.Output, Compress: compress}, whole)
	rangeFiles, rangeKeys, held := beam.ParDo3(s, &rangeSearchFn{Flags: c.Flags, Prefix: c.Output, Compress: compress}, beam.Reshuffle(s, ranges))
	commit(s.Scope("Write results"), beam.Flatten(s, resultFiles, rangeFiles), c.Output, "", compress)
	// The messages of a file read in ranges, held by each range, are
	// told together, as the CLI tells those of the whole file.
	rangeMsgs := beam.ParDo(s, &tellRangesFn{}, beam.GroupByKey(s, held))
	msgs := beam.Flatten(s, listMsgs, fileMsgs, rangeMsgs)

	n := counts(s, keys, rangeKeys)
	writeOne(s, n.schemes, c.Output, "schemes", compress)
	writeBundles(s, n.hosts, c.Output, "hosts", compress)
	writeBundles(s, n.domains, c.Output, "domains", compress)
	writeBundles(s, beam.ParDo(s, uriLine, n.uris), c.Output, "uris", compress)
	writeBundles(s, n.hostLinks, c.Output, "hostlinks", compress)
	writeBundles(s, n.domainLinks, c.Output, "domainlinks", compress)
	if topN > 0 {
		writeTop(s, n.uris, c.Output, topN, compress)
	}
	writeOne(s, msgs, c.Output, "errors", compress)
	return nil
}

func orDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}
