package mail

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"testing"
)

// b64RunFast (vector registers on amd64) decodes what b64Run decodes and
// takes what it takes: every byte value at every place of runs of 16 to
// 28 characters, and random runs of the alphabets at every length to 300
// and 16 alignments.
func TestB64RunFast(t *testing.T) {
	tab := b64Pairs()
	check := func(src []byte) {
		t.Helper()
		n := len(src)
		want, got := make([]byte, n/4*3+4), make([]byte, n/4*3+4)
		wantOK := b64Run(tab, want, src)
		gotOK := b64RunFast(tab, got, src)
		if gotOK != wantOK || wantOK && !bytes.Equal(got[:n/4*3], want[:n/4*3]) {
			t.Fatalf("%q: got %v %x, want %v %x", src, gotOK, got[:n/4*3], wantOK, want[:n/4*3])
		}
	}
	base := []byte("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo")
	for _, n := range []int{16, 20, 24, 28} {
		for i := range n {
			for c := range 256 {
				src := bytes.Clone(base[:n])
				src[i] = byte(c)
				check(src)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 64))
	const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for n := 0; n <= 300; n += 4 {
		for range 20 {
			buf := make([]byte, n+16)
			for i := range buf {
				buf[i] = std[r.IntN(len(std))]
			}
			if r.IntN(4) == 0 && n > 0 {
				buf[r.IntN(n)] = "-_=*\n "[r.IntN(6)]
			}
			at := r.IntN(16)
			check(buf[at : at+n])
		}
	}
	// What encoding/base64 makes of random bytes, decoded back.
	raw := make([]byte, 57*3)
	for i := range raw {
		raw[i] = byte(r.Uint32())
	}
	enc := []byte(base64.StdEncoding.EncodeToString(raw))
	out := make([]byte, len(raw)+4)
	if !b64RunFast(tab, out, enc) || !bytes.Equal(out[:len(raw)], raw) {
		t.Fatalf("decoded %x, want %x", out[:len(raw)], raw)
	}
}
