//go:build !amd64

package mail

func maskVectors() []func(p []byte, ma, mb []uint64, a, b1, b2 byte) {
	return []func(p []byte, ma, mb []uint64, a, b1, b2 byte){byteMasks}
}
