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

// b64LinesRef is b64LinesFast line by line with b64Run: the lines of
// lineLen characters src begins with, each ended by LF or CR LF, taken
// while they are of the standard alphabet (base64url's '-' and '_',
// which b64Run takes, are left to it, as b64RunFast leaves them) and
// their output leaves 4 bytes of room in dst.
func b64LinesRef(dst, src []byte, lineLen int) (n, m int) {
	tab := b64Pairs()
	out := lineLen / 4 * 3
	for {
		end := n + lineLen
		if end >= len(src) || m+out+4 > len(dst) {
			return n, m
		}
		eol := 0
		switch {
		case src[end] == '\n':
			eol = 1
		case src[end] == '\r' && end+1 < len(src) && src[end+1] == '\n':
			eol = 2
		default:
			return n, m
		}
		if bytes.ContainsAny(src[n:end], "-_") || !b64Run(tab, dst[m:], src[n:end]) {
			return n, m
		}
		n, m = end+eol, m+out
	}
}

// b64LinesFast takes the lines b64LinesRef takes, to the same bytes:
// lines of every length base64 is written in, LF or CR LF, with a byte
// of every value put at every place of a line, and room in dst from none
// to more than enough.
func TestB64LinesFast(t *testing.T) {
	if !b64Vector {
		t.Skip("no SSSE3: b64LinesFast takes nothing")
	}
	checkB64LinesFast(t)
}

func checkB64LinesFast(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 76))
	const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	check := func(src []byte, lineLen, room int) {
		t.Helper()
		want, got := make([]byte, room), make([]byte, room)
		wn, wm := b64LinesRef(want, src, lineLen)
		gn, gm := b64LinesFast(got, src, lineLen)
		if gn != wn || gm != wm || !bytes.Equal(got[:gm], want[:wm]) {
			t.Fatalf("lines of %d, room %d, %q: took %d, wrote %d %x; want %d, %d %x", lineLen, room, src, gn, gm, got[:gm], wn, wm, want[:wm])
		}
	}
	lines := func(lineLen, count int, eol string) []byte {
		var b []byte
		for range count {
			for range lineLen {
				b = append(b, std[r.IntN(len(std))])
			}
			b = append(b, eol...)
		}
		return b
	}
	for _, lineLen := range []int{16, 20, 60, 64, 72, 76, 100} {
		for _, eol := range []string{"\n", "\r\n"} {
			src := lines(lineLen, 3, eol)
			out := lineLen / 4 * 3
			for _, room := range []int{0, out + 3, out + 4, 2*out + 4, 3*out + 3, 3*out + 4, 4 * out} {
				check(src, lineLen, room)
			}
			for cut := range len(src) {
				check(src[:cut], lineLen, 4*out)
			}
			for i := range src {
				for c := range 256 {
					bad := bytes.Clone(src)
					bad[i] = byte(c)
					check(bad, lineLen, 4*out)
				}
			}
		}
	}
	// A last line of another length, padding, a boundary line after.
	src := append(lines(76, 5, "\r\n"), "QUJD\r\nQUI=\r\n--b\r\n"...)
	check(src, 76, 1000)
	check(src, 4, 1000) // too short for it: takes nothing
}
