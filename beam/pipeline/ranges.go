package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/engine"
	"github.com/urix-dev/urix/extract"
)

// Work is split inside files (issue 34): a large mbox, WARC or plain-text
// file is read in ranges, pieces of about Config.RangeBytes that start
// and end at a message or a record (a gzip member that starts at one,
// for a WARC file gzipped a member a record), or at a line end for text
// (whose ranges carry where their reading hands over, found by the
// listing: engine.Range.Text), each read on some worker as the CLI
// reads those bytes in the whole file (engine.Ranges, engine.RunRange).
// The listing reads the file (an mbox's lines, a WARC file's record
// headers; a gzipped file is decoded) but searches none of it and sends
// on only the ranges' offsets: the documents are read and searched where
// the ranges are read, never shuffled. Any other file (compressed in one
// stream, one message), and a file smaller than a range, is read whole,
// as before (searchFn).
//
// The messages of a file read in ranges are the CLI's for the whole
// file: its cap of five warnings of one cause is the file's, not a
// range's. So each range's messages are held (engine.RangeMessages),
// keyed by the file, and told together once the file's ranges are read
// (tellRangesFn).

func init() {
	beam.RegisterType(reflect.TypeOf((*fileRange)(nil)).Elem())
	register.DoFn4x1[context.Context, inputPath, func(inputPath), func(fileRange), error](&listRangesFn{})
	register.Emitter1[fileRange]()
	register.DoFn5x1[context.Context, fileRange, func(string), func(string, int64), func(string, string), error](&rangeSearchFn{})
	register.Emitter2[string, string]()
	register.DoFn4x0[context.Context, string, func(*string) bool, func(string)](&tellRangesFn{})
}

// DefaultRangeBytes is the size of the ranges that a large file is read
// in (Config.RangeBytes): small enough that a file of a few GB keeps
// dozens of workers busy, large enough that a range costs its worker
// more than it costs the runner to hand it out.
const DefaultRangeBytes = 64 << 20

var rangesRead = beam.NewCounter("urix", "ranges")

// A fileRange is a range of a file read apart: Index is its place among
// the ranges of the file, from 0; the other fields are those of
// engine.Range (From's flattened).
type fileRange struct {
	Path                    string
	Index                   int
	Start, End              int64
	FromOffset, FromDecoded int64
	FromNumber              int
	FromFormat              int
	// Text is set for a range of a plain-text file: which candidates
	// of its scanner are its own (engine.Range.Text).
	Text *extract.TextRange
}

func newFileRange(path string, i int, rg engine.Range) fileRange {
	return fileRange{Path: path, Index: i, Start: rg.Start, End: rg.End,
		FromOffset: rg.From.Offset, FromDecoded: rg.From.Decoded, FromNumber: rg.From.Number, FromFormat: int(rg.From.Format),
		Text: rg.Text}
}

func (r fileRange) engineRange() engine.Range {
	return engine.Range{File: r.Path, Start: r.Start, End: r.End, From: document.Boundary{
		Offset: r.FromOffset, Decoded: r.FromDecoded, Number: r.FromNumber, Format: document.Format(r.FromFormat)},
		Text: r.Text}
}

// rangeBytes is the target size of the ranges of c: 0 when every file
// is read whole.
func rangeBytes(c Config) int64 {
	switch {
	case c.RangeBytes == 0:
		return DefaultRangeBytes
	case c.RangeBytes < 0:
		return 0
	}
	return c.RangeBytes
}

// listRangesFn lists the ranges of each file of Target bytes or more:
// a file of several ranges is emitted as its ranges, any other file (of
// one range; smaller than Target; that cannot be opened or read: the
// search tells the CLI's words for it) as its path, to be read whole. A
// failure of the storage that may pass fails the bundle, to be retried.
type listRangesFn struct {
	// Flags are the CLI's flags, as words (Config.Flags).
	Flags []string
	// Target is the size of the ranges (rangeBytes): 0 reads every
	// file whole.
	Target int64
	// Forward lists the files of filesystems that read only forward
	// (not local, gs:// or s3://: rangedScheme) too
	// (Config.RangeForward).
	Forward bool

	opts engine.Options
}

func (f *listRangesFn) Setup() (err error) {
	f.opts, err = engineOptions(f.Flags)
	return err
}

func (f *listRangesFn) ProcessElement(ctx context.Context, in inputPath, emitWhole func(inputPath), emitRange func(fileRange)) error {
	ranges, err := f.ranges(ctx, in)
	if err != nil {
		return fmt.Errorf("listing the ranges of %s: %w (the storage failed: retried)", in.Path, err)
	}
	if len(ranges) < 2 {
		emitWhole(in)
		return nil
	}
	for i, rg := range ranges {
		emitRange(newFileRange(in.Path, i, rg))
	}
	return nil
}

