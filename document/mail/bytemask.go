package mail

import "math/bits"

// Bit masks of bytes, 64 a word (bit j of word i for byte 64*i+j), made
// by a vector loop on amd64 (bytemask_amd64.s): what HTML text tokens
// (htmlIndex) and quoted-printable lines (qpReader.fast) are found by,
// where a bytes.IndexByte call per token or line cost 7 to 20 ns on the
// short distances of mail (40 to 76 bytes), more than the bits cost.

// byteMaskTail returns the masks of b, of no more than 64 bytes, byte by
// byte: the bytes a in ma, the bytes b1 and b2 in mb.
func byteMaskTail(b []byte, a, b1, b2 byte) (ma, mb uint64) {
	for i, c := range b {
		if c == a {
			ma |= 1 << i
		}
		if c == b1 || c == b2 {
			mb |= 1 << i
		}
	}
	return ma, mb
}

// byteMasksGeneric is byteMasks byte by byte: what other platforms use,
// and what the tests hold the vector loop to.
func byteMasksGeneric(p []byte, ma, mb []uint64, a, b1, b2 byte) {
	for i := range ma {
		ma[i], mb[i] = byteMaskTail(p[64*i:64*i+64], a, b1, b2)
	}
}

// nextBit returns the least i' >= i whose bit is set in m, or n when
// there is none below n; a bit at n or past it may be returned too (the
// callers take anything at n or past it for none).
func nextBit(m []uint64, i, n int) int {
	for i < n {
		if w := m[i>>6] >> (uint(i) & 63); w != 0 {
			return i + bits.TrailingZeros64(w)
		}
		i = (i | 63) + 1
	}
	return n
}
