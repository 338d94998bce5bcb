package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Doc)(nil)).Elem())
	register.DoFn6x1[context.Context, fileio.ReadableFile, func(Doc), func(string), func(string, int64), func(string), error](&readFn{})
	register.DoFn5x1[context.Context, Doc, func(string), func(string, int64), func(string), error](&extractFn{})
	register.Emitter1[Doc]()
	register.Emitter1[string]()
	register.Emitter2[string, int64]()
}

// Doc is one document of an input (document.Document) as a pipeline
// element: its origin and its whole body. One element per message or WARC
// record is what lets a few large files keep every worker busy.
type Doc struct {
	File          string
	Format        int
	Message       int
	MessageOffset int64
	MessageID     string
	Part          string
	Field         string
	HTML          bool
	Source        int
	Tag, Attr     string
	Text          string // the visible text of an <a> (document.Origin.Text)
	Value         string // an HTML attribute's value (document.Document.Value)
	Base          string // document.Document.Base
	Record        int
	RecordOffset  int64
	RecordID      string
	TargetURI     string
	Body          []byte
}

func docOf(d *document.Document, body []byte) Doc {
	o := &d.Origin
	return Doc{
		File: o.File, Format: int(o.Format),
		Message: o.Message, MessageOffset: o.MessageOffset, MessageID: o.MessageID,
		Part: o.Part, Field: o.Field, HTML: o.HTML,
		Source: int(o.Source), Tag: o.Tag, Attr: o.Attr, Text: o.Text, Value: d.Value, Base: d.Base,
		Record: o.Record, RecordOffset: o.RecordOffset, RecordID: o.RecordID, TargetURI: o.TargetURI,
		Body: body,
	}
}

func (d *Doc) origin() document.Origin {
	return document.Origin{
		File: d.File, Format: document.Format(d.Format),
		Message: d.Message, MessageOffset: d.MessageOffset, MessageID: d.MessageID,
		Part: d.Part, Field: d.Field, HTML: d.HTML,
		Source: document.Source(d.Source), Tag: d.Tag, Attr: d.Attr, Text: d.Text,
		Record: d.Record, RecordOffset: d.RecordOffset, RecordID: d.RecordID, TargetURI: d.TargetURI,
	}
}

// DefaultSpreadLimit is the largest document sent on as an element of its
// own. A larger one (a plain text file of gigabytes) is searched where it
// is read, streaming, in bounded memory (behaviour §1), as the CLI reads
// it; WARC records (Common Crawl truncates them at 1 MiB) and mail parts
// are far below it.
const DefaultSpreadLimit = 8 << 20

var (
	filesRead  = beam.NewCounter("urix", "files")
	fileErrors = beam.NewCounter("urix", "errors")
	warnings   = beam.NewCounter("urix", "warnings")
	// qualityWarnings counts what mail readers tolerate without a word
	// (behaviour §9.9): counted, not emitted, as the CLI does without
	// --warnings.
	qualityWarnings = beam.NewCounter("urix", "data_quality_warnings")
	docsSpread      = beam.NewCounter("urix", "documents_spread")
	docsInline      = beam.NewCounter("urix", "documents_inline")
	bytesRead       = beam.NewCounter("urix", "bytes")
	urisFound       = beam.NewCounter("urix", "uris")
	urisInvalid     = beam.NewCounter("urix", "invalid")
	resultsCount    = beam.NewCounter("urix", "results")
)

// readFn reads one matched file with the document reader and emits its
// documents; a document larger than SpreadLimit is searched at once, so
// that no element is unbounded. What cannot be read is a message, as the
// CLI's stderr is: the other files are still read and the run's error
// count says so.
type readFn struct {
	Opts        Options
	SpreadLimit int

	rd  *document.Reader
	x   *extractor
	buf []byte
}

func (f *readFn) Setup() error {
	dopts, err := f.Opts.documentOptions()
	if err != nil {
		return err
	}
	f.rd = document.NewReader(dopts)
	f.x, err = newExtractor(f.Opts)
	return err
}

func (f *readFn) ProcessElement(ctx context.Context, file fileio.ReadableFile,
	emitDoc func(Doc), emitLine func(string), emitKey func(string, int64), emitMsg func(string)) error {
	name := file.Metadata.Path
	f.x.start(ctx, emitLine, emitKey, emitMsg)
	defer f.x.finish()
	f.rd.Options.Warn = func(w document.Warning) {
		if w.Quality {
			qualityWarnings.Inc(ctx, 1)
			return
		}
		warnings.Inc(ctx, 1)
		msg := w.Message
		if w.Origin.Message > 0 {
			msg = fmt.Sprintf("message %d: %s", w.Origin.Message, w.Message)
		}
		emitMsg(encodeMessage(name, "warning", msg))
	}
	rc, err := file.Open(ctx)
	if err != nil {
		fileErrors.Inc(ctx, 1)
		emitMsg(encodeMessage(name, "error", unwrapPathError(err).Error()))
		return nil
	}
	defer rc.Close()
	filesRead.Inc(ctx, 1)
	cr := &countingReader{r: rc}
	limit := f.SpreadLimit
	if limit <= 0 {
		limit = DefaultSpreadLimit
	}
	err = f.rd.Read(cr, name, func(d *document.Document) error {
		var rerr error
		f.buf, rerr = readUpTo(f.buf[:0], d.Body, limit+1)
		if rerr == nil && len(f.buf) <= limit {
			docsSpread.Inc(ctx, 1)
			emitDoc(docOf(d, bytes.Clone(f.buf)))
			return nil
		}
		// Too large to be an element, or cut short by an error: searched
		// here, the scanner seeing the same bytes and then the same error
		// as the CLI's does (behaviour §1: what was decoded before a
		// corrupt block is searched and printed).
		docsInline.Inc(ctx, 1)
		rest := d.Body
		if rerr != nil {
			rest = errReader{rerr}
		}
		return f.x.document(&d.Origin, io.MultiReader(bytes.NewReader(f.buf), rest))
	})
	bytesRead.Inc(ctx, cr.n)
	if err != nil {
		fileErrors.Inc(ctx, 1)
		emitMsg(encodeMessage(name, "error", unwrapPathError(err).Error()))
	}
	if cap(f.buf) > 2*limit+(1<<20) {
		f.buf = nil
	}
	return nil
}