// ranges lists the ranges of in, nil when it is to be read whole, or
// the storage's error that may pass.
func (f *listRangesFn) ranges(ctx context.Context, in inputPath) ([]engine.Range, error) {
	if f.Target <= 0 || !rangedScheme(in.Path) && !f.Forward {
		return nil, nil
	}
	size, ok := fileSize(ctx, in.Path)
	if !ok || size < f.Target {
		return nil, nil
	}
	ra, closer, err := openRanged(ctx, in.Path, 0, size)
	switch {
	case transient(err):
		return nil, err // listed again, not read whole for a passing failure
	case err != nil:
		return nil, nil // the search opens it again, and tells it
	}
	defer closer.Close()
	ranges, err := engine.Ranges(in.Path, ra, size, f.opts, f.Target)
	switch {
	case transient(err):
		return nil, err
	case err != nil:
		return nil, nil // read whole, the search tells the CLI's words
	case len(ranges) > 1 && in.Walked && !f.opts.Binary && binaryHead(in.Path, ra, size, f.opts):
		// A walk skips a binary file, as the CLI's -r: the search
		// tells it so.
		return nil, nil
	}
	return ranges, nil
}

// fileSize is the size of a regular file; ok false when the path names
// none (missing, a directory, a dangling link) or cannot be asked: the
// search reads it as the CLI does, and tells what is wrong.
func fileSize(ctx context.Context, path string) (int64, bool) {
	if isLocal(path) {
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			return 0, false
		}
		return fi.Size(), true
	}
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return 0, false
	}
	defer fsys.Close()
	size, err := fsys.Size(ctx, path)
	return size, err == nil
}

// errHeadRead stops a reading at its first document.
var errHeadRead = errors.New("head read")

// binaryHead tells whether the reading of a walked file skips it as
// binary: a NUL in the first 8 KiB of what it holds (decompressed), as
// the CLI's -r decides. The first range alone would not be skipped.
func binaryHead(path string, ra io.ReaderAt, size int64, o engine.Options) bool {
	rd := document.NewReader(document.Options{Format: o.Format, RequireCompressed: o.RequireCompressed, MaxWindow: o.MaxWindow, SkipBinary: true})
	err := rd.Read(io.NewSectionReader(ra, 0, size), path, func(*document.Document) error { return errHeadRead })
	return errors.Is(err, document.ErrBinary)
}

// openRanged opens a file for reading at any offset, mostly its bytes
// from to to (a range; the whole file for the listing). A file of the
// local filesystem is read where asked (an *os.File); an object of GCS
// or S3 by range requests (remoteReader: a range of R bytes costs about
// R/16 MiB requests, and transfers its own bytes only). Beam's other
// filesystems only open a stream from the start: each is read forward
// by a forwardReader, which costs a range the transfer of the bytes
// before it (skipped, not kept): a file of k ranges costs the listing's
// transfer of the file and (k+1)/2 files more, which is why they are
// read whole unless Config.RangeForward says otherwise.
func openRanged(ctx context.Context, path string, from, to int64) (io.ReaderAt, io.Closer, error) {
	if remoteScheme(path) {
		r, err := openRemote(ctx, path, from, to)
		if err != nil {
			return nil, nil, err
		}
		return r, r, nil
	}
	rc, err := openPath(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	if cb, ok := rc.(closeBoth); ok {
		if ra, ok := cb.ReadCloser.(io.ReaderAt); ok {
			return ra, rc, nil
		}
	}
	fr := &forwardReader{ctx: ctx, path: path, rc: rc}
	return fr, fr, nil
}

// forwardReader is an io.ReaderAt over a stream that reads from the
// start (Beam's OpenRead): a read at or past the stream's position skips
// to it; a read before it opens the file again. The engine reads a range
// from its start forward, so a range opens the file once or twice.
type forwardReader struct {
	ctx  context.Context
	path string

	mu  sync.Mutex
	rc  io.ReadCloser // nil once closed after an error
	pos int64
}

func (r *forwardReader) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rc == nil || off < r.pos {
		if r.rc != nil {
			r.rc.Close()
			r.rc = nil
		}
		rc, err := openPath(r.ctx, r.path)
		if err != nil {
			return 0, err
		}
		r.rc, r.pos = rc, 0
	}
	if off > r.pos {
		n, err := io.CopyN(io.Discard, r.rc, off-r.pos)
		r.pos += n
		if err != nil {
			return 0, err
		}
	}
	n, err := io.ReadFull(r.rc, p)
	r.pos += int64(n)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return n, err
}

func (r *forwardReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rc == nil {
		return nil
	}
	err := r.rc.Close()
	r.rc = nil
	return err
}

// rangeSearchFn reads each range as searchFn reads a whole file: its
// results written in the bundle's file, its URIs counted under their
// keys. Its messages are held, and emitted keyed by its file for
// tellRangesFn (only a range that has some). A failure of the storage
// that may pass fails the bundle, to be retried.
type rangeSearchFn struct {
	// Flags are the CLI's flags, as words (Config.Flags).
	Flags []string
	// Prefix and Compress are those of the results (Config).
	Prefix   string
	Compress Compression

	bundleSearch
}

