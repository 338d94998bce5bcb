package scan

import (
	"math/rand/v2"
	"testing"
)

// countBreaksBytes is countBreaks byte by byte: what both loops are held to.
func countBreaksBytes(b []byte) (lfs int, cr bool) {
	for _, c := range b {
		lfs += int(b2i(c == '\n'))
		cr = cr || c == '\r'
	}
	return lfs, cr
}

func b2i(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// TestCountBreaks: the vector loop (where this CPU has it) and the generic
// one against a byte loop, for every length to 200 at every offset in a
// buffer (so each step's load, the last one overlapping, and the shift that
// drops its bytes counted are met at every alignment), with LFs and a CR at
// every place, and random text.
func TestCountBreaks(t *testing.T) {
	loops := map[string]func([]byte) (int, bool){"countBreaks": countBreaks, "generic": countBreaksGeneric}
	if breaksVector {
		loops["AVX2"] = func(b []byte) (int, bool) {
			if len(b) < 32 {
				return countBreaksGeneric(b)
			}
			return countBreaksAVX2(b)
		}
	}
	check := func(b []byte, what string) {
		t.Helper()
		want, wantCR := countBreaksBytes(b)
		for name, f := range loops {
			if got, gotCR := f(b); got != want || gotCR != wantCR {
				t.Fatalf("%s, %s, %d bytes: (%d, %v), want (%d, %v)", what, name, len(b), got, gotCR, want, wantCR)
			}
		}
	}
	buf := make([]byte, 264)
	for n := 0; n <= 200; n++ {
		for off := 0; off < 64; off += 7 {
			b := buf[off : off+n]
			for i := range buf {
				buf[i] = 'x'
			}
			check(b, "no breaks")
			for i := range b {
				b[i] = '\n'
				check(b, "LFs")
				b[i] = '\r'
				check(b, "a CR")
				b[i] = '\n'
			}
			// Breaks just outside b are not counted.
			if off > 0 {
				buf[off-1] = '\r'
			}
			buf[off+n] = '\r'
			check(b, "CRs around")
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(5000))
		for i := range b {
			b[i] = "ab \n\n\r\x00\xff"[r.IntN(8)]
		}
		check(b, "random")
	}
}

func BenchmarkCountBreaks(b *testing.B) {
	text := make([]byte, 64<<10)
	for i := range text {
		text[i] = "abcdefghijklmnopqrstuvwxyz .,\n"[i%30]
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		countBreaks(text)
	}
}
