package mail

import (
	"bufio"
	"bytes"
	"io"
)

// unflow undoes format=flowed (RFC 3676 4.2): a line ending in a space is
// joined with the next one of the same quote depth (the space removed
// first with DelSp=yes), space-stuffing is removed, and quoted paragraphs
// come out with a canonical "> " prefix of their depth. It streams line by
// line; a line longer than the buffer is passed through in pieces.
type unflow struct {
	br         *bufio.Reader
	delSp      bool
	out        []byte
	buf        []byte
	inLine     bool // in the middle of a long line
	prevFlowed bool
	prevDepth  int
	err        error
}

func newUnflow(r io.Reader, delSp bool) io.Reader {
	return &unflow{br: bufio.NewReaderSize(r, bufSize), delSp: delSp}
}

func (u *unflow) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		u.out = u.buf[:0]
		piece, err := u.br.ReadSlice('\n')
		if len(piece) > 0 {
			u.piece(piece, err == nil || err == io.EOF)
		}
		if err != nil && err != bufio.ErrBufferFull {
			if u.prevFlowed && !u.inLine {
				u.out = append(u.out, '\n')
				u.prevFlowed = false
			}
			u.err = err
		}
		u.buf = u.out[:0]
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// piece handles a piece of a line; last is true when it ends the line.
func (u *unflow) piece(b []byte, last bool) {
	depth := u.prevDepth
	if !u.inLine {
		depth = 0
		for depth < len(b) && b[depth] == '>' {
			depth++
		}
		b = b[depth:]
		if len(b) > 0 && b[0] == ' ' {
			b = b[1:] // space-stuffing, or the space after the quote marks
		}
		if u.prevFlowed && depth != u.prevDepth {
			u.out = append(u.out, '\n') // a flowed line then a different depth: fixed
			u.prevFlowed = false
		}
		if !u.prevFlowed && depth > 0 {
			u.out = append(u.out, bytes.Repeat([]byte{'>'}, depth)...)
			u.out = append(u.out, ' ')
		}
	}
	if !last {
		u.out = append(u.out, b...)
		u.inLine = true
		u.prevDepth = depth
		return
	}
	whole := !u.inLine
	u.inLine = false
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	flowed := len(b) > 0 && b[len(b)-1] == ' ' && !(whole && string(b) == "-- ")
	if flowed && u.delSp {
		b = b[:len(b)-1]
	}
	u.out = append(u.out, b...)
	if !flowed {
		u.out = append(u.out, '\n')
	}
	u.prevFlowed = flowed
	u.prevDepth = depth
}
