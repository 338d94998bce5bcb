package document

import (
	"errors"
	"io"
	"runtime/debug"
	"sync"

	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/document/warc"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/internal/inplace"
	"github.com/urix-dev/urix/internal/mapfile"
)

// Messages, for a caller that reads the messages of an mbox on several
// goroutines: Reader.ReadMessages cuts an input into Messages, each read
// by a MessageReader on any goroutine, while their results are put back in order
// by the caller.

// DefaultMaxMessage is the size up to which ReadMessages holds a message
// in memory, for ReadMessages' max of 0.
const DefaultMaxMessage = 1 << 20

// A Message is a piece of an input whose documents can be read apart
// from the rest: one message of an mbox, one record of a WARC file, or a
// whole input of another format. A Held message is in memory: its Documents may be read on any
// goroutine, after the ReadMessages callback that gave it has returned,
// until Release. One that is not held (a whole input that is no mbox, a
// message longer than the limit) is read from the input as it goes: its
// Documents must be read within that callback.
type Message struct {
	Origin Origin // File and Format; Message and MessageOffset for a message of an mbox; the Record fields for a WARC record

	m      mail.Message
	record bool // a WARC record: m.Data (and m.Rest) is its block
	// warcType and warcContentType are the record's WARC-Type and
	// Content-Type: what its block holds (behaviour §9).
	warcType, warcContentType string
	warns                     []Warning // malformed WARC records before this one, told first
	buf                       *[]byte
	hold                      warc.Hold // a held WARC record's hold on the reader's buffer
	stream                    func(w *MessageReader, fn func(*Document) error) error
	mapped                    []byte // the mapping of the file the message lies in, if any
}

// Held reports whether the message is held in memory whole.
func (m *Message) Held() bool { return m.stream == nil && m.m.Rest == nil }

// Size is the memory a held message takes (its buffer, which may be
// larger than the message, or its bytes in a block shared with others,
// and what a Message costs itself), 0 for one not held.
func (m *Message) Size() int {
	if !m.Held() {
		return 0
	}
	return cap(m.m.Data) + messageCost
}

// messageCost is about what a held Message costs besides its text (the
// Message, its Origin's strings, its share of a MessageReader's work): counted
// by their text alone, the runs of a caller that holds messages by Size
// held 10,000 messages of an mbox of 40-byte ones each, and 63 MB in all.
const messageCost = 1 << 10

// Release gives the memory of a held message back for the next ones;
// the message must not be used after it.
func (m *Message) Release() {
	m.m.Release()
	if m.hold != nil {
		m.hold.Release()
		m.hold = nil
	}
	if m.buf != nil {
		*m.buf = m.m.Data[:0]
		messageBufs.Put(m.buf)
		m.buf, m.m.Data = nil, nil
	}
}

var messageBufs = sync.Pool{New: func() any { return new([]byte) }}

// messageBuf returns a buffer for a message, of 4 KiB at least: grown
// from nothing by append, a message's buffer was copied as many times as
// it doubled. (32 KiB at least copied less still, but an mbox of a
// million 40-byte messages then held 85 MB in buffers of runs.)
func messageBuf() *[]byte {
	buf := messageBufs.Get().(*[]byte)
	if cap(*buf) < 4<<10 {
		*buf = make([]byte, 0, 4<<10)
	}
	return buf
}

// A MessageReader reads the documents of Messages, keeping its buffers and
// decoders from one message to the next. Each goroutine has its own.
type MessageReader struct {
	// Warn, when not nil, is told of what is wrong with a message (as
	// Options.Warn is by Read); the reading goes on after it.
	Warn func(Warning)
	// AnchorText gives each <a>'s href its visible text (Origin.Text,
	// behaviour §10), as Options.AnchorText.
	AnchorText bool

	mw  mail.PartWalker
	doc Document
	br  inplace.Reader // a held record's block, given in place

	cur    *Message              // the message being walked
	fn     func(*Document) error // and the caller's function
	partFn func(*mail.Part) error
	warnFn func(int, string)
	noteFn func(int, string)
}

