//go:build !amd64

package scan

// colonLtVector: no vector loop here.
const colonLtVector = false

func indexColonSkipAVX2(b []byte, from int, open bool) (colon, lt int) {
	return indexColonOpenLtAt(b, from)
}
