package mail

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// breakLinesRef is breakLines step by step in Go, as textAndBreaks reads
// text with nothing in it for decode but CRs and the references simpleRef
// reads. It goes as the assembly loop goes: a word of lt and sp at a
// time, the marks before p cleared from them, the lowest mark taken off
// at each tag or reference read (whose bytes hold no other mark), the
// rest of a word with none copied whole.
func breakLinesRef(dst, b []byte, x *htmlIndex, p, want int) (np, m, tp, tm int) {
	tp = -1
	if p < x.from || p+64 > x.limit || x.limit > len(b) {
		return p, m, tp, tm
	}
	k := (p - x.from) >> 6
	below := uint64(1)<<((p-x.from)&63) - 1
	lt, sp := x.lt[k]&^below, x.sp[k]&^below
	for {
		if p+64 > x.limit || p+64 > len(b) || m+64 > len(dst) {
			return p, m, tp, tm
		}
		if lt == 0 && sp == 0 {
			// The rest of the word is text (or was a tag's or a
			// reference's end): on to the next word.
			k++
			if ws := x.from + 64*k; ws > p {
				m += copy(dst[m:], b[p:ws])
				p = ws
			}
			lt, sp = x.lt[k], x.sp[k]
			continue
		}
		if lt == 0 || sp&(lt&-lt-1) != 0 {
			// A CR or a reference before the next '<'.
			j := x.from + 64*k + bits.TrailingZeros64(sp)
			if j+8 > len(b) {
				return p, m, tp, tm
			}
			c, n := byte('\n'), 1
			if b[j] == '\r' {
				if b[j+1] == '\n' {
					n = 2
				}
			} else if c, n = simpleRef(b[j:]); n == 0 {
				return p, m, tp, tm
			}
			m += copy(dst[m:], b[p:j])
			dst[m] = c
			m, p = m+1, j+n
			sp &= sp - 1
			continue
		}
		q := x.from + 64*k + bits.TrailingZeros64(lt)
		if q+8 > len(b) {
			return p, m, tp, tm
		}
		n := breakTagLen(b[q:])
		if n == 0 {
			return p, m, tp, tm
		}
		m += copy(dst[m:], b[p:q])
		dst[m] = '\n'
		m, p = m+1, q+n
		lt &= lt - 1
		tp, tm = p, m
		if m >= want {
			return p, m, tp, tm
		}
	}
}

// breakLines takes the lines breakLinesRef takes, to the same bytes, on
// lines of every length to 80 ended by the five tags and their near
// misses, with '&', CR and '<' in the text, from any place, into dsts of
// any room, with nothing written past them.
func TestBreakLines(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 12))
	tags := []string{"<br>", "</p>", "<p>", "<div>", "</div>", "<br>", "<br>", "<p>",
		"<b>", "<br/>", "<p class=x>", "<di>", "</dix", "<divx", "<BR>", "<!--x-->"}
	text := []byte("abcdefgh ijk.:/xyz\xc3\xa9")
	refs := []string{"&lt;", "&gt;", "&amp;", "&quot;", "&#39;", "&#34;", "&lt", "&amp ", "&quox", "&#35;", "&copy;", "\r\n", "\r", "\r\r"}
	took := 0
	for range 6000 {
		var b []byte
		// Lines to 80 or 200 bytes; '&', CR, '<' and references in the
		// text often, rarely or never.
		maxLine, rate := []int{81, 201}[r.IntN(2)], []int{10, 60, 1 << 30}[r.IntN(3)]
		for len(b) < 1500 {
			for range r.IntN(maxLine) {
				c := text[r.IntN(len(text))]
				switch r.IntN(rate) {
				case 0:
					c = '&'
				case 1:
					c = '\r'
				case 2:
					c = '<'
				case 3, 4, 5, 6:
					b = append(b, refs[r.IntN(len(refs))]...)
				}
				b = append(b, c)
			}
			b = append(b, tags[r.IntN(len(tags))]...)
			if r.IntN(2) == 0 {
				b = append(b, '\n')
			}
		}
		b = b[:r.IntN(len(b)+1)]
		var x htmlIndex
		x.reset()
		p := r.IntN(len(b) + 1)
		if len(b)-p >= 64 {
			x.make(b, p)
		}
		p += r.IntN(70)
		room := r.IntN(400)
		want := 1 + r.IntN(500)
		wantDst := make([]byte, room)
		gotDst := make([]byte, room+64)
		for i := range gotDst {
			gotDst[i] = 0xAA
		}
		wp, wm, wtp, wtm := breakLinesRef(wantDst, b, &x, p, want)
		gp, gm, gtp, gtm := breakLines(gotDst[:room], b, &x, p, want)
		if !breakLinesFast {
			if gp != p || gm != 0 || gtp != -1 {
				t.Fatalf("took lines without the assembly loop")
			}
			continue
		}
		if gp != wp || gm != wm || gtp != wtp || gtm != wtm || !bytes.Equal(gotDst[:gm], wantDst[:wm]) {
			t.Fatalf("%q from %d (words %d to %d), room %d, want %d: got %d, %d, %d, %d %q; want %d, %d, %d, %d %q",
				b, p, x.from, x.limit, room, want, gp, gm, gtp, gtm, gotDst[:gm], wp, wm, wtp, wtm, wantDst[:wm])
		}
		if wm > 0 {
			took++
		}
		for _, c := range gotDst[room:] {
			if c != 0xAA {
				t.Fatalf("%q: written past dst", b)
			}
		}
	}
	// A reference or CR within 8 bytes of b's end (b of two whole words,
	// so that the words made reach it), the rest of it past len(b) in b's
	// array: breakLines must not read there, and leaves it to the Go.
	for _, ref := range refs {
		for cut := 1; cut <= 9; cut++ {
			j := 128 - cut
			line := append(bytes.Repeat([]byte("x"), j), ref...)
			line = append(line, "yyyyyyyy<br>"...)
			b := line[:128]
			var x htmlIndex
			x.reset()
			x.make(b, 0)
			for _, p := range []int{0, 40, 64} {
				dst, want := make([]byte, 300), make([]byte, 300)
				gp, gm, _, _ := breakLines(dst, b, &x, p, 1000)
				wp, wm, _, _ := breakLinesRef(want, b, &x, p, 1000)
				if breakLinesFast && (gp != wp || gm != wm || !bytes.Equal(dst[:gm], want[:wm])) {
					t.Fatalf("%q %d bytes before b's end, from %d: got %d, %d; want %d, %d", ref, cut, p, gp, gm, wp, wm)
				}
			}
		}
	}
	if breakLinesFast && took < 1000 {
		t.Fatalf("only %d of 6000 cases took a line", took)
	}
}
