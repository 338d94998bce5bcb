package mail

import (
	"math/rand/v2"
	"testing"
)

// lineStartCandidate finds the first line feed followed by 'F' or '>'
// with either vector loop this CPU has (SSE2, and AVX2 where it can),
// on texts of every length up to 300, at every alignment, and long ones.
func TestLineStartCandidateLoops(t *testing.T) {
	want := func(b []byte) int {
		for i := 0; i+1 < len(b); i++ {
			if b[i] == '\n' && (b[i+1] == 'F' || b[i+1] == '>') {
				return i
			}
		}
		return -1
	}
	saved := fromAVX2
	defer func() { fromAVX2 = saved }()
	for _, avx := range []bool{false, true} {
		if avx && !saved {
			continue // no AVX2 here
		}
		fromAVX2 = avx
		r := rand.New(rand.NewPCG(21, 12))
		for n := 0; n <= 300; n++ {
			for range 40 {
				buf := randomFromText(r, n+16)
				at := r.IntN(16)
				b := buf[at : at+n]
				if got, w := lineStartCandidate(b), want(b); got != w {
					t.Fatalf("AVX2 %v: lineStartCandidate(%q) = %d, want %d", avx, b, got, w)
				}
			}
		}
		for _, n := range []int{1 << 10, 64<<10 + 5, 1<<20 + 17} {
			b := make([]byte, n)
			for i := range b {
				b[i] = "xyz\n"[i%4]
			}
			for _, at := range []int{0, 1, 15, 16, 31, 32, 33, n/2 + 7, n - 2} {
				c := append([]byte(nil), b...)
				c[at], c[at+1] = '\n', '>'
				if got, w := lineStartCandidate(c), want(c); got != w {
					t.Fatalf("AVX2 %v: %d bytes, candidate at %d: found %d", avx, n, w, got)
				}
			}
		}
	}
}
