package mail

import "math/bits"

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
