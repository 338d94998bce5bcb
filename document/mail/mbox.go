package mail

import (
	"bufio"
	"bytes"
	"io"
)

// mbox splits a stream of messages at "From " lines, with bounded memory.
// A line beginning "From " starts a new message when it is the first line,
// follows a blank line, or looks like an envelope line ("From addr date"
// with a hh:mm time in it) - so an unquoted "From here..." inside a
// paragraph does not split a message. In message text, one level of
// ">From " quoting (mboxrd; mboxo's ">From " too) is removed.
type mbox struct {
	br        peeker
	off       int64 // input offset of the next byte of br
	atStart   bool  // at the start of a line
	prevBlank bool  // the line before the current one was blank
	lineBlank bool  // the current line so far holds only "\r"
}

// envelopeLike reports whether line (without its "\n") looks like an mbox
// envelope line: "From " then a non-blank word, and a time hh:mm later on.
func envelopeLike(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("From ")) || len(line) < 7 || line[5] == ' ' {
		return false
	}
	for i := 5; i+3 < len(line); i++ {
		if line[i+1] == ':' && isDigit(line[i]) && isDigit(line[i+2]) && isDigit(line[i+3]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// atFrom reports whether a message separator line starts at the current
// position (which must be a line start).
func (m *mbox) atFrom() bool {
	b, _ := m.br.Peek(5)
	if string(b) != "From " {
		return false
	}
	if m.prevBlank {
		return true
	}
	b, _ = m.br.Peek(256)
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return envelopeLike(b)
}

// quotedFrom tells whether the line at the current position is a quoted
// "From " line: '>'s, then "From ". It peeks no further than it needs:
// a Peek of the whole buffer made each message of an mbox with a quoted
// line cost a read system call and a slide of the buffer (50,000 small
// messages: 50,017 reads).
func (m *mbox) quotedFrom() bool {
	for n := 64; ; n = min(2*n, bufSize) {
		b, err := m.br.Peek(n)
		i := 0
		for i < len(b) && b[i] == '>' {
			i++
		}
		if i == 0 || i+5 <= len(b) || err != nil || n == bufSize {
			return i > 0 && bytes.HasPrefix(b[i:], []byte("From "))
		}
	}
}

// skipFromLine consumes the "From " line at the current position.
func (m *mbox) skipFromLine() error {
	n, err := discardLine(m.br)
	m.off += n
	m.atStart, m.prevBlank, m.lineBlank = true, false, true
	return err
}

// msgReader reads the text of one message of an mbox, up to the next
// separator line.
type msgReader struct {
	m        *mbox
	done     bool
	err      error
	unquoted bool // a '>' of a quoted "From " line was dropped
}

func (r *msgReader) Read(p []byte) (int, error) {
	if len(p) == 0 && !r.done {
		return 0, nil
	}
	data, err := r.segment(len(p))
	if err != nil {
		return 0, err
	}
	n := copy(p, data)
	r.consume(n)
	return n, nil
}

// segment returns the next bytes of the message, max at most, without
// consuming them; io.EOF at its end. Before them a quoted "From " line
// loses its first '>' (and unquoted is set).
func (r *msgReader) segment(max int) ([]byte, error) {
	if r.done {
		return nil, r.err
	}
	m := r.m
	if m.atStart {
		if m.atFrom() {
			r.done, r.err = true, io.EOF
			return nil, io.EOF
		}
		// mboxrd/mboxo: ">From " -> "From ", ">>From " -> ">From "...
		if m.quotedFrom() {
			m.br.Discard(1)
			m.off++
			r.unquoted = true
		}
	}
	if _, err := m.br.Peek(1); err != nil {
		r.done, r.err = true, err
		return nil, err
	}
	// All that is buffered, up to the start of the next line that is, or
	// may be when more is read, a "From " line or a quoted one: one Read
	// gives many lines, not one (a Read per line was a fifth of the time
	// of an mbox).
	data, _ := m.br.Peek(min(m.br.Buffered(), max))
	return data[:fromSafe(data)], nil
}

// consume consumes n bytes of the segment just returned.
func (r *msgReader) consume(n int) {
	m := r.m
	data, _ := m.br.Peek(n)
	m.track(data)
	m.br.Discard(n)
	m.off += int64(n)
}

var from = []byte("From ")

// fromSafe returns how much of data can be given before a line start
// that must be looked at: one where ">"s and then "From " begin, or may
// begin in bytes not yet in data.
func fromSafe(data []byte) int {
	end := len(data)
	// The last line, unfinished: it may turn out to be one.
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		rest := data[i+1:]
		for len(rest) > 0 && rest[0] == '>' {
			rest = rest[1:]
		}
		if bytes.HasPrefix(from, rest) {
			end = i + 1
		}
	}
	if k := fromLineIn(data[:end]); k >= 0 {
		return k
	}
	return end
}

// fromLineByIndex is fromLineIn by a search for "From " (rare) and then a
// look at what stands before it, not at every line start: with
// bytes.IndexByte, a search for "\nF" stopped at every line end, a sixth
// of the time of an mbox. (On amd64 a vector search does that without
// stopping: fromline_amd64.s.)
func fromLineByIndex(b []byte) int {
	for off := 0; off < len(b); {
		j := bytes.Index(b[off:], from)
		if j < 0 {
			break
		}
		j += off
		k := j
		for k > 0 && b[k-1] == '>' {
			k--
		}
		if k > 0 && b[k-1] == '\n' {
			return k
		}
		off = j + 1
	}
	return -1
}

// track updates atStart, prevBlank and lineBlank for the bytes seg just
// given (a line is blank when it holds nothing but "\r").
func (m *mbox) track(seg []byte) {
	n := len(seg)
	if n == 0 {
		return
	}
	if seg[n-1] == '\n' {
		m.atStart = true
		if j := bytes.LastIndexByte(seg[:n-1], '\n'); j >= 0 {
			m.prevBlank = onlyCR(seg[j+1 : n-1])
		} else {
			m.prevBlank = m.lineBlank && onlyCR(seg[:n-1])
		}
		m.lineBlank = true
		return
	}
	m.atStart = false
	if j := bytes.LastIndexByte(seg, '\n'); j >= 0 {
		m.lineBlank = onlyCR(seg[j+1:])
	} else {
		m.lineBlank = m.lineBlank && onlyCR(seg)
	}
}

func onlyCR(b []byte) bool {
	for _, c := range b {
		if c != '\r' {
			return false
		}
	}
	return true
}

func (w *walker) walkMbox(r io.Reader) error {
	m := &mbox{br: bufio.NewReaderSize(r, bufSize), atStart: true, prevBlank: true, lineBlank: true}
	// Blank lines before the first message are skipped; other text
	// before the first "From " line is read as a message of its own.
	for {
		b, err := m.br.Peek(1)
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if b[0] != '\n' && b[0] != '\r' {
			break
		}
		m.br.Discard(1)
		m.off++
	}
	lr := &lineReader{}
	for {
		start := m.off
		hasFrom := false
		if b, _ := m.br.Peek(5); string(b) == "From " {
			hasFrom = true
			if err := m.skipFromLine(); err != nil && err != io.EOF {
				return err
			}
		} else if _, err := m.br.Peek(1); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		w.msgNo++
		w.msgOff = start
		if !hasFrom {
			w.warn("mbox: text before the first \"From \" line read as a message")
		}
		w.msg = msgReader{m: m}
		mr := &w.msg
		lr.reset(mr)
		if err := w.walkMessageLR(lr); err != nil {
			return err
		}
		// Whatever the message reader left.
		if _, err := io.Copy(io.Discard, mr); err != nil {
			return err
		}
		if mr.err != io.EOF {
			return mr.err
		}
	}
}

// peeker is what mbox reads through: a bufio.Reader (Walk) or a
// blockread.Reader (MboxSplitter).
type peeker interface {
	Peek(n int) ([]byte, error)
	Discard(n int) (int, error)
	Buffered() int
}

// discardLine consumes the rest of the current line, its "\n" included.
func discardLine(br peeker) (int64, error) {
	var n int64
	for {
		b, err := br.Peek(max(1, br.Buffered()))
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			br.Discard(i + 1)
			return n + int64(i+1), nil
		}
		br.Discard(len(b))
		n += int64(len(b))
		if err != nil {
			return n, err
		}
	}
}

// EnvelopeLine reports whether line, without its line ending, is an mbox
// envelope line: "From ", a word (the sender), and a hh:mm time later on
// (the date). A reader that tells an mbox by its first line (urix's
// --format auto) reads one that begins "From here on..." as text.
func EnvelopeLine(line []byte) bool { return envelopeLike(line) }
