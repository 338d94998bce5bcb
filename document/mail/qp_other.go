//go:build !amd64

package mail

func qpLines(out, in []byte, lfs []uint64, off int) (n, m int) { return 0, 0 }

const qpLinesFast = false
