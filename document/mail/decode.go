package mail

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"io"
	"slices"

	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
)

// decodeCTE undoes a Content-Transfer-Encoding. The decoders are lenient,
// unlike mime/quotedprintable and encoding/base64 which stop at the first
// bad byte: bad mail is decoded as far as it can be.
func (w *walker) decodeCTE(r io.Reader, cte, where string) io.Reader {
	switch cte {
	case "", "7bit", "8bit", "binary":
		return r
	case "quoted-printable":
		if q := pop(&w.pool.qp); q != nil {
			q.src, q.out, q.buf, q.ws, q.state, q.err = r, nil, q.buf[:0], q.ws[:0], 0, nil
			return q
		}
		return &qpReader{src: r}
	case "base64":
		warn := func(msg string) { w.warn(where + ": " + msg) }
		if b := pop(&w.pool.b64); b != nil {
			b.src, b.warn, b.out, b.buf, b.acc, b.nacc, b.warned, b.err = r, warn, nil, b.buf[:0], 0, 0, false, nil
			return b
		}
		return &b64Reader{src: r, warn: warn}
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
	if t := w.charmapTable(cs); t != nil {
		if c := pop(&w.pool.cm); c != nil {
			c.src, c.t, c.out, c.buf, c.err = r, t, nil, c.buf[:0], nil
			return c
		}
		return &charmapReader{src: r, t: t}
	}
	cr, err := charset.Reader(cs, r)
	if err != nil || cr == nil {
		w.warn(where + ": unknown charset \"" + cs + "\"; read as it stands")
		return r
	}
	return cr
}

// charmapTable returns the UTF-8 form of each byte of cs when cs is a
// single-byte charset (ISO-8859-*, windows-125*, KOI8-R, ...), as
// go-message's charset.Reader would look it up; nil otherwise. The
// tables are kept per walk.
func (w *walker) charmapTable(cs string) *byteTable {
	if t, ok := w.tables[cs]; ok {
		return t
	}
	var t *byteTable
	if cs != "ansi_x3.110-1983" { // go-message's own quirk: ISO-8859-1 too, left to it
		if enc, _ := ianaindex.MIME.Encoding(cs); enc != nil {
			if cm, ok := enc.(*charmap.Charmap); ok {
				t = new(byteTable)
				for i := range 256 {
					t[i] = string(cm.DecodeByte(byte(i)))
				}
			}
		}
	}
	if w.tables == nil {
		w.tables = map[string]*byteTable{}
	}
	if len(w.tables) < 64 {
		w.tables[cs] = t
	}
	return t
}

// byteTable maps each byte of a single-byte charset to its UTF-8 form.
type byteTable [256]string

// charmapReader decodes a single-byte charset through a byteTable, runs
// of ASCII copied as they stand: what golang.org/x/text's charmap decoder
// gives, without its transform.Reader (which ran at 250 MB/s).
type charmapReader struct {
	src io.Reader
	t   *byteTable
	in  [16 << 10]byte
	out []byte
	buf []byte
	err error
}

func (c *charmapReader) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		n, err := c.src.Read(c.in[:])
		c.err = err
		out := c.buf[:0]
		in := c.in[:n]
		for len(in) > 0 {
			k := asciiPrefix(in)
			out = append(out, in[:k]...)
			for k < len(in) && in[k] >= 0x80 {
				out = append(out, c.t[in[k]]...)
				k++
			}
			in = in[k:]
		}
		c.out, c.buf = out, out[:0]
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// asciiPrefix returns the length of the run of ASCII bytes that b begins
// with, eight bytes at a time.
func asciiPrefix(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for i < len(b) && b[i] < 0x80 {
		i++
	}
	return i
}

// decoders are the decoders a walk keeps for reuse once a part is read:
// a new one for each part, with its buffers, was most of what a message
// cost in allocations (a gigabyte for the 274 MB mbox of bench/).
type decoders struct {
	qp  []*qpReader
	b64 []*b64Reader
	cm  []*charmapReader
}

func pop[T any](s *[]*T) *T {
	n := len(*s)
	if n == 0 {
		return nil
	}
	x := (*s)[n-1]
	*s = (*s)[:n-1]
	return x
}

func push[T any](s *[]*T, x *T) {
	if len(*s) < 4 {
		*s = append(*s, x)
	}
}

// release takes back the decoders among rs, which nothing reads any more.
func (w *walker) release(rs ...io.Reader) {
	for _, r := range rs {
		switch d := r.(type) {
		case *qpReader:
			d.src = nil
			push(&w.pool.qp, d)
		case *b64Reader:
			d.src, d.warn = nil, nil
			push(&w.pool.b64, d)
		case *charmapReader:
			d.src = nil
			push(&w.pool.cm, d)
		}
	}
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
	in    [32 << 10]byte
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
		q.decode(q.in[:n])
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

// decode decodes in. Whole lines are decoded a run at a time, between
// the '=' in them, which gives what q.byte gives byte by byte (at a line
// start the state is always 0 with no blanks held); what the fast way
// does not know (a '=' followed by a blank, a CR among the blanks after a
// soft line break, very long runs of trailing blanks, a line cut by the
// read) goes byte by byte. Byte by byte, QP ran at 150 MB/s.
func (q *qpReader) decode(in []byte) {
	for len(in) > 0 {
		i := bytes.IndexByte(in, '\n')
		if i < 0 {
			for _, c := range in {
				q.byte(c)
			}
			return
		}
		line := in[:i+1]
		in = in[i+1:]
		if q.state != 0 || len(q.ws) > 0 {
			for _, c := range line {
				q.byte(c)
			}
			continue
		}
		q.line(line)
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// line decodes one whole line (with its '\n'), starting in state 0 with
// no blanks held.
func (q *qpReader) line(line []byte) {
	body := line[:len(line)-1]
	end := len(body)
	for end > 0 && isBlank(body[end-1]) {
		end--
	}
	tail := body[end:]
	if len(tail) > 4096 {
		for _, c := range line {
			q.byte(c)
		}
		return
	}
	body = body[:end]
	for k := 0; ; {
		j := bytes.IndexByte(body[k:], '=')
		if j < 0 {
			q.out = append(q.out, body[k:]...)
			q.out = append(q.out, '\n')
			return
		}
		q.out = append(q.out, body[k:k+j]...)
		k += j
		if k == len(body)-1 {
			// A soft line break, unless a CR among the blanks after
			// the '=' makes it something else (the byte way knows).
			if i := bytes.IndexByte(tail, '\r'); i >= 0 && i != len(tail)-1 {
				for _, c := range line[k:] {
					q.byte(c)
				}
			}
			return
		}
		c1 := body[k+1]
		switch h1, ok := unhex(c1); {
		case ok && k+2 < len(body):
			if lo, ok := unhex(body[k+2]); ok {
				q.out = append(q.out, h1<<4|lo)
				k += 3
			} else {
				q.out = append(q.out, '=', c1)
				k += 2
			}
		case ok:
			q.out = append(q.out, '=', c1)
			k += 2
		case isBlank(c1):
			for _, c := range line[k:] {
				q.byte(c)
			}
			return
		default:
			q.out = append(q.out, '=')
			k++
		}
	}
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
	in     [32 << 10]byte
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
		b.decode(b.in[:n])
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

// decode decodes in: the lines up to the last line end whole with
// encoding/base64 (which skips CR and LF) when they are plain base64 and
// no quantum is begun, else, and for the rest, byte by byte. On the
// bytes it takes encoding/base64 gives what the byte loop gives; on the
// others (blanks, bytes outside the alphabet, base64url, padding before
// the end, a partial quantum) it fails and the byte loop decodes the same
// bytes. Byte by byte, base64 ran at 300 MB/s.
func (b *b64Reader) decode(in []byte) {
	if b.nacc != 0 {
		i := bytes.IndexByte(in, '\n')
		if i < 0 {
			b.slow(in)
			return
		}
		b.slow(in[:i+1])
		in = in[i+1:]
	}
	if b.nacc == 0 {
		if i := bytes.LastIndexByte(in, '\n'); i >= 0 {
			block := in[:i+1]
			n := len(b.out)
			b.out = slices.Grow(b.out, base64.StdEncoding.DecodedLen(len(block)))
			m, err := base64.StdEncoding.Decode(b.out[n:n+base64.StdEncoding.DecodedLen(len(block))], block)
			if err == nil {
				b.out = b.out[:n+m]
				in = in[i+1:]
			}
		}
	}
	b.slow(in)
}

// slow decodes in byte by byte.
func (b *b64Reader) slow(in []byte) {
	for _, c := range in {
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
