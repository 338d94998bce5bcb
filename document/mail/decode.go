package mail

import (
	"io"

	"github.com/emersion/go-message/charset"
)

// decodeCTE undoes a Content-Transfer-Encoding. The decoders are lenient,
// unlike mime/quotedprintable and encoding/base64 which stop at the first
// bad byte: bad mail is decoded as far as it can be.
func (w *walker) decodeCTE(r io.Reader, cte, where string) io.Reader {
	switch cte {
	case "", "7bit", "8bit", "binary":
		return r
	case "quoted-printable":
		return &qpReader{src: r}
	case "base64":
		return &b64Reader{src: r, warn: func(msg string) { w.warn(where + ": " + msg) }}
	}
	w.warn(where + ": unknown Content-Transfer-Encoding \"" + cte + "\"; read as it stands")
	return r
}

// decodeCharset converts text in charset cs (lower case) to UTF-8 through
// go-message's charset support (golang.org/x/text). UTF-8 and US-ASCII
// pass as they stand (8-bit bytes included); an unknown charset is read as
// it stands, with a warning.
func (w *walker) decodeCharset(r io.Reader, cs, where string) io.Reader {
	switch cs {
	case "utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "unicode-1-1-utf-8":
		return r
	}
	cr, err := charset.Reader(cs, r)
	if err != nil || cr == nil {
		w.warn(where + ": unknown charset \"" + cs + "\"; read as it stands")
		return r
	}
	return cr
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// qpReader decodes quoted-printable (RFC 2045 6.7) leniently: "=XX" (any
// case) is a byte, "=" at the end of a line (trailing blanks allowed) is a
// soft line break, trailing blanks of a line are dropped, CRLF becomes LF,
// and anything else - a "=" not followed by two hex digits included - is
// kept as it stands. It works byte by byte, so reads of any size and lines
// of any length are the same.
type qpReader struct {
	src   io.Reader
	in    [8192]byte
	out   []byte
	buf   []byte
	ws    []byte // blanks (and CR) not yet known to be trailing
	state int    // 0 normal, 1 after '=', 2 after "=X", 3 after '=' and blanks, 4 after '=' (blanks) CR
	h1    byte
	err   error
}

func (q *qpReader) Read(p []byte) (int, error) {
	for len(q.out) == 0 {
		if q.err != nil {
			return 0, q.err
		}
		n, err := q.src.Read(q.in[:])
		q.out = q.buf[:0]
		for _, c := range q.in[:n] {
			q.byte(c)
		}
		if err != nil {
			q.flush()
			q.err = err
		}
		q.buf = q.out[:0]
	}
	n := copy(p, q.out)
	q.out = q.out[n:]
	return n, nil
}

func (q *qpReader) emit(c byte) {
	if len(q.ws) > 0 {
		q.out = append(q.out, q.ws...)
		q.ws = q.ws[:0]
	}
	q.out = append(q.out, c)
}

func (q *qpReader) byte(c byte) {
	switch q.state {
	case 1:
		if _, ok := unhex(c); ok {
			q.h1, q.state = c, 2
			return
		}
		switch c {
		case ' ', '\t':
			q.state = 3
			return
		case '\r':
			q.state = 4
			return
		case '\n':
			q.state = 0 // soft line break
			return
		}
		q.state = 0
		q.emit('=')
	case 2:
		q.state = 0
		if lo, ok := unhex(c); ok {
			hi, _ := unhex(q.h1)
			q.emit(hi<<4 | lo)
			return
		}
		q.emit('=')
		q.emit(q.h1)
	case 3:
		switch c {
		case ' ', '\t':
			return
		case '\r':
			q.state = 4
			return
		case '\n':
			q.state = 0
			return
		}
		q.state = 0
		q.emit('=')
	case 4:
		q.state = 0
		if c == '\n' {
			return
		}
		q.emit('=')
	}
	switch c {
	case '=':
		if len(q.ws) > 0 { // not trailing
			q.out = append(q.out, q.ws...)
			q.ws = q.ws[:0]
		}
		q.state = 1
	case ' ', '\t', '\r':
		q.ws = append(q.ws, c)
		if len(q.ws) > 4096 {
			q.out = append(q.out, q.ws...)
			q.ws = q.ws[:0]
		}
	case '\n':
		q.ws = q.ws[:0]
		q.out = append(q.out, '\n')
	default:
		q.emit(c)
	}
}

// flush ends the input: a dangling "=" or "=X" is kept, trailing blanks
// are not.
func (q *qpReader) flush() {
	switch q.state {
	case 1, 3, 4:
		q.emit('=')
	case 2:
		q.emit('=')
		q.emit(q.h1)
	}
	q.state = 0
	q.ws = q.ws[:0]
}

var b64val = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(alpha); i++ {
		t[alpha[i]] = byte(i)
	}
	t['-'], t['_'] = 62, 63 // base64url, seen in the wild
	return
}()

// b64Reader decodes base64 leniently: whitespace is skipped, other bytes
// outside the alphabet are skipped with one warning, "=" ends a quantum
// early (what it holds is kept), and a partial quantum at the end is
// decoded as far as it goes.
type b64Reader struct {
	src    io.Reader
	warn   func(string)
	in     [8192]byte
	out    []byte
	buf    []byte
	acc    uint32
	nacc   int
	warned bool
	err    error
}

func (b *b64Reader) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		n, err := b.src.Read(b.in[:])
		b.out = b.buf[:0]
		for _, c := range b.in[:n] {
			v := b64val[c]
			if v == 0xFF {
				switch c {
				case ' ', '\t', '\r', '\n', '\f', '\v':
				case '=':
					b.pad()
				default:
					b.bad()
				}
				continue
			}
			b.acc = b.acc<<6 | uint32(v)
			b.nacc++
			if b.nacc == 4 {
				b.out = append(b.out, byte(b.acc>>16), byte(b.acc>>8), byte(b.acc))
				b.acc, b.nacc = 0, 0
			}
		}
		if err != nil {
			if b.nacc == 1 {
				b.bad()
			}
			b.pad()
			b.err = err
		}
		b.buf = b.out[:0]
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

func (b *b64Reader) bad() {
	if !b.warned && b.warn != nil {
		b.warned = true
		b.warn("broken base64; decoded as far as it goes")
	}
}

// pad flushes a partial quantum.
func (b *b64Reader) pad() {
	switch b.nacc {
	case 2:
		b.out = append(b.out, byte(b.acc>>4))
	case 3:
		b.out = append(b.out, byte(b.acc>>10), byte(b.acc>>2))
	}
	b.acc, b.nacc = 0, 0
}
