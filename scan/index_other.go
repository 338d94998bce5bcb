//go:build !amd64

package scan

// colonLtVector: no vector loop here.
const colonLtVector = false

func indexColonOpenLtAVX2(b []byte) (colon, lt int) { return indexColonOpenLtGeneric(b) }
