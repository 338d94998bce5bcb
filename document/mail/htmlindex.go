package mail

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// htmlIndex finds the ends of HTML text tokens for htmlDoc.fast with bit
// masks of the bytes that matter, made 64 bytes a word by a vector loop
// (byteMasks): '<' in lt, '&' and CR (the bytes that make a text
// need decode) in sp. Mail HTML has a tag every 40 bytes or so; three
// bytes.IndexByte calls a text token ('<', then '&' and CR in the text)
// cost 25 ns there, two fifths of the time of an HTML part, where a
// token's bits cost a few.
type htmlIndex struct {
	from  int // the offset in b of bit 0 of lt[0]
	limit int // the end of the bytes the words made are of
	lt    [htmlIndexWords + 1]uint64
	sp    [htmlIndexWords + 1]uint64
}

// htmlIndexWords are made at a time: 512 bytes, so that a fast call that
// stops at the first link of a part makes few it does not use.
const htmlIndexWords = 8

// reset forgets the words made: fast calls it as it starts, since the
// tokenizer's buffer may have moved since its last call.
func (x *htmlIndex) reset() { x.from, x.limit = 0, 0 }

// textEnd returns the end of the text token that starts at p in b: the
// first '<' at or after p followed by a byte of tagOpen. It returns -1
// when there is none with its next byte in b (the token runs to the
// limit: Next reads it). special tells whether b[p:end] holds '&' or CR.
func (x *htmlIndex) textEnd(b []byte, p int) (end int, special bool) {
	q := p // the search goes on from q
	for {
		if q < x.from || q >= x.limit {
			if q >= len(b) {
				return -1, special
			}
			x.make(b, q)
		}
		// The 64 bits from q on, of two words: most text tokens are
		// within them, and a token that crosses a word's end costs no
		// branch (a shift by 64 is 0 in Go, and the word after the last
		// one made is 0).
		w, shift := (q-x.from)>>6, uint((q-x.from)&63)
		lt := x.lt[w]>>shift | x.lt[w+1]<<(64-shift)
		sp := x.sp[w]>>shift | x.sp[w+1]<<(64-shift)
		if lt == 0 {
			special = special || sp != 0
			q = min(q+64, x.limit)
			continue
		}
		k := bits.TrailingZeros64(lt)
		special = special || sp&(1<<k-1) != 0
		q += k
		if q+1 >= len(b) {
			return -1, special
		}
		if tagOpen[b[q+1]] {
			return q, special
		}
		// A '<' of the text ("a < b"): it is text, and so are the
		// bytes to the next one.
		q++
	}
}

// make makes the words for b from q on: as many as b holds whole,
// htmlIndexWords at most, or one for the rest of b. fast's b grows as it
// goes (its limit is a token's), so the words are of the bytes to limit
// only.
func (x *htmlIndex) make(b []byte, q int) {
	x.from = q
	n := min(htmlIndexWords, (len(b)-q)>>6)
	if n > 0 {
		byteMasks(b[q:q+64*n], x.lt[:n], x.sp[:n], '<', '&', '\r')
		x.lt[n], x.sp[n] = 0, 0
		x.limit = q + 64*n
		return
	}
	x.lt[0], x.sp[0] = byteMaskTail(b[q:], '<', '&', '\r')
	x.lt[1], x.sp[1] = 0, 0
	x.limit = len(b)
}

// appendText appends the text b[p:q] (a text token textEnd found, with
// '&' or CR) as decode does when it holds CRs but no '&': CR LF and a
// lone CR each become LF. It reports false, appending nothing, when the
// token holds a '&' or does not lie within the words made: decode then
// reads it. HTML mail is often CRLF, and then nearly every text token
// went through decode's searches and its piece-by-piece copy: a third
// more time for the corpus's HTML written CRLF.
func (x *htmlIndex) appendText(dst, b []byte, p, q int) ([]byte, bool) {
	if p < x.from || q > x.limit {
		return dst, false
	}
	// First, that every byte marked is a CR.
	for i := p; ; i++ {
		// nextBit may find a mark past q: the token ends there.
		if i = nextBit(x.sp[:], i-x.from, q-x.from) + x.from; i >= q {
			break
		}
		if b[i] != '\r' {
			return dst, false
		}
	}
	start := p
	for i := p; ; i++ {
		if i = nextBit(x.sp[:], i-x.from, q-x.from) + x.from; i >= q {
			break
		}
		dst = append(append(dst, b[start:i]...), '\n')
		start = i + 1
		if start < q && b[start] == '\n' {
			start++
		}
	}
	return append(dst, b[start:q]...), true
}

