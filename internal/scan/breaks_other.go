//go:build !amd64

package scan

// breaksVector: no vector loop here.
const breaksVector = false

func countBreaksAVX2(b []byte) (int, bool) { return countBreaksGeneric(b) }