// Documents calls fn for each document of m, in order, as Read would for
// that piece of the input. It returns fn's first error as is, or a read
// error of the input (for a message that lies in a mapping of its file,
// a *MapFaultError when the file shrank as it was read).
func (w *MessageReader) Documents(m *Message, fn func(*Document) error) (err error) {
	if m.stream != nil {
		return m.stream(w, fn)
	}
	if w.Warn != nil {
		for _, wn := range m.warns {
			w.Warn(wn)
		}
	}
	if m.mapped != nil {
		// A fault in the mapping (the file shrank) is an error of the
		// reading, not a crash (behaviour §1.5).
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer w.recoverFault(m.mapped, &err)
	}
	if m.record {
		if m.m.Data == nil && m.m.Rest == nil {
			return nil // only the warnings of the records before the end
		}
		w.br.Reset(m.m.Data)
		var body io.Reader = &w.br
		switch {
		case m.m.Rest != nil && len(m.m.Data) == 0:
			body = m.m.Rest
		case m.m.Rest != nil:
			body = io.MultiReader(body, m.m.Rest)
		}
		return w.record(m, body, fn)
	}
	w.cur, w.fn = m, fn
	defer func() { w.cur, w.fn = nil, nil }()
	return w.mw.Walk(&m.m, w.mailOptions(), w.partFn)
}

// recoverFault, deferred by Documents, sets *err to the error of a fault
// in the mapping m; the walk it cut short left the mail MessageReader half-way,
// and the next message gets a new one. Any other panic goes on.
func (w *MessageReader) recoverFault(m []byte, err *error) {
	e := recover()
	if e == nil {
		return
	}
	f := mapfile.Fault(e, m)
	if f == nil {
		panic(e)
	}
	w.mw = mail.PartWalker{}
	*err = f
}

// MapFaultError is the error of a message of a file mapped into memory
// whose bytes could not be read: the file shrank as it was read, or its
// storage failed.
type MapFaultError = mapfile.FaultError

// part and warn are the functions Documents gives the walk of w.cur.
func (w *MessageReader) part(p *mail.Part) error {
	partDocument(&w.doc, w.cur.Origin.File, w.cur.Origin.Format, p)
	if w.cur.record {
		// A WARC response's body: the record's origin, with what the
		// part tells of the HTML.
		source, tag, attr, html, text := w.doc.Source, w.doc.Tag, w.doc.Attr, w.doc.HTML, w.doc.Text
		w.doc.Origin = w.cur.Origin
		w.doc.Source, w.doc.Tag, w.doc.Attr, w.doc.HTML, w.doc.Text = source, tag, attr, html, text
	}
	return w.fn(&w.doc)
}

func (w *MessageReader) warn(msgNo int, msg string) { w.Warn(w.warning(msgNo, msg)) }

// note is warn for what a mail reader tolerates without a word.
func (w *MessageReader) note(msgNo int, msg string) {
	wn := w.warning(msgNo, msg)
	wn.Quality = true
	w.Warn(wn)
}

func (w *MessageReader) warning(msgNo int, msg string) Warning {
	o := Origin{File: w.cur.Origin.File, Format: w.cur.Origin.Format, Message: msgNo}
	if w.cur.record {
		o = w.cur.Origin
	}
	return Warning{Origin: o, Message: msg}
}

// mailOptions are the options of the walk of w.cur; the functions given
// to the walk are made once a MessageReader (two closures a message were a
// tenth of an mbox's allocations); they read the message and fn from the
// MessageReader.
func (w *MessageReader) mailOptions() mail.Options {
	if w.partFn == nil {
		w.partFn = w.part
		w.warnFn = w.warn
		w.noteFn = w.note
	}
	if w.Warn == nil {
		return mail.Options{AnchorText: w.AnchorText, ResolveBase: extract.ResolveBase}
	}
	return mail.Options{Warn: w.warnFn, Note: w.noteFn, AnchorText: w.AnchorText, ResolveBase: extract.ResolveBase}
}

