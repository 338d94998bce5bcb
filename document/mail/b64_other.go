//go:build !amd64

package mail

// b64Vector: no vector decoder here.
const b64Vector = false

func b64RunFast(t *[1 << 16]uint16, dst, src []byte) bool { return b64Run(t, dst, src) }

func b64LinesFast(dst, src []byte, lineLen int) (n, m int) { return 0, 0 }
