package mail

import "golang.org/x/sys/cpu"

// byteMasks sets ma[i] to the mask of the bytes a and mb[i] to that of
// the bytes b1 and b2 among the 64 bytes of p from 64*i (bit j for byte
// 64*i+j); p holds 64*len(ma) bytes, mb as many words as ma.
func byteMasks(p []byte, ma, mb []uint64, a, b1, b2 byte) {
	if len(ma) > 0 {
		_ = p[64*len(ma)-1]
		_ = mb[len(ma)-1]
		if maskAVX2 {
			byteMaskBlocksAVX2(&p[0], len(ma), &ma[0], &mb[0], a, b1, b2)
		} else {
			byteMaskBlocks(&p[0], len(ma), &ma[0], &mb[0], a, b1, b2)
		}
	}
}

// maskAVX2 is whether byteMaskBlocksAVX2 can run here: 32 bytes a
// compare where byteMaskBlocks (SSE2) takes 16, the masks of QP and
// HTML (3 % of the CPU of the corpus's mbox) in half the instructions.
var maskAVX2 = cpu.X86.HasAVX2

// byteMaskBlocksAVX2 is byteMaskBlocks with AVX2.
//
//go:noescape
func byteMaskBlocksAVX2(p *byte, n int, ma, mb *uint64, a, b1, b2 byte)

// byteMaskBlocks is byteMasks over n blocks of 64 bytes at p.
//
//go:noescape
func byteMaskBlocks(p *byte, n int, ma, mb *uint64, a, b1, b2 byte)