func (f *rangeSearchFn) Setup() error { return f.setup(f.Flags, f.Prefix, f.Compress) }

// StartBundle begins the bundle's results file and counts (searchFn's).
func (f *rangeSearchFn) StartBundle(ctx context.Context, _ func(string), _ func(string, int64), _ func(string, string)) {
	f.start(ctx)
}

func (f *rangeSearchFn) Teardown() { f.results.abandon() }

func (f *rangeSearchFn) ProcessElement(ctx context.Context, in fileRange,
	_ func(string), emitKey func(string, int64), emitHeld func(string, string)) error {
	s := &f.sink
	s.ctx, s.emitKey = ctx, emitKey
	s.links.reset()
	ra, closer, err := openRanged(ctx, in.Path, in.Start, in.End)
	if err != nil {
		if transient(err) {
			return fmt.Errorf("%s: %w (the storage failed: retried)", in.Path, err)
		}
		// Listed, and now gone or unreadable: the file's error, told
		// where the CLI's reading would have ended (the first range
		// that could not be read).
		emitHeld(in.Path, encodeHeld(in.Index, engine.RangeMessages{File: in.Path,
			Error: fmt.Sprintf("urix: %s: %v\n", in.Path, unwrapPathError(err))}))
		return nil
	}
	defer closer.Close()
	o := f.opts
	results := &lineCounter{w: f.results}
	o.Stdout, o.Stderr, o.Sink = results, io.Discard, urisOnly{s}
	res := engine.RunRange(in.engineRange(), ra, o)
	if f.results.err != nil {
		return f.results.err // the bundle fails, to be retried
	}
	if transient(res.ReadErr) {
		return fmt.Errorf("%s, bytes %d-%d: %w (the storage failed: retried)", in.Path, in.Start, in.End, res.ReadErr)
	}
	if in.Index == 0 {
		filesRead.Inc(ctx, 1)
	}
	rangesRead.Inc(ctx, 1)
	bytesRead.Inc(ctx, res.Stats.Bytes)
	urisFound.Inc(ctx, res.Stats.Found)
	urisInvalid.Inc(ctx, res.Stats.Invalid)
	resultsCount.Inc(ctx, results.lines)
	for _, n := range res.Stats.Quality {
		qualityWarnings.Inc(ctx, int64(n))
	}
	if m := res.Messages; len(m.Warnings) > 0 || len(m.More) > 0 || m.Error != "" {
		emitHeld(in.Path, encodeHeld(in.Index, m))
	}
	return nil
}

// FinishBundle emits the bundle's counts and the name of its results
// file, for commitFn (searchFn's).
func (f *rangeSearchFn) FinishBundle(_ context.Context, emitName func(string), emitKey func(string, int64), _ func(string, string)) error {
	return f.finish(emitName, emitKey)
}

// urisOnly counts the URIs of a range; its messages are held
// (RangeResult.Messages), not told as they come.
type urisOnly struct{ s *fileSink }

func (u urisOnly) URI(file string, m *extract.Match, at *document.Origin) { u.s.URI(file, m, at) }
func (urisOnly) Message(engine.Message)                                   {}

// heldMessages are the messages of one range, as they go to
// tellRangesFn.
type heldMessages struct {
	Index    int
	Messages engine.RangeMessages
}

func encodeHeld(i int, m engine.RangeMessages) string {
	b, err := json.Marshal(heldMessages{i, m})
	if err != nil {
		panic(err) // strings, ints and a map of them
	}
	return string(b)
}

// tellRangesFn writes the messages of the ranges of one file that have
// some as the CLI writes those of the whole file (engine.TellMessages):
// each a line of the errors output.
type tellRangesFn struct{}

func (tellRangesFn) ProcessElement(ctx context.Context, file string, held func(*string) bool, emitMsg func(string)) {
	var all []heldMessages
	var s string
	for held(&s) {
		var h heldMessages
		if err := json.Unmarshal([]byte(s), &h); err != nil {
			panic(fmt.Sprintf("%s: held messages %q: %v", file, s, err)) // encodeHeld's
		}
		all = append(all, h)
	}
	slices.SortFunc(all, func(a, b heldMessages) int { return a.Index - b.Index })
	ranges := make([]engine.RangeMessages, len(all))
	for i, h := range all {
		ranges[i] = h.Messages
	}
	engine.TellMessages(tellSink{ctx, emitMsg}, ranges)
}

// tellSink writes each message as a line of the errors output, and
// counts it.
type tellSink struct {
	ctx     context.Context
	emitMsg func(string)
}

func (tellSink) URI(string, *extract.Match, *document.Origin) {}

func (t tellSink) Message(m engine.Message) {
	level := "warning"
	if m.Error {
		level = "error"
		fileErrors.Inc(t.ctx, 1)
	} else {
		warnings.Inc(t.ctx, int64(max(m.More, 1)))
	}
	t.emitMsg(encodeMessage(m.File, level, m.Text))
}
