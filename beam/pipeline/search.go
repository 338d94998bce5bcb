package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/engine"
	"github.com/urix-dev/urix/extract"
)

func init() {
	register.DoFn5x1[context.Context, inputPath, func(string), func(string, int64), func(string), error](&searchFn{})
	register.Emitter1[string]()
	register.Emitter2[string, int64]()
}

var (
	filesRead  = beam.NewCounter("urix", "files")
	fileErrors = beam.NewCounter("urix", "errors")
	warnings   = beam.NewCounter("urix", "warnings")
	// qualityWarnings counts what mail readers tolerate without a word
	// (behaviour §9.9): counted, not emitted, as the CLI does without
	// --warnings.
	qualityWarnings = beam.NewCounter("urix", "data_quality_warnings")
	bytesRead       = beam.NewCounter("urix", "bytes")
	urisFound       = beam.NewCounter("urix", "uris")
	urisInvalid     = beam.NewCounter("urix", "invalid")
	resultsCount    = beam.NewCounter("urix", "results")
)

// searchFn runs the engine over one file, named by its path, as
// `urix --json FILE` with Flags would: the lines it prints are the
// results, written where they are made, in the bundle's file of the
// results (bundleFile; the name of each is emitted at the end of its
// bundle, for commitFn), what it says on stderr the messages (the errors
// output), and each URI it writes is counted under its keys, summed over
// the bundle before the sums are emitted. What is wrong with the file (it
// cannot be opened, its data is corrupt) is a message, as on the CLI's
// stderr: the other files are still read and the run's error count says
// so. A failure of the storage that may pass (failure.go) fails the
// bundle instead, for the runner to retry it: its results file is never
// committed, and the runner drops what it emitted.
type searchFn struct {
	// Flags are the CLI's flags, as words (Config.Flags).
	Flags []string
	// Prefix and Compress are those of the results (Config).
	Prefix   string
	Compress Compression

	bundleSearch
}

// bundleSearch is what a search (searchFn, rangeSearchFn) keeps over a
// bundle: the engine's options, the bundle's results file and the counts
// of its URIs.
type bundleSearch struct {
	opts    engine.Options
	results *bundleFile
	sink    fileSink
}

func (b *bundleSearch) setup(flags []string, prefix string, compress Compression) (err error) {
	b.opts, err = engineOptions(flags)
	b.results = newBundleFile(prefix, "", compress)
	b.sink.counts = make(map[string]int64)
	return err
}

// start begins the bundle's results file and counts: what a failed
// bundle left (the runner may reuse the DoFn) is dropped.
func (b *bundleSearch) start(ctx context.Context) {
	b.results.start(ctx)
	clear(b.sink.counts)
	b.sink.links.reset()
}

// finish emits the bundle's counts and the name of its results file,
// for commitFn.
func (b *bundleSearch) finish(emitName func(string), emitKey func(string, int64)) error {
	b.sink.emitKey = emitKey
	b.sink.flushCounts()
	name, err := b.results.finish()
	if name != "" {
		emitName(name)
	}
	return err
}

func (f *searchFn) Setup() error { return f.setup(f.Flags, f.Prefix, f.Compress) }

// StartBundle begins the bundle (bundleSearch.start).
func (f *searchFn) StartBundle(ctx context.Context, _ func(string), _ func(string, int64), _ func(string)) {
	f.start(ctx)
}

func (f *searchFn) Teardown() { f.results.abandon() }

