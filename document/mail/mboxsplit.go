package mail

import (
	"bytes"
	"errors"
	"io"

	"github.com/urix-dev/urix/internal/blockread"
)

// Messages of an mbox, one at a time, for a caller that walks them on
// several goroutines: MboxSplitter cuts the stream at its "From " lines,
// as Walk does, and a PartWalker on each goroutine walks the messages it is
// given. A message is held in memory up to a size the caller chooses; a
// longer one is given as its first bytes and a reader of the rest, which
// must be walked before the splitter is asked for the next message.

// Message is one message of an mbox, as MboxSplitter gives it.
type Message struct {
	No     int   // 1-based number of the message in the input
	Offset int64 // byte offset of its "From " line (of its first byte when it has none)
	// Data is the message after its "From " line, its ">From " lines
	// unquoted; all of it when Rest is nil, else its first bytes.
	Data []byte
	// Rest reads the rest of a message longer than the splitter's
	// limit; it is valid until the next call to Next, nil when Data is
	// whole.
	Rest io.Reader
	// NoFrom is set for text before the first "From " line, which is read
	// as a message of its own (and warned of by the walk).
	NoFrom bool

	blk *blockread.Block // the block Data lies in, nil when it is in the caller's buffer
}

// Shared reports whether Data lies in a block of the splitter's, shared
// with other messages, rather than in the buffer given to Next: until
// Release, and never to be written to.
func (m *Message) Shared() bool { return m.blk != nil }

// Release gives back the block Data lies in (a Shared message); Data
// must not be used after it. For other messages it does nothing.
func (m *Message) Release() {
	if m.blk != nil {
		m.blk.Release()
		m.blk, m.Data = nil, nil
	}
}

// MboxSplitter reads an mbox message by message. It is not safe for
// concurrent use.
type MboxSplitter struct {
	m       mbox
	br      *blockread.Reader
	src     io.Reader
	mr      msgReader
	no      int
	started bool
}

// NewMboxSplitter returns a splitter of the mbox r.
func NewMboxSplitter(r io.Reader) *MboxSplitter {
	return &MboxSplitter{src: r, m: mbox{atStart: true, prevBlank: true, lineBlank: true}}
}

// NewMboxSplitterOf returns a splitter of the mbox data, which lies in
// memory (a file mapped into memory, for one): the messages it holds are
// slices of data itself, not copies, each held until its Release as a
// stream's are. free, when not nil, is given each stretch of data once
// the splitter is past it and no message given out holds it (the pages
// of a mapping may then go); done, when not nil, is called once Close
// was called and every message was released: nothing reads data then.
func NewMboxSplitterOf(data []byte, free func([]byte), done func()) *MboxSplitter {
	s := NewMboxSplitter(nil)
	s.br = blockread.NewMappedReader(blockread.Mapped{Data: data, Free: free, Done: done})
	s.m.br = s.br
	return s
}

// Close ends the reading of a splitter made by NewMboxSplitterOf (see
// there); no Next after it. It does nothing for a splitter of a stream.
func (s *MboxSplitter) Close() {
	if s.br != nil {
		s.br.Close()
	}
}

// Next reads the next message. One of up to max bytes is held whole: as a
// slice of a block the splitter reads the input into (Shared, until
// Release), or, when its text is not the input's bytes (a quoted "From "
// line loses a '>'), in buf (from its start, grown as needed). A longer
// one is given as its first max bytes and Rest. It returns io.EOF after
// the last message, and a read error of the input as it is.
func (s *MboxSplitter) Next(buf []byte, max int) (Message, error) {
	if s.br == nil {
		// max is known at the first call: a block has room for a message
		// of max bytes.
		s.br = blockread.NewReader(s.src, max)
		s.m.br = s.br
	}
	m := &s.m
	if s.mr.m != nil {
		// What the caller left of the message before.
		if _, err := io.Copy(io.Discard, &s.mr); err != nil {
			return Message{}, err
		}
		if s.mr.err != io.EOF {
			return Message{}, s.mr.err
		}
	}
	if !s.started {
		s.started = true
		// Blank lines before the first message are skipped, as by Walk.
		for {
			b, err := m.br.Peek(1)
			if err != nil {
				return Message{}, err
			}
			if b[0] != '\n' && b[0] != '\r' {
				break
			}
			m.br.Discard(1)
			m.off++
		}
	}
	msg := Message{Offset: m.off}
	if b, _ := m.br.Peek(5); string(b) == "From " {
		if err := m.skipFromLine(); err != nil && err != io.EOF {
			return Message{}, err
		}
	} else if _, err := m.br.Peek(1); err != nil {
		return Message{}, err
	} else {
		msg.NoFrom = true
	}
	s.no++
	msg.No = s.no
	s.mr = msgReader{m: m}
	data, blk, err := s.hold(buf[:0], max)
	msg.Data, msg.blk = data, blk
	switch {
	case err == io.EOF:
		s.mr = msgReader{}
	case err != nil:
		// A read error: the message as far as it was read, then the
		// error, as Walk gives it.
		s.mr = msgReader{}
		msg.Rest = errReader{err}
	default:
		msg.Rest = &s.mr
	}
	return msg, nil
}

