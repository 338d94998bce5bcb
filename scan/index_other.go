//go:build !amd64

package scan

// colonLtVector: no vector loop here.
const colonLtVector = false

func indexColonLastLtAVX2(b []byte) (colon, lt int) { return indexColonLastLtGeneric(b) }