// ReadMessages reads one input as Read does, but gives fn its pieces
// instead of their documents: each message of an mbox and each record of
// a WARC file, held in memory when it is no longer than max bytes (0:
// DefaultMaxMessage); any other input as one Message that is not held. What is wrong with the input as
// a whole (a compressed stream read as text) goes to Options.Warn, what
// is wrong with a message to the MessageReader that reads it. It returns fn's
// first error as is, or an error that ends the reading of the input.
//
// An mbox or a WARC file that is a regular file (r an *os.File, or a
// FileReader), not compressed, is read through a mapping of the file into
// memory (Linux; not with Options.NoMap), as large as the file is when
// ReadMessages begins: its held messages and records are slices of the
// mapping, which lasts until the last is released; a fault in it (the
// file shrank as it was read) is a *MapFaultError, of ReadMessages or of
// the MessageReader that reads the message. The file is left at its end.
func (rd *Reader) ReadMessages(r io.Reader, name string, max int, fn func(*Message) error) error {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	src, mappable := rd.fileSource(r) // where r stands, before it is read
	return rd.read(r, name, func(br io.Reader, format Format) error {
		if format == WARC {
			if data := rd.mapped(src, mappable); data != nil {
				return rd.mappedWARC(src, data, name, max, fn)
			}
			return rd.warcRecords(warc.NewReader(br), name, max, nil, nil, fn)
		}
		if format != Mbox {
			return fn(&Message{Origin: Origin{File: name, Format: format}, stream: func(w *MessageReader, dfn func(*Document) error) error {
				saved := rd.Options.Warn
				rd.Options.Warn = w.Warn
				defer func() { rd.Options.Warn = saved }()
				return rd.readAs(br, name, format, dfn)
			}})
		}
		if data := rd.mapped(src, mappable); data != nil {
			return rd.mappedMbox(src, data, name, max, fn)
		}
		return splitMbox(br, name, max, 0, 0, fn)
	})
}

// warcRecords gives fn the records of a WARC file, each held when its
// block is no longer than max bytes (never when max < 0). A malformed
// record costs only itself (package warc resynchronises at the next one,
// however many there are); it is told (by the MessageReader) before the next
// record's documents, or in a last Message with no document when none
// follows, so that the warnings keep their place.
//
// The records of a WARC file mapped into memory (wr made by
// warc.NewReaderOf) lie in mapped; tell is told of the input read as far
// as each record's end.
func (rd *Reader) warcRecords(wr *warc.Reader, name string, max int, mapped []byte, tell func(int64), fn func(*Message) error) error {
	var warns []Warning
	n := 0 // a record number counts every record, good or not
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			if len(warns) > 0 {
				return fn(&Message{Origin: Origin{File: name, Format: WARC}, record: true, warns: warns})
			}
			return nil
		}
		n++
		if err != nil {
			var fe *warc.FormatError
			if !errors.As(err, &fe) {
				return err
			}
			warns = append(warns, Warning{Origin: Origin{File: name, Format: WARC}, Message: err.Error()})
			continue
		}
		m := &Message{
			Origin: Origin{File: name, Format: WARC, Record: n, RecordOffset: rec.Offset, RecordID: rec.RecordID, TargetURI: rec.TargetURI},
			record: true, warns: warns, mapped: mapped,
			warcType: rec.Type, warcContentType: rec.Header.Get("Content-Type"),
		}
		if tell != nil {
			tell(rec.Offset + rec.ContentLength)
		}
		warns = nil
		m.m.Rest = rec.Body
		if rec.ContentLength <= int64(max) {
			// Held: the block, of a length the header gave, most often
			// a slice of the warc.Reader's buffer.
			data, hold, err := wr.HoldBody(max)
			m.m.Data, m.m.Rest, m.hold = data, nil, hold
			if err != nil {
				// The block as far as it was read, then the error,
				// as Read gives it.
				m.m.Rest = errReader{err}
			}
		}
		if err := fn(m); err != nil {
			return err
		}
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// splitMbox cuts the messages of an mbox read from br and gives each to
// fn, which owns it (Message.Release), numbered and placed from number
// and offset on (0, 0 for a whole input; a range's first message's
// number less one and its offset for a range, ReadRange).
func splitMbox(br io.Reader, name string, max, number int, offset int64, fn func(*Message) error) error {
	sp := mail.NewMboxSplitter(br)
	for {
		buf := messageBuf()
		mm, err := sp.Next(*buf, max)
		if err != nil {
			messageBufs.Put(buf)
			if err == io.EOF {
				return nil
			}
			return err
		}
		if mm.Shared() {
			// In a block of the splitter's: buf was not needed.
			messageBufs.Put(buf)
			buf = nil
		}
		mm.No += number
		mm.Offset += offset
		m := &Message{Origin: Origin{File: name, Format: Mbox, Message: mm.No, MessageOffset: mm.Offset}, m: mm, buf: buf}
		if err := fn(m); err != nil {
			return err
		}
	}
}
