package scan

import "bytes"

// countBreaks returns the number of LFs in b and whether b holds a CR: what
// the line counter needs of each stretch of text it passes, in one pass
// over it (breaks_amd64.s) where a count of LFs and a search for a CR were
// two, an eighth of the CPU of urix --json on the corpus's text.
func countBreaks(b []byte) (lfs int, cr bool) {
	if len(b) >= 32 && breaksVector {
		return countBreaksAVX2(b)
	}
	return countBreaksGeneric(b)
}

// countBreaksGeneric is countBreaks without vector registers: what other
// platforms use, and what the tests hold the vector loop to.
func countBreaksGeneric(b []byte) (lfs int, cr bool) {
	if len(b) >= 32 {
		return bytes.Count(b, []byte{'\n'}), bytes.IndexByte(b, '\r') >= 0
	}
	for _, c := range b {
		if c == '\n' {
			lfs++
		} else if c == '\r' {
			cr = true
		}
	}
	return lfs, cr
}
