//go:build !amd64

package mail

// fromLineIn returns the start of the first line of b, after its first
// byte, that is a "From " line or a quoted one, whole within b; -1 if
// none.
func fromLineIn(b []byte) int { return fromLineByIndex(b) }
