package mail

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The masks (a vector loop on amd64) are those made byte by byte, for
// the bytes HTML and quoted-printable look for, at every length to 640
// and 16 alignments; nextBit finds what a byte loop finds from every
// place.
func TestByteMasks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 18))
	const alphabet = "<&\r\n=ab \xe9\x00"
	for n := 0; n <= 640; n++ {
		buf := make([]byte, n+16)
		for i := range buf {
			buf[i] = alphabet[r.IntN(len(alphabet))]
		}
		at := r.IntN(16)
		b := buf[at : at+n]
		k := n / 64
		for _, set := range [][3]byte{{'<', '&', '\r'}, {'=', '\n', '\n'}, {0, 0xE9, 'a'}} {
			ma, mb := make([]uint64, k+1), make([]uint64, k+1)
			wa, wb := make([]uint64, k+1), make([]uint64, k+1)
			byteMasksGeneric(b[:64*k], wa[:k], wb[:k], set[0], set[1], set[2])
			for _, vector := range maskVectors() {
				clear(ma)
				clear(mb)
				vector(b[:64*k], ma[:k], mb[:k], set[0], set[1], set[2])
				if !slices.Equal(ma, wa) || !slices.Equal(mb, wb) {
					t.Fatalf("%q %q: masks %x %x, want %x %x", b, set, ma, mb, wa, wb)
				}
			}
			byteMasks(b[:64*k], ma[:k], mb[:k], set[0], set[1], set[2])
			ma[k], mb[k] = byteMaskTail(b[64*k:], set[0], set[1], set[2])
			for i := 0; i <= n; i++ {
				want := n
				for j := i; j < n; j++ {
					if b[j] == set[0] {
						want = j
						break
					}
				}
				if got := nextBit(ma, i, n); got != want {
					t.Fatalf("%q: nextBit of %q from %d = %d, want %d", b, set[0], i, got, want)
				}
			}
		}
	}
}
