package document

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/document/warc"
	"github.com/urix-dev/urix/extract"
)

// Format is the form of an input: plain text, one message, an mbox, a
// news article, a WARC file, or Auto for "tell by the first bytes".
type Format uint8

// The formats Read knows.
const (
	Auto Format = iota
	Text
	Mail
	Mbox
	News
	WARC
)

var formatNames = [...]string{Auto: "auto", Text: "text", Mail: "mail", Mbox: "mbox", News: "news", WARC: "warc"}

// String returns the name ParseFormat accepts for f.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat parses a format name: text, mail, mbox, news, warc or auto.
func ParseFormat(s string) (Format, error) {
	for f, name := range formatNames {
		if s == name {
			return Format(f), nil
		}
	}
	return Auto, fmt.Errorf("unknown input format %q (want text, mail, mbox, news, warc or auto)", s)
}

// Origin says where a document came from. Positions of what is found in a
// document (line, column, byte offset) are within the document's Body: the
// decoded part of a message, the block of a WARC record, or the whole of
// a text file.
type Origin struct {
	File   string // the name given to Read ("-" for standard input, by convention)
	Format Format // the format the input was read in (never Auto)

	// Mail and news (Format Mail, Mbox or News).
	Message       int    // 1-based number of the message in the input; 0 for other formats
	MessageOffset int64  // byte offset of the message in the (decompressed) input; of its "From " line in an mbox
	MessageID     string // the message's Message-ID without <>; "" when it has none
	Part          string // MIME part path as IMAP numbers it ("1", "1.2"); "" for a field of the message's own header
	Field         string // the header field whose value this is (canonical case), "" for a body part
	HTML          bool   // the text is that of a text/html part
	Source        Source // body text, header field, HTML visible text or HTML attribute
	Tag, Attr     string // for SourceHTMLAttr, the element and attribute ("a", "href")
	// Text is, for the href of an <a> or <area>, the link's visible
	// text: whitespace collapsed, trimmed, at most 256 bytes (behaviour
	// §10).
	Text string

	// WARC (Format WARC).
	Record       int    // 1-based number of the record in the file; 0 for other formats
	RecordOffset int64  // byte offset of the record in the (decompressed) file
	RecordID     string // WARC-Record-ID, as written (with its <>)
	TargetURI    string // WARC-Target-URI ("" when absent)
}

// Where describes the origin within its file for a message to a person,
// as urix's warnings say it: " in part 1.2 of message 7", " in the
// List-Post field of message 7", " in the record at offset 4096"; "" for
// plain text.
func (o *Origin) Where() string {
	switch {
	case o.Message > 0 && o.Field != "":
		return fmt.Sprintf(" in the %s field of message %d", o.Field, o.Message)
	case o.Message > 0:
		return fmt.Sprintf(" in part %s of message %d", o.Part, o.Message)
	case o.Format == WARC:
		return fmt.Sprintf(" in the record at offset %d", o.RecordOffset)
	}
	return ""
}

// Source says what part of a message a document's text is: the body of a
// text part, a header field's value, the visible text of an HTML part, or
// the value of an HTML attribute that holds a URL (behaviour §9). It is
// SourceBody for text and WARC inputs.
type Source = mail.Source

// The sources of a document's text.
const (
	SourceBody     = mail.SourceBody
	SourceHeader   = mail.SourceHeader
	SourceHTMLText = mail.SourceHTMLText
	SourceHTMLAttr = mail.SourceHTMLAttr
)

// A Document is one piece of text to search: a text file, a decoded part
// or header field of a message, a WARC record's block. The *Document a
// Reader gives is its own, valid until the next document is asked for,
// as its Body is: a caller that keeps one keeps a copy.
type Document struct {
	Origin
	// Body is the document's text, UTF-8 for mail (decoded from its
	// transfer encoding and charset), as it stands otherwise. It is valid
	// only until the next document is asked for.
	Body io.Reader

	// Value is, for an HTML attribute (Source SourceHTMLAttr) or the
	// Location of an HTTP response (SourceHTTPHeader), the value as the
	// HTML tokenizer or the header gives it (entity references decoded),
	// which Body reads as it stands. What it gives is extract's to
	// decide: extract.AttrReader reads it as the recipient's browser
	// does, against Base (behaviour §9).
	Value string
	// Base is the absolute URI a relative Value resolves against, ""
	// when there is none (mail.Part.Base; for HTML, extract.ResolveBase
	// chose it).
	Base string
}

// Warning is something wrong with the input that costs only a part of it
// (a bad message, a malformed WARC record, an unknown charset): the reading
// goes on after it.
type Warning struct {
	Origin         // the file, and the message or record where it is known
	Message string // what is wrong
	// Quality marks what a mail reader tolerates without a word (a
	// missing closing boundary, an unknown charset label, 8-bit bytes in
	// a header): counted, not printed, by default (behaviour §9).
	Quality bool
}