// hold reads the message up to max bytes, as a slice of the current
// block (with the block, held for it) while its text is the input's
// bytes, else into buf as readUpTo does. The error is readUpTo's.
func (s *MboxSplitter) hold(buf []byte, max int) ([]byte, *blockread.Block, error) {
	br := s.br
	br.Mark()
	defer br.ClearMark()
	for total := 0; total < max; {
		seg, err := s.mr.segment(max - total)
		if s.mr.unquoted {
			// A quoted "From " line: the '>' just dropped (at r-1) is
			// not in the text, which is copied from here on.
			held := br.Marked()
			buf = append(buf, held[:len(held)-1]...)
			if err != nil {
				return buf, nil, err
			}
			buf = append(buf, seg...)
			s.mr.consume(len(seg))
			br.ClearMark()
			buf, err = readUpTo(&s.mr, buf, max)
			return buf, nil, err
		}
		if err != nil {
			data, blk := br.Held()
			return data, blk, err
		}
		s.mr.consume(len(seg))
		total += len(seg)
	}
	data, blk := br.Held()
	return data, blk, nil
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// readUpTo appends what r gives to buf until io.EOF (returned as such) or
// until buf holds max bytes (then the error is nil).
func readUpTo(r io.Reader, buf []byte, max int) ([]byte, error) {
	for len(buf) < max {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), max)])
		buf = buf[:len(buf)+n]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// A PartWalker walks messages given one at a time, keeping its buffers and
// decoders from one to the next. It is not safe for concurrent use; each
// goroutine has its own.
type PartWalker struct {
	w  walker
	lr lineReader
	br bytes.Reader
}

// WalkMessage walks the one message read from r, as Walk does for
// FormatMail and FormatNews (a first "From " line, a saved message's
// envelope, is skipped), keeping wk's buffers and decoders: a reader of
// many files of a message each (a Maildir, a news spool) allocates them
// once, not for every file.
func (wk *PartWalker) WalkMessage(r io.Reader, opts Options, fn func(*Part) error) error {
	wk.lr.reset(r)
	if b, _ := wk.lr.br.Peek(5); string(b) == "From " {
		if _, err := discardLine(wk.lr.br); err != nil && err != io.EOF {
			return err
		}
	}
	return wk.walk(1, 0, opts, fn)
}

// WalkHeldMessage is WalkMessage for a message held whole in b: its lines
// are read where they lie, as those of an mbox's held messages are, not
// copied into the PartWalker's buffer.
func (wk *PartWalker) WalkHeldMessage(b []byte, opts Options, fn func(*Part) error) error {
	if bytes.HasPrefix(b, []byte("From ")) {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		} else {
			b = nil
		}
	}
	wk.lr.resetHeld(b)
	return wk.walk(1, 0, opts, fn)
}

// walk walks the message wk.lr reads, numbered no, at offset off.
func (wk *PartWalker) walk(no int, off int64, opts Options, fn func(*Part) error) error {
	w := &wk.w
	w.opts, w.fn = opts, fn
	w.msgNo, w.msgOff = no, off
	err := w.walkMessageLR(&wk.lr)
	w.fn = nil
	if err == nil {
		return nil // without errors.As, whose target escapes: an allocation a message
	}
	var se stopError
	if errors.As(err, &se) {
		return se.err
	}
	return err
}

// Walk walks the message m of an mbox as Walk walks each message of the
// mbox: fn is called for each header field that may carry URIs and each
// text part, the Parts numbered with m.No and m.Offset; opts.Warn is told
// of what is wrong with it (opts.Format is not used).
func (wk *PartWalker) Walk(m *Message, opts Options, fn func(*Part) error) error {
	if m.NoFrom {
		wk.w.opts, wk.w.msgNo = opts, m.No
		wk.w.warn("mbox: text before the first \"From \" line read as a message")
	}
	if m.Rest != nil {
		wk.br.Reset(m.Data)
		wk.lr.reset(io.MultiReader(&wk.br, m.Rest))
	} else {
		// Held whole: its lines are read in place.
		wk.lr.resetHeld(m.Data)
	}
	return wk.walk(m.No, m.Offset, opts, fn)
}
