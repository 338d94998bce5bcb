//go:build !amd64

package mail

// breakLinesFast: no assembly loop here; textAndBreaks reads every line.
const breakLinesFast = false

func breakLines(dst, b []byte, x *htmlIndex, p, want int) (np, m, tp, tm int) { return p, 0, -1, 0 }
