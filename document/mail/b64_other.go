//go:build !amd64

package mail

func b64RunFast(t *[1 << 16]uint16, dst, src []byte) bool { return b64Run(t, dst, src) }
