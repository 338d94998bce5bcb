package mail

// breakLines reads, from p on in b, the text of HTML lines each ended by
// one of the tags breakTagLen reads, as textAndBreaks does, in one call
// (breakLinesSSE2): the text copied to dst by 64-byte moves, the
// references simpleRef reads and CR LF decoded, a line break over each
// tag's '<'. It stops where textAndBreaks must look: another tag or
// reference, '<' in the text, the end of the words made or of b, no room
// in dst for 64 bytes, or dst past want after a tag.
// It returns where it stopped in b and the bytes written to dst, and
// where in both the last tag it read ended (tp < 0: none), where the
// text token being read began. The Go of textAndBreaks for each line (40
// bytes of the corpus's text) was a fifth of the time of an HTML part.
func breakLines(dst, b []byte, x *htmlIndex, p, want int) (np, m, tp, tm int) {
	if len(dst) < 64 || p < x.from || p+64 > x.limit || x.limit > len(b) {
		return p, 0, -1, 0
	}
	np, m, tp, tm = breakLinesSSE2(&dst[0], len(dst), &b[x.from], len(b)-x.from, &x.lt[0], &x.sp[0], x.limit-x.from, p-x.from, want)
	if tp >= 0 {
		tp += x.from
	}
	return np + x.from, m, tp, tm
}

//go:noescape
func breakLinesSSE2(dst *byte, dstLen int, b *byte, bLen int, lt, sp *uint64, limit, rel, want int) (np, written, tp, tm int)

// breakLinesFast is whether breakLines takes lines here.
const breakLinesFast = true
