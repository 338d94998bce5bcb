//go:build !amd64

package mail

// byteMasks sets ma[i] to the mask of the bytes a and mb[i] to that of
// the bytes b1 and b2 among the 64 bytes of p from 64*i (bit j for byte
// 64*i+j); p holds 64*len(ma) bytes.
func byteMasks(p []byte, ma, mb []uint64, a, b1, b2 byte) { byteMasksGeneric(p, ma, mb, a, b1, b2) }
