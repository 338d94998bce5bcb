package mail

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

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
		if b := pop(&w.pool.b64); b != nil {
			b.src, b.warner, b.where, b.out, b.buf, b.acc, b.nacc, b.warned, b.err = r, w, where, nil, b.buf[:0], 0, 0, false, nil
			return b
		}
		return &b64Reader{src: r, warner: w, where: where}
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
		w.note(where + ": unknown charset \"" + cs + "\"; read as it stands")
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
					var b [4]byte
					n := utf8.EncodeRune(b[:], cm.DecodeByte(byte(i)))
					if n > 3 {
						t = nil // not in the BMP: never seen, left to go-message
						break
					}
					b[3] = byte(n)
					t[i] = binary.LittleEndian.Uint32(b[:])
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

// byteTable maps each byte of a single-byte charset to its UTF-8 form,
// up to 3 bytes (first in the low byte), and the form's length in the
// high byte: a byte is decoded by one 4-byte store.
type byteTable [256]uint32

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
		c.out = c.t.decode(c.buf[:0], c.in[:n])
		c.buf = c.out[:0]
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// decode appends in decoded to out: runs of ASCII copied as they stand
// (found eight bytes a step: in the mail seen, mostly all of it), each
// other byte by one store of its form.
func (t *byteTable) decode(out, in []byte) []byte {
	o := len(out)
	out = slices.Grow(out, 3*len(in)+4)
	out = out[:cap(out)]
	for len(in) > 0 {
		k := asciiPrefix(in)
		o += copy(out[o:], in[:k])
		for ; k < len(in) && in[k] >= 0x80; k++ {
			e := t[in[k]]
			binary.LittleEndian.PutUint32(out[o:o+4], e)
			o += int(e >> 24)
		}
		in = in[k:]
	}
	return out[:o]
}

