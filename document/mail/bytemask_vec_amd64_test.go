package mail

// maskVectors are the vector loops of byteMasks this CPU can run, each
// tested against byteMasksGeneric whichever byteMasks takes.
func maskVectors() []func(p []byte, ma, mb []uint64, a, b1, b2 byte) {
	call := func(f func(p *byte, n int, ma, mb *uint64, a, b1, b2 byte)) func(p []byte, ma, mb []uint64, a, b1, b2 byte) {
		return func(p []byte, ma, mb []uint64, a, b1, b2 byte) {
			if len(ma) > 0 {
				f(&p[0], len(ma), &ma[0], &mb[0], a, b1, b2)
			}
		}
	}
	v := []func(p []byte, ma, mb []uint64, a, b1, b2 byte){call(byteMaskBlocks)}
	if maskAVX2 {
		v = append(v, call(byteMaskBlocksAVX2))
	}
	return v
}
