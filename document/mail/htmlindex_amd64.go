package mail

// htmlMasks sets lt[i] and sp[i] to the masks (htmlIndex) of the 64
// bytes of b from 64*i; b holds 64*len(lt) bytes, sp as many words as lt.
func htmlMasks(b []byte, lt, sp []uint64) {
	if len(lt) > 0 {
		htmlMaskBlocks(&b[0], len(lt), &lt[0], &sp[0])
	}
}

// htmlMaskBlocks is htmlMasks over n blocks of 64 bytes at p.
//
//go:noescape
func htmlMaskBlocks(p *byte, n int, lt, sp *uint64)
