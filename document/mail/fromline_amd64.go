package mail

import (
	"bytes"

	"golang.org/x/sys/cpu"
)

// fromLineIn returns the start of the first line of b, after its first
// byte, that is a "From " line or a quoted one, whole within b; -1 if
// none.
//
// It stops only at line starts that begin with 'F' or '>': a vector
// search for a line feed followed by either (lineStartBlocks), where a
// search for "From " (fromLineByIndex) stopped at every 'F', one every
// 147 bytes of the corpus's mbox, and cost a tenth of the time of a
// plain-text mbox in those short calls.
func fromLineIn(b []byte) int {
	for off := 0; ; {
		i := lineStartCandidate(b[off:])
		if i < 0 {
			return -1
		}
		k := off + i + 1
		if fromLineAt(b, k) {
			return k
		}
		off = k
	}
}

// fromLineAt reports whether the line starting at k of b is a "From "
// line or a quoted one (">"s, then "From "), whole within b.
func fromLineAt(b []byte, k int) bool {
	j := k
	for j < len(b) && b[j] == '>' {
		j++
	}
	return bytes.HasPrefix(b[j:], from)
}

// lineStartCandidate returns the index of the first '\n' of b followed by
// 'F' or '>', or -1.
func lineStartCandidate(b []byte) int {
	if len(b) < 2 {
		return -1
	}
	// The blocks: positions [0, m), each with the byte after it in b.
	m := (len(b) - 1) &^ 15
	if m > 0 {
		var i int
		if fromAVX2 {
			i = lineStartBlocksAVX2(&b[0], m)
		} else {
			i = lineStartBlocks(&b[0], m)
		}
		if i >= 0 {
			return i
		}
	}
	for i := m; i < len(b)-1; i++ {
		if b[i] == '\n' && (b[i+1] == 'F' || b[i+1] == '>') {
			return i
		}
	}
	return -1
}

// lineStartBlocks is lineStartCandidate over the positions [0, n) of the
// bytes at p, n a positive multiple of 16, p holding n+1 bytes at least.
//
//go:noescape
func lineStartBlocks(p *byte, n int) int

// fromAVX2 is whether lineStartBlocksAVX2 can run here: 32 positions a
// step where lineStartBlocks (SSE2) takes 16; the search runs over every
// byte of an mbox.
var fromAVX2 = cpu.X86.HasAVX2

// lineStartBlocksAVX2 is lineStartBlocks with AVX2.
//
//go:noescape
func lineStartBlocksAVX2(p *byte, n int) int