// String formats the warning as urix prints it: "FILE: message N: what".
func (w Warning) String() string {
	switch {
	case w.Origin.Message > 0:
		return fmt.Sprintf("%s: message %d: %s", w.File, w.Origin.Message, w.Message)
	default:
		return fmt.Sprintf("%s: %s", w.File, w.Message)
	}
}

// ErrBinary is returned (wrapped with the file's name) by Read with
// Options.SkipBinary when the input looks binary: a NUL byte in its first
// 8 KiB, as grep decides.
var ErrBinary = errors.New("binary file skipped")

// Options tell Read how to take its input. The zero value reads any input:
// the format is told by the first bytes, compression is undone.
type Options struct {
	Format Format // Auto (the zero value) tells it by the first bytes

	// RequireCompressed makes an input that is not compressed an error
	// wrapping ErrNotCompressed (urix -z).
	RequireCompressed bool

	// SkipBinary makes an input whose first 8 KiB hold a NUL yield no
	// document and return an error wrapping ErrBinary.
	SkipBinary bool

	// MaxWindow is the largest decoding window (an xz dictionary, a zstd
	// window) accepted, in bytes; a stream that declares more is an error,
	// stated before anything is allocated for it (behaviour §1). 0 means
	// DefaultMaxWindow.
	MaxWindow int64

	// Workers is how many goroutines may decode a gzip input of many
	// members ahead of the reading (Buffer.Workers), when the input is
	// also an io.ReaderAt and an io.Seeker with a Size: an
	// *io.SectionReader of a regular file. 0 or 1: none. The documents
	// are the same whatever it is.
	Workers int

	// AnchorText gives each <a>'s href its visible text (Origin.Text,
	// behaviour §10).
	AnchorText bool

	// Warn, when not nil, is told of each part of the input that is
	// skipped as malformed, and of an input read as text although it
	// begins like a compressed file. Reading goes on after each.
	Warn func(Warning)

	// NoMap makes ReadMessages read an mbox that is a regular file with
	// Read, as it reads any other input, rather than through a mapping
	// of the file into memory (see ReadMessages).
	NoMap bool
}

// HeadSize is how much of an input is looked at, at most, to tell a binary
// file or the format.
const HeadSize = 8 << 10

// A Reader reads documents, keeping its buffers from one input to the next
// (a Reader that reads many small files allocates nothing per file). It is
// not safe for concurrent use; its zero value is ready with zero Options.
type Reader struct {
	Options Options

	raw Buffer        // the decompressor's buffer
	br  *bufio.Reader // over the decompressed stream
	// mw walks inputs of one message each with the same buffers and
	// decoders (a Maildir's 5,000 files: 0.180 s, the same messages as
	// one mbox 0.043 s, the walker's allocations most of the difference).
	mw mail.PartWalker
	// streamAll walks a message the buffer holds whole as one that is
	// longer: for tests, which compare the two.
	streamAll bool
	// plain is set by read when the input is not compressed: its bytes
	// are the file's.
	plain bool
	// doc is the Document given to fn, reused from input to input (a
	// Maildir's file allocated one: 240 bytes of its 1.6 KB; issue 32).
	doc  Document
	mail mailCalls
}

// NewReader returns a Reader with the given options.
func NewReader(opts Options) *Reader { return &Reader{Options: opts} }

// Read reads one input, named name (for the Origin of its documents and
// for errors), and calls fn for each document in it, in input order. It
// returns fn's first error as is, or an error that ends the reading of the
// input (a read error, a corrupt compressed stream, a wrapped ErrBinary).
// What is wrong with only a part of the input (a bad message or WARC
// record) goes to Options.Warn and costs only that part.
func (rd *Reader) Read(r io.Reader, name string, fn func(*Document) error) error {
	return rd.read(r, name, func(br io.Reader, format Format) error {
		return rd.readAs(br, name, format, fn)
	})
}

// read undoes the compression of an input, tells its format and gives
// both to fn.
func (rd *Reader) read(r io.Reader, name string, fn func(br io.Reader, format Format) error) error {
	opts := &rd.Options
	rd.raw.MaxWindow, rd.raw.Workers = opts.MaxWindow, opts.Workers
	dec, comp, err := rd.raw.Decompress(r, opts.RequireCompressed)
	if err != nil {
		return err
	}
	rd.plain = comp == None && rd.raw.Fallback() == nil
	if c, ok := dec.(io.Closer); ok {
		defer c.Close() // its workers, when fn stops early
	}
	if fb := rd.raw.Fallback(); fb != nil && opts.Warn != nil {
		opts.Warn(Warning{Origin: Origin{File: name}, Message: fb.Error() + "; read as text"})
	}
	br := rd.reader(dec)
	head := rd.head(br)
	if opts.SkipBinary && IsBinary(head) {
		return ErrBinary
	}
	format := opts.Format
	if format == Auto {
		var why string
		format, why = detectWhy(head)
		if why != "" && opts.Warn != nil {
			opts.Warn(Warning{Origin: Origin{File: name}, Message: why + "; read as text"})
		}
	}
	return fn(br, format)
}