func (f *searchFn) ProcessElement(ctx context.Context, in inputPath,
	_ func(string), emitKey func(string, int64), emitMsg func(string)) error {
	o := f.opts
	results := &lineCounter{w: f.results}
	s := &f.sink
	s.ctx, s.emitKey, s.emitMsg = ctx, emitKey, emitMsg
	s.links.reset()
	s.src, s.failed, s.errors, s.warnings = nil, nil, 0, 0
	o.Stdout, o.Stderr, o.Sink = results, io.Discard, s
	path := in.Path
	res := engine.RunInputs([]engine.Input{{
		Name:   path,
		Walked: in.Walked,
		Open: func() (io.ReadCloser, error) {
			rc, err := openPath(ctx, path)
			if err != nil {
				s.storageErr(err)
				return nil, err
			}
			s.src = &storageReader{r: rc}
			return readCloser{s.src, rc}, nil
		},
	}}, o)
	if f.results.err != nil {
		// The results could not be written: the bundle fails, to be
		// retried (its file is never committed).
		return f.results.err
	}
	if s.failed == nil && s.src != nil && transient(s.src.err) {
		s.failed = s.src.err // told by no message: the file was not read to its end all the same
	}
	if s.failed != nil {
		// The bundle fails, to be retried whole: nothing of it is
		// committed or kept (StartBundle drops its counts).
		return fmt.Errorf("%s: %w (the storage failed: retried)", path, s.failed)
	}
	filesRead.Inc(ctx, res.Stats.Files)
	bytesRead.Inc(ctx, res.Stats.Bytes)
	urisFound.Inc(ctx, res.Stats.Found)
	urisInvalid.Inc(ctx, res.Stats.Invalid)
	resultsCount.Inc(ctx, results.lines)
	fileErrors.Inc(ctx, s.errors)
	warnings.Inc(ctx, s.warnings)
	for _, n := range res.Stats.Quality {
		qualityWarnings.Inc(ctx, int64(n))
	}
	return nil
}

// readCloser reads r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// FinishBundle emits the bundle's counts and the name of its results
// file, for commitFn.
func (f *searchFn) FinishBundle(_ context.Context, emitName func(string), emitKey func(string, int64), _ func(string)) error {
	return f.finish(emitName, emitKey)
}

// lineCounter counts the lines written through it (the engine's output,
// which ends every line).
type lineCounter struct {
	w     io.Writer
	lines int64
}

func (c *lineCounter) Write(p []byte) (int, error) {
	c.lines += int64(bytes.Count(p, []byte{'\n'}))
	return c.w.Write(p)
}

// fileSink takes what the engine writes of one file: each URI is counted
// under its keys, each message is a line of the errors output, and the
// errors and warnings are counted, for the file's attempt to add once it
// is through.
type fileSink struct {
	ctx     context.Context
	emitKey func(string, int64)
	emitMsg func(string)
	counts  map[string]int64 // summed over the bundle
	links   pageLinks

	src              *storageReader // the file, as opened
	failed           error          // the storage's failure that may pass: the attempt is dropped
	errors, warnings int64
}

// storageErr judges an error of opening the file.
func (s *fileSink) storageErr(err error) {
	if transient(err) {
		s.failed = err
	}
}

// maxHeldKeys bounds the counts held before they are emitted: a large
// file can hold any number of distinct URIs.
const maxHeldKeys = 1 << 14

func (s *fileSink) URI(file string, m *extract.Match, at *document.Origin) {
	// keysOf's keys are new strings: m's are the engine's, reused.
	k := keysOf(m.URI, m.Normalized, m.Valid)
	for _, key := range k.encode() {
		s.counts[key]++
	}
	s.links.edges(file, at, k, func(key string) { s.counts[key]++ })
	if len(s.counts) > maxHeldKeys {
		s.flushCounts()
	}
}

func (s *fileSink) Message(m engine.Message) {
	if s.src != nil && s.src.err != nil && s.failed == nil && transient(s.src.err) {
		// The error the engine tells now comes of the storage's (or
		// after it: the file read no further).
		s.failed = s.src.err
	}
	if s.failed != nil {
		return
	}
	level := "warning"
	if m.Error {
		level = "error"
		s.errors++
	} else {
		s.warnings += int64(max(m.More, 1))
	}
	s.emitMsg(encodeMessage(m.File, level, m.Text))
}

func (s *fileSink) flushCounts() {
	for k, n := range s.counts {
		s.emitKey(k, n)
	}
	clear(s.counts)
}

// encodeMessage is a line of the errors output: what the CLI says on
// stderr, with the file apart.
func encodeMessage(file, level, msg string) string {
	b := append([]byte(`{"file":`), nil...)
	b = appendString(b, file)
	b = append(b, `,"level":`...)
	b = appendString(b, level)
	b = append(b, `,"message":`...)
	b = appendString(b, msg)
	return string(append(b, '}'))
}
