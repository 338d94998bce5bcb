package mail

import (
	"math/rand/v2"
	"testing"
)

// fromLineAlphabet makes texts where "From " lines, quoted ones and near
// misses are frequent.
var fromLineAlphabet = []string{"\n", "From ", ">", ">>", "F", "Fro", "rom ", "x", "\r\n", " From ", "\nFrom"}

func randomFromText(r *rand.Rand, n int) []byte {
	var b []byte
	for len(b) < n {
		b = append(b, fromLineAlphabet[r.IntN(len(fromLineAlphabet))]...)
	}
	return b[:n]
}

// fromLineIn (a vector search on amd64) finds what the search for "From "
// finds, on texts of every length up to 300 and at every alignment.
func TestFromLineIn(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 11))
	for n := 0; n <= 300; n++ {
		for range 40 {
			buf := randomFromText(r, n+16)
			at := r.IntN(16)
			b := buf[at : at+n]
			if got, want := fromLineIn(b), fromLineByIndex(b); got != want {
				t.Fatalf("fromLineIn(%q) = %d, want %d", b, got, want)
			}
		}
	}
	// Long texts with one From line far in, or none.
	for _, n := range []int{1 << 10, 64<<10 + 5, 1<<20 + 17} {
		b := make([]byte, n)
		for i := range b {
			b[i] = "Fx>\n"[i%4] // a line start with 'F' every 4 bytes, never "From "
		}
		if got := fromLineIn(b); got != -1 {
			t.Fatalf("%d bytes without a From line: %d", n, got)
		}
		copy(b[n-9:], "\n>From x")
		if got, want := fromLineIn(b), n-8; got != want {
			t.Fatalf("%d bytes: From line found at %d, want %d", n, got, want)
		}
	}
}

func FuzzFromLineIn(f *testing.F) {
	for _, s := range []string{"", "\nFrom ", "x\n>From a\nFrom b", "\n>>From\n>>From ", "From x\nF\nFr\nFrom"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := fromLineIn(b), fromLineByIndex(b); got != want {
			t.Fatalf("fromLineIn(%q) = %d, want %d", b, got, want)
		}
	})
}