// readAs reads the documents of a decompressed input of a known format.
func (rd *Reader) readAs(br io.Reader, name string, format Format, fn func(*Document) error) error {
	doc := &rd.doc
	*doc = Document{Origin: Origin{File: name, Format: format}}
	switch format {
	case WARC:
		return rd.readWARC(br, name, fn)
	case Mail, Mbox, News:
		return rd.readMail(br, doc, fn)
	}
	doc.Body = br
	return fn(doc)
}

// reader returns a buffered reader of dec: dec itself when it is the
// decompressor's own buffer (the input was not compressed), else the
// Reader's second buffer, over the decoder.
func (rd *Reader) reader(dec io.Reader) *bufio.Reader {
	if br, ok := dec.(*bufio.Reader); ok && br.Size() >= bufSize {
		return br
	}
	if rd.br == nil {
		rd.br = bufio.NewReaderSize(dec, bufSize)
	} else {
		rd.br.Reset(dec)
	}
	return rd.br
}

// head returns the first bytes of an input, as many as the decisions on it
// need: HeadSize to tell a binary file, and with Format Auto no more than
// decides the format, so that a slow stream (tail -f | urix) is not held up
// waiting for 8 KiB, while the decision is the one the first 8 KiB would
// give. A read error shows again on the first read of the body.
func (rd *Reader) head(br *bufio.Reader) []byte {
	if rd.Options.SkipBinary {
		h, _ := br.Peek(HeadSize)
		return h
	}
	if rd.Options.Format != Auto {
		return nil
	}
	for want := 1; ; {
		if _, err := br.Peek(want); err != nil {
			h, _ := br.Peek(br.Buffered())
			return h
		}
		h, _ := br.Peek(min(HeadSize, br.Buffered()))
		if len(h) >= HeadSize || formatDecided(h) {
			return h
		}
		want = len(h) + 1
	}
}

const warcMagic = "WARC/1."

// formatDecided tells whether more input could change what detect says
// of the prefix h.
func formatDecided(h []byte) bool {
	if len(h) < len(warcMagic) && bytes.HasPrefix([]byte(warcMagic), h) {
		return false
	}
	if bytes.HasPrefix(h, []byte(warcMagic)) {
		_, decided := notWARC(h, false)
		return decided
	}
	if bytes.HasPrefix(h, []byte("From ")) {
		_, decided := notMbox(h, false)
		return decided
	}
	_, ok := mail.DetectEarly(h)
	return ok
}

// detectWhy tells the format of an input by its first bytes, all of it
// or HeadSize. An input that begins like a WARC file or an mbox but whose
// first record is none is text (firstrecord.go): why says why.
func detectWhy(head []byte) (f Format, why string) {
	if bytes.HasPrefix(head, []byte(warcMagic)) {
		if why, _ := notWARC(head, true); why != "" {
			return Text, "not a WARC file: " + why
		}
		return WARC, ""
	}
	switch mail.Detect(head) {
	case mail.FormatMbox:
		if why, _ := notMbox(head, true); why != "" {
			return Text, "not an mbox: " + why
		}
		return Mbox, ""
	case mail.FormatMail, mail.FormatNews:
		return Mail, ""
	}
	return Text, ""
}

// A Probe is what the first bytes of an input tell of it before it is
// read: its compression and, for an input that has none, its format (as
// Read with Format Auto would read it), why it is read as text when it
// began like another format, and whether it is binary. A reader that
// chooses how to read an input (whole, in chunks, by members) probes it
// once and decides from that.
type Probe struct {
	Compression Compression
	Format      Format // of the bytes as they stand; Text when compressed
	Why         string // set when Format is Text though the input began like WARC or an mbox
	Binary      bool   // IsBinary of the bytes as they stand
}

// ProbeHead probes an input by head, its first bytes (HeadSize of them,
// or all of a shorter input).
func ProbeHead(head []byte) Probe {
	p := Probe{Compression: Sniff(head), Format: Text}
	if p.Compression == None {
		p.Format, p.Why = detectWhy(head)
		p.Binary = IsBinary(head)
	}
	return p
}