// extractFn searches the documents spread by readFn.
type extractFn struct {
	Opts Options

	x *extractor
}

func (f *extractFn) Setup() (err error) {
	f.x, err = newExtractor(f.Opts)
	return err
}

func (f *extractFn) ProcessElement(ctx context.Context, d Doc,
	emitLine func(string), emitKey func(string, int64), emitMsg func(string)) error {
	f.x.start(ctx, emitLine, emitKey, emitMsg)
	defer f.x.finish()
	o := d.origin()
	if o.Source == document.SourceHTMLAttr {
		if !f.x.attr(&o, d.Value, d.Base) {
			return nil
		}
		d.Body = []byte(d.Value) // not a URI: its text is searched
	}
	// A bytes.Reader never fails: an error here is the scanner's own.
	if err := f.x.document(&o, bytes.NewReader(d.Body)); err != nil {
		fileErrors.Inc(ctx, 1)
		emitMsg(encodeMessage(d.File, "error", err.Error()))
	}
	return nil
}

// extractor searches documents and emits their results, the keys they are
// counted under, and the warnings of skipped candidates. It keeps its
// scanner from document to document.
type extractor struct {
	invalid bool
	opts    extract.Options
	sc      *extract.Scanner
	ar      *extract.AttrReader
	cur     *document.Origin // the document being searched, for OnSkip

	ctx      context.Context
	emitLine func(string)
	emitKey  func(string, int64)
	emitMsg  func(string)

	line   []byte
	counts map[string]int64 // keys of the bundle's element, summed before they are emitted
}

func newExtractor(o Options) (*extractor, error) {
	opts, err := o.Extract()
	if err != nil {
		return nil, err
	}
	x := &extractor{invalid: o.Invalid, counts: make(map[string]int64)}
	opts.OnSkip = x.skipped
	x.opts = opts
	return x, nil
}

// start sets the emitters of one element: Beam's are valid only during
// the ProcessElement call that received them.
func (x *extractor) start(ctx context.Context, line func(string), key func(string, int64), msg func(string)) {
	x.ctx, x.emitLine, x.emitKey, x.emitMsg = ctx, line, key, msg
}

// finish emits the counts held and lets go of the emitters.
func (x *extractor) finish() {
	x.flushCounts()
	x.ctx, x.emitLine, x.emitKey, x.emitMsg = nil, nil, nil, nil
}

// maxHeldKeys bounds the counts held before they are emitted: a large
// document searched inline can hold any number of distinct URIs.
const maxHeldKeys = 1 << 14

func (x *extractor) flushCounts() {
	for k, n := range x.counts {
		x.emitKey(k, n)
	}
	clear(x.counts)
}

// document searches one document's body; o stays valid for the call.
func (x *extractor) document(o *document.Origin, body io.Reader) error {
	x.cur = o
	if x.sc == nil {
		x.sc = extract.NewScanner(body, x.opts)
	} else {
		x.sc.Reset(body)
	}
	for x.sc.Scan() {
		x.match(o, x.sc.Match())
	}
	x.cur = nil
	return x.sc.Err()
}

// whole reports an HTML attribute value with a character that can never
// be in a URI: one candidate, invalid as a whole, as the CLI does
// (behaviour §3.5, §9.5).
// attr emits what an HTML attribute value gives, read as the recipient's
// browser reads it (behaviour §9); it reports whether the value is to be
// searched as text instead.
func (x *extractor) attr(o *document.Origin, value, base string) (asText bool) {
	if x.ar == nil {
		x.ar = extract.NewAttrReader(x.opts)
	}
	kind, m := x.ar.Read(value, base)
	if kind == extract.AttrURI {
		x.match(o, m)
	}
	return kind == extract.AttrText
}

// match counts one URI found and emits it, when it is one to print.
func (x *extractor) match(o *document.Origin, m *extract.Match) {
	urisFound.Inc(x.ctx, 1)
	if !m.Valid {
		urisInvalid.Inc(x.ctx, 1)
	}
	if m.Valid == x.invalid {
		return
	}
	resultsCount.Inc(x.ctx, 1)
	x.line = encodeRecord(x.line[:0], o.File, m, o)
	x.emitLine(string(x.line))
	k := keysOf(m.URI, m.Normalized, m.Valid)
	for _, key := range k.encode() {
		x.counts[key]++
	}
	if len(x.counts) > maxHeldKeys {
		x.flushCounts()
	}
}

// skipped reports a candidate longer than --max-length in the CLI's words.
func (x *extractor) skipped(sk extract.Skip) {
	warnings.Inc(x.ctx, 1)
	msg := fmt.Sprintf("skipped a candidate of %d bytes at offset %d%s (longer than --max-length)",
		sk.End-sk.Offset, sk.Offset, x.cur.Where())
	x.emitMsg(encodeMessage(x.cur.File, "warning", msg))
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

// readUpTo appends to b what r gives, up to n bytes; it returns nil at
// the end of r (or at n bytes), else r's error.
func readUpTo(b []byte, r io.Reader, n int) ([]byte, error) {
	for len(b) < n {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Read(b[len(b):min(cap(b), n)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// unwrapPathError drops the "open NAME:" that the file name beside the
// message already says.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
