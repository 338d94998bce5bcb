package document

import (
	"io"
	"sync"

	"github.com/urix-dev/urix/document/mail"
)

// Messages, for a caller that reads the messages of an mbox on several
// goroutines: Reader.ReadMessages cuts an input into Messages, each read
// by a Walker on any goroutine, while their results are put back in order
// by the caller.

// DefaultMaxMessage is the size up to which ReadMessages holds a message
// in memory, for ReadMessages' max of 0.
const DefaultMaxMessage = 1 << 20

// A Message is a piece of an input whose documents can be read apart
// from the rest: one message of an mbox, or a whole input of another
// format. A Held message is in memory: its Documents may be read on any
// goroutine, after the ReadMessages callback that gave it has returned,
// until Release. One that is not held (a whole input that is no mbox, a
// message longer than the limit) is read from the input as it goes: its
// Documents must be read within that callback.
type Message struct {
	Origin Origin // File and Format; Message and MessageOffset for a message of an mbox

	m      mail.Message
	buf    *[]byte
	stream func(w *Walker, fn func(*Document) error) error
}

// Held reports whether the message is held in memory whole.
func (m *Message) Held() bool { return m.stream == nil && m.m.Rest == nil }

// Size is the size of a held message in memory, 0 for one not held.
func (m *Message) Size() int {
	if !m.Held() {
		return 0
	}
	return len(m.m.Data)
}

// Release gives the memory of a held message back for the next ones;
// the message must not be used after it.
func (m *Message) Release() {
	if m.buf != nil {
		*m.buf = m.m.Data[:0]
		messageBufs.Put(m.buf)
		m.buf, m.m.Data = nil, nil
	}
}

var messageBufs = sync.Pool{New: func() any { return new([]byte) }}

// A Walker reads the documents of Messages, keeping its buffers and
// decoders from one message to the next. Each goroutine has its own.
type Walker struct {
	// Warn, when not nil, is told of what is wrong with a message (as
	// Options.Warn is by Read); the reading goes on after it.
	Warn func(Warning)

	mw  mail.Walker
	doc Document
}

// Documents calls fn for each document of m, in order, as Read would for
// that piece of the input. It returns fn's first error as is, or a read
// error of the input.
func (w *Walker) Documents(m *Message, fn func(*Document) error) error {
	if m.stream != nil {
		return m.stream(w, fn)
	}
	var warn func(int, string)
	if w.Warn != nil {
		warn = func(msgNo int, msg string) {
			w.Warn(Warning{Origin: Origin{File: m.Origin.File, Format: m.Origin.Format, Message: msgNo}, Message: msg})
		}
	}
	doc := &w.doc
	return w.mw.Walk(&m.m, mail.Options{Warn: warn}, func(p *mail.Part) error {
		partDocument(doc, m.Origin.File, m.Origin.Format, p)
		return fn(doc)
	})
}

// ReadMessages reads one input as Read does, but gives fn its pieces
// instead of their documents: each message of an mbox, held in memory
// when it is no longer than max bytes (0: DefaultMaxMessage); any other
// input as one Message that is not held. What is wrong with the input as
// a whole (a compressed stream read as text) goes to Options.Warn, what
// is wrong with a message to the Walker that reads it. It returns fn's
// first error as is, or an error that ends the reading of the input.
func (rd *Reader) ReadMessages(r io.Reader, name string, max int, fn func(*Message) error) error {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	return rd.read(r, name, func(br io.Reader, format Format) error {
		if format != Mbox {
			return fn(&Message{Origin: Origin{File: name, Format: format}, stream: func(w *Walker, dfn func(*Document) error) error {
				saved := rd.Options.Warn
				rd.Options.Warn = w.Warn
				defer func() { rd.Options.Warn = saved }()
				return rd.readAs(br, name, format, dfn)
			}})
		}
		sp := mail.NewMboxSplitter(br)
		for {
			buf := messageBufs.Get().(*[]byte)
			mm, err := sp.Next(*buf, max)
			if err != nil {
				messageBufs.Put(buf)
				if err == io.EOF {
					return nil
				}
				return err
			}
			m := &Message{Origin: Origin{File: name, Format: Mbox, Message: mm.No, MessageOffset: mm.Offset}, m: mm, buf: buf}
			if err := fn(m); err != nil {
				return err
			}
		}
	})
}
