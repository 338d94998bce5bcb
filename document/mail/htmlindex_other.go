//go:build !amd64

package mail

// htmlMasks sets lt[i] and sp[i] to the masks (htmlIndex) of the 64
// bytes of b from 64*i; b holds 64*len(lt) bytes.
func htmlMasks(b []byte, lt, sp []uint64) { htmlMasksGeneric(b, lt, sp) }