// textAndBreaks appends to dst the text tokens from p on in b, decoded as
// decode does when they hold no references but those simpleRef reads,
// and the tags that fast reads by their bytes that end them ("<br>",
// "<p>", "</p>", "<div>", "</div>": a line break each), while they come
// within the words made and dst holds fewer than want bytes. It returns
// dst and the position it stopped at, the start of a token that fast
// reads as before: a tag of another kind, a text token it does not take
// whole (dst is then as it was before that token). This is most of mail
// HTML, lines of text each ended by "<br>", where textEnd, its shifts and
// its tagOpen look-up for each '<' and fast's checks around it, then
// decode's searches for the lines with a reference, were half the time
// of an HTML part: here a '<' costs its bit and one compare of its word.
func (x *htmlIndex) textAndBreaks(dst, b []byte, p, want int) ([]byte, int) {
	start, mark := p, len(dst) // the text token being read, dst before it
	for {
		if p < x.from || p+64 > x.limit {
			if len(b)-p < 128 {
				return dst[:mark], start
			}
			x.make(b, p)
		}
		if breakLinesFast {
			// Lines with their tags (and the references and CRs the
			// loop below decodes), as many as come, in one call of a
			// loop in assembly (breakLines).
			if cap(dst)-len(dst) < 1<<10 {
				dst = slices.Grow(dst, 4<<10)
			}
			if np, m, tp, tm := breakLines(dst[len(dst):cap(dst)], b, x, p, want-len(dst)); np > p {
				if tp >= 0 {
					start, mark = tp, len(dst)+tm
				}
				dst, p = dst[:len(dst)+m], np
				if p == start && len(dst) >= want {
					return dst, p
				}
				continue
			}
		}
		w, shift := (p-x.from)>>6, uint((p-x.from)&63)
		lt := x.lt[w]>>shift | x.lt[w+1]<<(64-shift)
		sp := x.sp[w]>>shift | x.sp[w+1]<<(64-shift)
		k := bits.TrailingZeros64(lt) // 64 when there is no '<'
		if s := sp & (1<<k - 1); s != 0 {
			// A CR or a '&' before the '<': what decode makes of it.
			j := p + bits.TrailingZeros64(s)
			dst = append(dst, b[p:j]...)
			if j+1 >= len(b) {
				return dst[:mark], start // a CR LF cut?
			}
			if b[j] == '\r' {
				dst = append(dst, '\n')
				p = j + 1
				if b[p] == '\n' {
					p++
				}
				continue
			}
			c, n := simpleRef(b[j:])
			if n == 0 {
				return dst[:mark], start // decode's
			}
			dst = append(dst, c)
			p = j + n
			continue
		}
		if k == 64 {
			dst = appendWord(dst, b, p, 64)
			p += 64
			continue
		}
		q := p + k
		if q+8 <= len(b) {
			if n := breakTagLen(b[q:]); n > 0 {
				dst = appendWord(dst, b, p, k+1)
				dst[len(dst)-1] = '\n' // over the '<'
				p = q + n
				start, mark = p, len(dst)
				if len(dst) >= want {
					return dst, p
				}
				continue
			}
		}
		if q+1 >= len(b) {
			return dst[:mark], start
		}
		if !tagOpen[b[q+1]] {
			dst = append(dst, b[p:q+1]...) // "a < b": text
			p = q + 1
			continue
		}
		// The text token ends at q, a tag fast reads as before.
		return append(dst, b[p:q]...), q
	}
}

// appendWord appends b[p:p+n], n <= 64, to dst by one copy of 64 bytes
// (b holds them), whatever n: cheaper than append's, and it leaves room
// for the line break the caller writes over the '<' at b[p+n-1].
func appendWord(dst, b []byte, p, n int) []byte {
	o := len(dst)
	if cap(dst)-o < 64 {
		dst = slices.Grow(dst, 64)
	}
	*(*[64]byte)(dst[o : o+64]) = *(*[64]byte)(b[p : p+64])
	return dst[:o+n]
}

// simpleRef returns the character of the reference b starts with ('&'
// is b[0]) and its length when it is one of those mail HTML is full of,
// each whole with its ';' (so that no longer name can match): "&lt;",
// "&gt;", "&amp;", "&quot;", "&#39;", "&#34;". It returns 0, 0 for any
// other, and when b is too short to tell.
func simpleRef(b []byte) (byte, int) {
	if len(b) < 6 {
		return 0, 0
	}
	w := binary.LittleEndian.Uint32(b)
	switch {
	case w == '&'|'l'<<8|'t'<<16|';'<<24:
		return '<', 4
	case w == '&'|'g'<<8|'t'<<16|';'<<24:
		return '>', 4
	case w == '&'|'#'<<8|'3'<<16|'9'<<24 && b[4] == ';':
		return '\'', 5
	case w == '&'|'#'<<8|'3'<<16|'4'<<24 && b[4] == ';':
		return '"', 5
	case w == '&'|'a'<<8|'m'<<16|'p'<<24 && b[4] == ';':
		return '&', 5
	case w == '&'|'q'<<8|'u'<<16|'o'<<24 && b[4] == 't' && b[5] == ';':
		return '"', 6
	}
	return 0, 0
}

// The tags fast reads by their bytes, as little-endian words: "<br>",
// "</p>", "<p>" in the low three bytes, and the first four bytes of
// "<div>" and "</div>".
const (
	brTag     = '<' | 'b'<<8 | 'r'<<16 | '>'<<24
	pEndTag   = '<' | '/'<<8 | 'p'<<16 | '>'<<24
	pTag      = '<' | 'p'<<8 | '>'<<16
	divTag    = '<' | 'd'<<8 | 'i'<<16 | 'v'<<24
	divEndTag = '<' | '/'<<8 | 'd'<<16 | 'i'<<24
)

// breakTagLen returns the length of the tag b starts with when it is one
// that fast reads by its bytes, 0 when not; b holds 6 bytes at least.
func breakTagLen(b []byte) int {
	w := binary.LittleEndian.Uint32(b)
	switch {
	case w == brTag || w == pEndTag:
		return 4
	case w&0xFFFFFF == pTag:
		return 3
	case w == divTag && b[4] == '>':
		return 5
	case w == divEndTag && b[4] == 'v' && b[5] == '>':
		return 6
	}
	return 0
}
