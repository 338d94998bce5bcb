package mail

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// qpLinesRef is qpLines line by line: whole lines (to an LF in in) that
// do not end with a blank, their CR before the LF dropped, while the
// output and its LF fit in out.
func qpLinesRef(out, in []byte) (n, m int) {
	for {
		lf := bytes.IndexByte(in[n:], '\n')
		if lf < 0 {
			return n, m
		}
		line := in[n : n+lf]
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
			if k := len(line); k > 0 && isBlank(line[k-1]) {
				return n, m
			}
		} else if k > 0 && isBlank(line[k-1]) {
			return n, m
		}
		if m+len(line)+1 > len(out) {
			return n, m
		}
		m += copy(out[m:], line)
		out[m] = '\n'
		n, m = n+lf+1, m+1
	}
}

// qpLines takes the lines qpLinesRef takes, to the same bytes: lines of
// every length from 0 to 100 of text, blanks, CRs and 8-bit bytes, ended
// by LF or CR LF, cut anywhere, into outs of every size.
func TestQPLines(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 40))
	alphabet := []byte("abc xyz\t\r\x00\xe9.:/")
	check := func(in []byte, room int) {
		t.Helper()
		want, got := make([]byte, room), make([]byte, room+16)
		for i := range got {
			got[i] = 0xAA
		}
		wn, wm := qpLinesRef(want, in)
		// The LF mask as qpReader.masks makes it, in at bit off.
		off := r.IntN(70)
		lfs := make([]uint64, (off+len(in))/64+1)
		for i, c := range in {
			if c == '\n' {
				lfs[(off+i)>>6] |= 1 << ((off + i) & 63)
			}
		}
		gn, gm := qpLines(got[:room], in, lfs, off)
		if qpLinesFast && (gn != wn || gm != wm || !bytes.Equal(got[:gm], want[:wm])) {
			t.Fatalf("%q, room %d: took %d, wrote %d %q; want %d, %d %q", in, room, gn, gm, got[:gm], wn, wm, want[:wm])
		}
		if !qpLinesFast && (gn != 0 || gm != 0) {
			t.Fatalf("%q: took %d without the vector loop", in, gn)
		}
		for _, c := range got[room:] {
			if c != 0xAA {
				t.Fatalf("%q, room %d: written past out", in, room)
			}
		}
	}
	for range 2000 {
		var in []byte
		for range 1 + r.IntN(6) {
			for range r.IntN(101) {
				c := byte('x')
				if r.IntN(8) == 0 {
					c = alphabet[r.IntN(len(alphabet))]
				}
				in = append(in, c)
			}
			in = append(in, []string{"\n", "\r\n", "\r\n", " \r\n", "\t\n", "\r\r\n"}[r.IntN(6)]...)
		}
		check(in, len(in)+1)
		check(in[:r.IntN(len(in)+1)], len(in))
		check(in, r.IntN(len(in)+1))
	}
	for _, in := range []string{"", "\n", "\r\n", "\n\n\r\n", "x", "x\n", " \n", "\r\n\r", strings16 + "\r\n" + strings16 + "x\n"} {
		for room := 0; room <= len(in)+1; room++ {
			check([]byte(in), room)
		}
	}
}

const strings16 = "0123456789abcdef"
