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
// results, what it says on stderr the messages (the errors output), and
// each URI it writes is counted under its keys. What is wrong with the
// file (it cannot be opened, its data is corrupt) is a message, as on
// the CLI's stderr: the other files are still read and the run's error
// count says so. A failure of the storage that may pass (failure.go) is
// returned instead, for the runner to retry the file: nothing of the
// failed attempt is counted here, and the runner drops what it emitted.
type searchFn struct {
	// Flags are the CLI's flags, as words (Config.Flags).
	Flags []string

	opts   engine.Options
	counts map[string]int64 // keys of the bundle's element, summed before they are emitted
}

func (f *searchFn) Setup() (err error) {
	f.opts, err = engineOptions(f.Flags)
	f.counts = make(map[string]int64)
	return err
}

func (f *searchFn) ProcessElement(ctx context.Context, in inputPath,
	emitLine func(string), emitKey func(string, int64), emitMsg func(string)) error {
	o := f.opts
	results := &lineWriter{emit: emitLine}
	s := &fileSink{emitKey: emitKey, emitMsg: emitMsg, counts: f.counts}
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
	if s.failed == nil && s.src != nil && transient(s.src.err) {
		s.failed = s.src.err // told by no message: the file was not read to its end all the same
	}
	if s.failed != nil {
		// Counted keys of this attempt are not emitted with the next file.
		clear(f.counts)
		return fmt.Errorf("%s: %w (the storage failed: retried)", path, s.failed)
	}
	s.flushCounts()
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

// lineWriter emits each line written to it (the engine's output, which
// ends every line) as an element, without its line break.
type lineWriter struct {
	emit    func(string)
	partial []byte // the start of a line whose end is yet to come
	lines   int64
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			return n, nil
		}
		if len(w.partial) > 0 {
			w.emit(string(append(w.partial, p[:i]...)))
			w.partial = w.partial[:0]
		} else {
			w.emit(string(p[:i]))
		}
		w.lines++
		p = p[i+1:]
	}
}

// fileSink takes what the engine writes of one file: each URI is counted
// under its keys, each message is a line of the errors output, and the
// errors and warnings are counted, for the file's attempt to add once it
// is through.
type fileSink struct {
	emitKey func(string, int64)
	emitMsg func(string)
	counts  map[string]int64

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

func (s *fileSink) URI(_ string, m *extract.Match, _ *document.Origin) {
	// keysOf's keys are new strings: m's are the engine's, reused.
	for _, key := range keysOf(m.URI, m.Normalized, m.Valid).encode() {
		s.counts[key]++
	}
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