// asciiPrefix returns the length of the run of ASCII bytes that b begins
// with, 32 bytes a step, then eight.
func asciiPrefix(b []byte) int {
	i := 0
	for ; i+32 <= len(b); i += 32 {
		s := b[i : i+32]
		u := binary.LittleEndian.Uint64(s) | binary.LittleEndian.Uint64(s[8:]) |
			binary.LittleEndian.Uint64(s[16:]) | binary.LittleEndian.Uint64(s[24:])
		if u&highs != 0 {
			break
		}
	}
	for ; i+8 <= len(b); i += 8 {
		if m := binary.LittleEndian.Uint64(b[i:]) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
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
			d.src, d.warn, d.warner = nil, nil, nil
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
	src io.Reader
	in  [32 << 10]byte
	decodedOut
	ws    []byte // blanks (and CR) not yet known to be trailing
	state int    // 0 normal, 1 after '=', 2 after "=X", 3 after '=' and blanks, 4 after '=' (blanks) CR
	// eqs and lfs are the bit masks (byteMasks) of '=' and LF of the
	// input of one decode, which fast finds them by.
	eqs, lfs []uint64
	h1       byte
	err      error
}

func (q *qpReader) Read(p []byte) (int, error) {
	for len(q.out) == 0 {
		if q.err != nil {
			return 0, q.err
		}
		in, err := bodyInput(q.src, q.in[:])
		// The output is never longer than the input but for blanks held
		// from an earlier read, which outgrow p and go the way of the
		// copy.
		direct := q.into(p, len(in)+16)
		q.decode(in)
		if err != nil {
			q.flush()
			q.err = err
		}
		if n, ok := q.given(p, direct); ok {
			if n > 0 {
				return n, nil
			}
			continue
		}
	}
	n := copy(p, q.out)
	q.out = q.out[n:]
	return n, nil
}

// decodedOut is where a decoder's Read decodes to: straight into the
// reader's p when p has room for all a read of input may give (a copy of
// everything decoded, and of everything read, was a third of the time of
// the base64 under an HTML part), else into buf, out then holding what is
// still to give.
type decodedOut struct {
	out []byte // decoded, not yet given
	buf []byte // the decoder's own buffer
}

// into sets out to decode into p, its capacity cut to its length so that
// nothing is written past len(p), when p has room for need bytes; else
// to buf. It reports which.
func (d *decodedOut) into(p []byte, need int) (direct bool) {
	if len(p) >= need {
		d.out = p[:0:len(p)]
		return true
	}
	d.out = d.buf[:0]
	return false
}

// given reports, after a decode set up by into, whether what was decoded
// lies in p (n bytes, out emptied), and keeps buf when it was used. A
// decode that outgrew p made a new slice: out holds it, to be copied.
func (d *decodedOut) given(p []byte, direct bool) (n int, ok bool) {
	if !direct {
		d.buf = d.out[:0]
		return 0, false
	}
	if unsafe.SliceData(d.out) != unsafe.SliceData(p) || len(d.out) > len(p) {
		return 0, false
	}
	n, d.out = len(d.out), nil
	return n, true
}

// bodyInput returns a decoder's next input from src: in place when src is
// a part's body (valid until the next call), else read into scratch.
func bodyInput(src io.Reader, scratch []byte) ([]byte, error) {
	if br, ok := src.(*bodyReader); ok {
		return br.next(len(scratch))
	}
	n, err := src.Read(scratch)
	return scratch[:n], err
}

// decode decodes in: by q.fast from state 0 with no blanks held, else
// (the rest of a line begun in another read, what q.fast leaves) byte by
// byte to the end of the line. Byte by byte, QP ran at 150 MB/s.
func (q *qpReader) decode(in []byte) {
	// Room for all of in: q.fast then never stops for want of it (its
	// output is never longer than what it takes).
	q.out = slices.Grow(q.out, len(in)+16)
	all, masked := in, false
	for len(in) > 0 {
		if q.state == 0 && len(q.ws) == 0 {
			if !masked {
				q.masks(all)
				masked = true
			}
			in = in[q.fast(in, len(all)-len(in)):]
			if len(in) == 0 {
				return
			}
		}
		i := bytes.IndexByte(in, '\n')
		if i < 0 {
			i = len(in) - 1
		}
		for _, c := range in[:i+1] {
			q.byte(c)
		}
		in = in[i+1:]
	}
}

// masks makes q.eqs and q.lfs for in.
func (q *qpReader) masks(in []byte) {
	k := len(in) / 64
	if cap(q.eqs) < k+1 {
		q.eqs, q.lfs = make([]uint64, k+1), make([]uint64, k+1)
	}
	q.eqs, q.lfs = q.eqs[:k+1], q.lfs[:k+1]
	byteMasks(in[:64*k], q.eqs[:k], q.lfs[:k], '=', '\n', '\n')
	q.eqs[k], q.lfs[k] = byteMaskTail(in[64*k:], '=', '\n', '\n')
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// highs has the high bit of each of eight bytes.
const highs = 0x8080808080808080

// fast decodes in from state 0 with no blanks held, as the byte machine
// does, and returns how much of it it took: all of it, or up to a '='
// the byte machine must read (a '=' then a blank, a CR not before a LF,
// one or two bytes before the end of in, which starts at off of the
// input decode made q.eqs and q.lfs of). The next '=' is found once over
// the rest of in, not once per line (in mail it is rare but for soft line
// breaks), the line end before it, both by their bit masks (nextBit: an
// IndexByte per line, 7 to 20 ns, made QP 10 % slower), and what lies
// between is copied in one go. Blanks are copied too, and the
// run of them before a line end is taken back off, as far as the last
// byte decoded from an escape: the byte machine holds blanks until a
// byte that is not one, and drops what it holds at a line end (or gives
// them when it holds 4097). At the end of in, the blanks the byte machine
// would hold are moved from the output into q.ws. A line at a time, with
// IndexByte for '=' in each line and append per run, QP ran at 1.1 GB/s;
// eight bytes a step (a SWAR search for '=' and LF, no call per line)
// took more instructions than that on the corpus's lines of 40 bytes.
func (q *qpReader) fast(in []byte, off int) int {
	out := q.out[:cap(q.out)]
	eqs, lfs := q.eqs, q.lfs
	o := len(q.out)
	keep := o // the output before keep is not trailing blanks
	i := 0
	eq := -1 // the next '=' at or after i, len(in) when none
	for {
		if eq < i {
			eq = nextBit(eqs, off+i, off+len(in)) - off
		}
		if len(out)-o < eq-i+2 {
			// Never, with the room decode makes; the byte machine would
			// know.
			q.out = out[:o]
			return i
		}
		if nl := nextBit(lfs, off+i, off+eq) - off - i; i+nl < eq {
			// The whole lines to the '=', all in one call (qpLines),
			// up to one that ends with blanks, which is taken here.
			if n, m := qpLines(out[o:], in[i:eq], lfs, off+i); n > 0 {
				i, o = i+n, o+m
				keep = o
				continue
			}
			o += copy(out[o:], in[i:i+nl])
			i += nl + 1
			if o > keep && isBlank(out[o-1]) {
				o -= heldBlanks(out[keep:o])
			}
			out[o] = '\n'
			o++
			keep = o
			continue
		}
		o += copy(out[o:], in[i:eq])
		i = eq
		if i == len(in) {
			// The end of in: the trailing blanks are held.
			r := heldBlanks(out[keep:o])
			q.ws = append(q.ws[:0], out[o-r:o]...)
			q.out = out[:o-r]
			return i
		}
		// At '='.
		if i+2 >= len(in) {
			q.out = out[:o]
			return i
		}
		c1, c2 := in[i+1], in[i+2]
		if h, l := unhexTab[c1], unhexTab[c2]; h|l < 16 {
			out[o] = h<<4 | l
			i, o = i+3, o+1
		} else if h < 16 {
			out[o], out[o+1] = '=', c1
			i, o = i+2, o+2
		} else {
			switch c1 {
			case '\n': // a soft line break
				i += 2
			case '\r':
				if c2 != '\n' {
					q.out = out[:o]
					return i
				}
				i += 3
			case ' ', '\t':
				q.out = out[:o]
				return i
			default:
				out[o] = '='
				i, o = i+1, o+1
			}
		}
		keep = o
	}
}

// unhexTab holds the value of each hexadecimal digit (either case), 0xFF
// for other bytes.
var unhexTab = func() (t [256]byte) {
	for i := range t {
		v, ok := unhex(byte(i))
		if !ok {
			v = 0xFF
		}
		t[i] = v
	}
	return
}()

// heldBlanks returns how many of the blanks b ends with the byte machine
// would hold: it gives them when it holds more than maxHeldBlanks.
func heldBlanks(b []byte) int {
	n := len(b)
	for n > 0 && isBlank(b[n-1]) {
		n--
	}
	if r := len(b) - n; r <= maxHeldBlanks {
		return r
	}
	return (len(b) - n) % (maxHeldBlanks + 1)
}

// maxHeldBlanks is how many blanks the byte machine holds; one more, and
// it gives them.
const maxHeldBlanks = 4096

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
		if len(q.ws) > maxHeldBlanks {
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
	src io.Reader
	// A warning goes to warner's warn, where first (not a closure made
	// for each part: a tenth of the allocations of an mbox), or to warn.
	warner *walker
	where  string
	warn   func(string)
	in     [32 << 10]byte
	decodedOut
	acc    uint32
	nacc   int
	runLen int // length of the last run b64Run took: the next one's guess
	warned bool
	err    error
}

func (b *b64Reader) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		in, err := bodyInput(b.src, b.in[:])
		direct := b.into(p, len(in)/4*3+32)
		b.decode(in)
		if err != nil {
			if b.nacc == 1 {
				b.bad()
			}
			b.pad()
			b.err = err
		}
		if n, ok := b.given(p, direct); ok {
			if n > 0 {
				return n, nil
			}
			continue
		}
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

// decode decodes in. Runs of plain base64 (whole quanta of the alphabet,
// from one blank or line end to the next) are decoded by b64Run, 16
// characters a step, when no quantum is begun; whatever else (a quantum
// begun in the previous read, blanks inside a line, bytes outside the
// alphabet, padding, a run that is not a multiple of 4) goes to the
// byte loop, the quantum begun to its end, anything else to the end of
// its line. b64Run takes only quanta of four bytes of the alphabet, on
// which the byte loop does nothing but decode them, so the output is the
// byte loop's whatever the reads. Byte by byte, base64 ran at 300 MB/s;
// through encoding/base64, whose 8-character steps break at every line
// end, at 1.5 GB/s.
func (b *b64Reader) decode(in []byte) {
	// Room for all of in decoded and b64Run's overrun: it then never
	// stops for want of room (it would, and the byte loop take over).
	b.out = slices.Grow(b.out, len(in)/4*3+32)
	for len(in) > 0 {
		if b.nacc != 0 {
			k := 0
			for k < len(in) && b.nacc != 0 {
				b.slow(in[k : k+1])
				k++
			}
			in = in[k:]
			continue
		}
		n, m := b.lines(b.out[len(b.out):cap(b.out)], in)
		b.out = b.out[:len(b.out)+m]
		in = in[n:]
		if len(in) == 0 {
			return
		}
		i := bytes.IndexByte(in, '\n')
		if i < 0 {
			i = len(in) - 1
		}
		b.slow(in[:i+1])
		in = in[i+1:]
	}
}

// lines decodes the runs of plain base64 that src begins with into dst,
// blanks and line ends between them skipped, and returns the bytes of src
// taken and of dst written. It stops at a run it does not take whole, and
// at the end of src, where it takes what it can in quanta of four.
func (b *b64Reader) lines(dst, src []byte) (n, m int) {
	t := b64Pairs()
	for {
		for n < len(src) && isB64Space(src[n]) {
			n++
		}
		rest := src[n:]
		if len(rest) == 0 {
			return n, m
		}
		// Lines as long as the last one, all at once (base64 lines are
		// mostly of one length, each a call of its own otherwise).
		if k, w := b64LinesFast(dst[m:], rest, b.runLen); k > 0 {
			n += k
			m += w
			continue
		}
		// A run as long as the last one, else to the line end, else to
		// the end of src.
		k, ok := b.runLen, false
		if k > 0 && k < len(rest) && b64val[rest[k]] == 0xFF {
			ok = b64RunFast(t, dst[m:], rest[:k])
		}
		if !ok {
			k = bytes.IndexByte(rest, '\n')
			if k < 0 {
				k = len(rest) &^ 3
			} else {
				if k > 0 && rest[k-1] == '\r' {
					k--
				}
				b.runLen = k
			}
			if k == 0 || !b64RunFast(t, dst[m:], rest[:k]) {
				return n, m
			}
		}
		n += k
		m += k / 4 * 3
	}
}

func isB64Space(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

// b64Pairs maps two characters (the first in the low byte) to their 12
// bits, the first's 6 high; 0x8000 when either is outside the alphabet
// (base64url's included). A quantum is two lookups: half the work of a
// table by character. It is made on the first base64 part (128 KiB, of
// which the pairs of the alphabet, 80 rows of 320 bytes, are used).
var b64Pairs = sync.OnceValue(func() *[1 << 16]uint16 {
	t := new([1 << 16]uint16)
	for i := range t {
		a, b := b64val[byte(i)], b64val[byte(i>>8)]
		if a == 0xFF || b == 0xFF {
			t[i] = 0x8000
		} else {
			t[i] = uint16(a)<<6 | uint16(b)
		}
	}
	return t
})

// b64Run decodes src, whose length is a multiple of 4, into dst, which
// has room for 4 bytes more than the output, and reports whether every
// byte of src was of the alphabet; when not, what it wrote is garbage.
// It takes 16 characters a step; the last step of a run that is not a
// multiple of 16 ends at the run's end and decodes again a few quanta
// the step before it decoded, to the same bytes (76 characters, a line
// of base64, are 5 steps, not 4 and three quanta one by one).
func b64Run(t *[1 << 16]uint16, dst, src []byte) bool {
	n := len(src)
	if n%4 != 0 || len(dst) < n/4*3+4 {
		return false
	}
	var bad uint16
	if n < 16 {
		for i := 0; i < n; i += 4 {
			u := binary.LittleEndian.Uint32(src[i:])
			a, b := t[uint16(u)], t[uint16(u>>16)]
			bad |= a | b
			binary.BigEndian.PutUint32(dst[i/4*3:], uint32(a)<<20|uint32(b)<<8)
		}
		return bad>>15 == 0
	}
	last := n - 16
	for i := 0; ; i += 16 {
		i = min(i, last)
		s := (*[16]byte)(src[i:])
		u := binary.LittleEndian.Uint64(s[:8])
		v := binary.LittleEndian.Uint64(s[8:])
		a, b, c, d := t[uint16(u)], t[uint16(u>>16)], t[uint16(u>>32)], t[uint16(u>>48)]
		e, f, g, h := t[uint16(v)], t[uint16(v>>16)], t[uint16(v>>32)], t[uint16(v>>48)]
		bad |= a | b | c | d | e | f | g | h
		// Four quanta of 24 bits (a<<12|b, ...): 12 bytes.
		x := uint64(a)<<52 | uint64(b)<<40 | uint64(c)<<28 | uint64(d)<<16 | uint64(e)<<4 | uint64(f)>>8
		y := uint32(f)<<24 | uint32(g)<<12 | uint32(h)
		o := (*[12]byte)(dst[i-i>>2:]) // i/4*3: i is a multiple of 4
		binary.BigEndian.PutUint64(o[:8], x)
		binary.BigEndian.PutUint32(o[8:], y)
		if i == last {
			return bad>>15 == 0
		}
	}
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
	if b.warned {
		return
	}
	const msg = "broken base64; decoded as far as it goes"
	switch {
	case b.warner != nil:
		b.warned = true
		b.warner.warn(b.where + ": " + msg)
	case b.warn != nil:
		b.warned = true
		b.warn(msg)
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
