package mail

import "golang.org/x/sys/cpu"

// b64Vector is whether b64RunSSSE3 can run here.
var b64Vector = cpu.X86.HasSSSE3

// b64RunFast is b64Run, 16 characters a step in vector registers where
// the CPU has SSSE3 (nearly every amd64 since 2006); runs of base64url
// characters ('-', '_', which the vector tables do not take) and runs
// under 16 characters go to b64Run. Base64 of the corpus's mbox: b64Run
// was a twelfth of its time.
func b64RunFast(t *[1 << 16]uint16, dst, src []byte) bool {
	n := len(src)
	if b64Vector && n >= 16 && n%4 == 0 && len(dst) >= n/4*3+4 && b64RunSSSE3(&dst[0], &src[0], n) {
		return true
	}
	return b64Run(t, dst, src)
}

//go:noescape
func b64RunSSSE3(dst, src *byte, n int) bool

// b64LinesFast decodes the lines of lineLen base64 characters that src
// begins with, each ended by LF or CR LF, into dst, as lines decodes them
// one at a time, in one call for all of them where the CPU has SSSE3 (a
// call and the Go of lines for each line of 76 characters were 2.5 % of
// the CPU of the corpus's mbox). It returns the bytes of src taken and of
// dst written; none where the CPU has no SSSE3.
func b64LinesFast(dst, src []byte, lineLen int) (n, m int) {
	if !b64Vector || lineLen < 16 || lineLen%4 != 0 || len(src) == 0 || len(dst) == 0 {
		return 0, 0
	}
	if b64AVX2 {
		return b64LinesAVX2(&dst[0], &src[0], len(dst), len(src), lineLen)
	}
	return b64LinesSSSE3(&dst[0], &src[0], len(dst), len(src), lineLen)
}

// b64AVX2 is whether b64LinesAVX2 can run here.
var b64AVX2 = cpu.X86.HasAVX2

//go:noescape
func b64LinesAVX2(dst, src *byte, dstLen, srcLen, lineLen int) (taken, written int)

//go:noescape
func b64LinesSSSE3(dst, src *byte, dstLen, srcLen, lineLen int) (taken, written int)