// Detect tells the format of an input by its first bytes (up to HeadSize,
// or all of it): WARC, Mbox, Mail or Text. An input that begins like a
// WARC file or an mbox but whose first record is none (a WARC version line
// that is not one, a header without Content-Length; a "From " line with
// no sender and time) is Text.
func Detect(head []byte) Format {
	f, _ := detectWhy(head)
	return f
}

func (rd *Reader) readMail(r io.Reader, doc *Document, fn func(*Document) error) error {
	mf := mail.FormatMail
	switch doc.Format {
	case Mbox:
		mf = mail.FormatMbox
	case News:
		mf = mail.FormatNews
	}
	m := rd.mailCalls(doc, fn)
	opts := mail.Options{Format: mf, AnchorText: rd.Options.AnchorText, ResolveBase: extract.ResolveBase}
	if rd.Options.Warn != nil {
		opts.Warn, opts.Note = m.warnFn, m.noteFn
	}
	if mf == mail.FormatMbox {
		return mail.Walk(r, opts, m.partFn)
	}
	if br, ok := r.(*bufio.Reader); ok && !rd.streamAll {
		// A message the buffer holds whole (most files of a Maildir) is
		// walked where it lies, not copied into the walk's own buffer.
		if b, err := br.Peek(br.Size()); err == io.EOF {
			return rd.mw.WalkHeldMessage(b, opts, m.partFn)
		}
	}
	return rd.mw.WalkMessage(r, opts, m.partFn)
}

// mailCalls are the functions readMail hands the mail walker, made once
// a Reader: made for each input, as closures, they were a tenth of what
// a Maildir's file allocated (issue 32).
type mailCalls struct {
	rd     *Reader
	doc    *Document
	fn     func(*Document) error
	file   string
	format Format
	partFn func(*mail.Part) error
	warnFn func(int, string)
	noteFn func(int, string)
}

// mailCalls returns rd's mailCalls, set to give each part to fn as doc.
func (rd *Reader) mailCalls(doc *Document, fn func(*Document) error) *mailCalls {
	m := &rd.mail
	if m.rd == nil {
		m.rd = rd
		m.partFn, m.warnFn, m.noteFn = m.part, m.warn, m.note
	}
	m.doc, m.fn, m.file, m.format = doc, fn, doc.File, doc.Format
	return m
}

func (m *mailCalls) part(p *mail.Part) error {
	partDocument(m.doc, m.file, m.format, p)
	return m.fn(m.doc)
}

func (m *mailCalls) warn(msgNo int, msg string) {
	m.rd.Options.Warn(Warning{Origin: Origin{File: m.file, Format: m.format, Message: msgNo}, Message: msg})
}

func (m *mailCalls) note(msgNo int, msg string) {
	m.rd.Options.Warn(Warning{Origin: Origin{File: m.file, Format: m.format, Message: msgNo}, Message: msg, Quality: true})
}

// partDocument makes doc the document of a part of a message.
func partDocument(doc *Document, file string, format Format, p *mail.Part) {
	doc.Origin = Origin{
		File: file, Format: format,
		Message: p.MsgNo, MessageOffset: p.MsgOffset, MessageID: p.MessageID,
		Part: p.Path, Field: p.Field, HTML: p.HTML,
		Source: p.Source, Tag: p.Tag, Attr: p.Attr, Text: p.Text,
	}
	doc.Body = p.Body
	doc.Value, doc.Base = p.Value, p.Base
}

// readWARC reads the records of a WARC file as they stream (none held);
// a malformed record goes to Warn and costs only itself.
func (rd *Reader) readWARC(r io.Reader, name string, fn func(*Document) error) error {
	w := &MessageReader{Warn: rd.Options.Warn, AnchorText: rd.Options.AnchorText}
	return rd.warcRecords(warc.NewReader(r), name, -1, nil, nil, func(m *Message) error { return w.Documents(m, fn) })
}

// All returns the documents of one input as a sequence (extract.All
// is its counterpart for the URIs of a text), for a range loop:
//
//	for doc, err := range document.All(f, "archive.mbox", document.Options{}) {
//		if err != nil {
//			return err // the input could not be read on
//		}
//		... doc.Body, doc.Origin ...
//	}
//
// The sequence ends after an error (its document is nil). Breaking out of
// the loop stops the reading. A Reader keeps buffers from input to input
// where many inputs are read.
func All(r io.Reader, name string, opts Options) iter.Seq2[*Document, error] {
	return func(yield func(*Document, error) bool) {
		stop := errors.New("stop")
		err := NewReader(opts).Read(r, name, func(d *Document) error {
			if !yield(d, nil) {
				return stop
			}
			return nil
		})
		if err != nil && err != stop {
			yield(nil, err)
		}
	}
}
