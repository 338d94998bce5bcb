package mail

// byteMasks sets ma[i] to the mask of the bytes a and mb[i] to that of
// the bytes b1 and b2 among the 64 bytes of p from 64*i (bit j for byte
// 64*i+j); p holds 64*len(ma) bytes, mb as many words as ma.
func byteMasks(p []byte, ma, mb []uint64, a, b1, b2 byte) {
	if len(ma) > 0 {
		_ = p[64*len(ma)-1]
		_ = mb[len(ma)-1]
		byteMaskBlocks(&p[0], len(ma), &ma[0], &mb[0], a, b1, b2)
	}
}

// byteMaskBlocks is byteMasks over n blocks of 64 bytes at p.
//
//go:noescape
func byteMaskBlocks(p *byte, n int, ma, mb *uint64, a, b1, b2 byte)
