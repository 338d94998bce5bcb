package document

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/ulikunitz/xz/lzma"
)

// xzWatch stands between the input and github.com/ulikunitz/xz and follows
// the structure of the xz stream in the bytes it hands over (The .xz File
// Format 1.0.4: stream header, blocks of LZMA2 chunks, index, footer,
// stream padding). The library makes the dictionary a block header asks
// for as soon as it has read that header (lzma.NewReader2 allocates the
// whole size, up to 4 GiB, unbounded), so the watch reads every block
// header before it hands over the header's first byte and refuses one
// whose dictionary is above the limit (behaviour §1). The sizes it follows
// are in the chunk and block headers; it checks no checksum (the library
// does). Anything it cannot follow is an error: a stream the watch cannot
// follow is one the library would refuse too, and following it blind could
// let a later block header through.
type xzWatch struct {
	br     *bufio.Reader
	limit  int64
	state  xzState
	skip   int64  // bytes to hand over before the next structure
	check  int64  // size of the check field of the current stream's blocks
	block  int64  // size of the current block so far, for its padding
	blocks uint64 // blocks in the current stream
	left   uint64 // index: varints still to come
	index  int64  // size of the index so far, for its padding
	err    error
}

type xzState uint8

const (
	xzStreamHeader xzState = iota
	xzBlockOrIndex
	xzChunk
	xzBlockEnd
	xzIndexCount
	xzIndexRecords
	xzIndexEnd
	xzStreamPadding
	// xzRest hands over whatever is left: the end of the input, or an
	// incomplete structure (which the library reports as truncated).
	xzRest
)

const (
	xzHeaderLen    = 12 // stream header and footer
	lzma2FilterID  = 0x21
	xzMaxVarintLen = 9 // multibyte integers are at most 63 bits (1.0.4 section 1.2)
)

func (w *xzWatch) Read(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	for w.skip == 0 && w.state != xzRest {
		if err := w.advance(); err != nil {
			w.err = err
			return 0, err
		}
	}
	if w.state == xzRest {
		return w.br.Read(p)
	}
	if int64(len(p)) > w.skip {
		p = p[:w.skip]
	}
	n, err := w.br.Read(p)
	w.skip -= int64(n)
	return n, err
}

// peek returns the next n bytes. At the end of the input (fewer than n
// left) it switches to xzRest and returns false with a nil error.
func (w *xzWatch) peek(n int) ([]byte, bool, error) {
	b, err := w.br.Peek(n)
	if len(b) == n {
		return b, true, nil
	}
	if err == io.EOF {
		w.state, w.skip = xzRest, 0
		return nil, false, nil
	}
	return nil, false, err
}

// advance reads the next structure and sets skip to its length.
func (w *xzWatch) advance() error {
	switch w.state {
	case xzStreamHeader:
		h, ok, err := w.peek(xzHeaderLen)
		if !ok {
			return err
		}
		if !bytes.HasPrefix(h, magicXZ) {
			return errors.New("trailing garbage (not an xz stream)")
		}
		// Check field sizes by check ID, in groups of three (section 3.4).
		w.check = [16]int64{0, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64}[h[7]&0x0f]
		w.blocks = 0
		w.skip, w.state = xzHeaderLen, xzBlockOrIndex
	case xzBlockOrIndex:
		b, ok, err := w.peek(1)
		if !ok {
			return err
		}
		if b[0] == 0 { // index indicator
			w.skip, w.index, w.state = 1, 1, xzIndexCount
			return nil
		}
		n := (int(b[0]) + 1) * 4
		h, ok, err := w.peek(n)
		if !ok {
			return err
		}
		if err := w.blockHeader(h); err != nil {
			return err
		}
		w.blocks++
		w.skip, w.block, w.state = int64(n), int64(n), xzChunk
	case xzChunk:
		b, ok, err := w.peek(1)
		if !ok {
			return err
		}
		// LZMA2 chunk headers: 0x00 ends the data; 0x01 and 0x02 start an
		// uncompressed chunk with its size-1 in two bytes; 0x80..0xFF an
		// LZMA chunk with unpacked size-1 (bits of the control byte and two
		// bytes), packed size-1 in two bytes, and from 0xC0 a properties byte.
		switch c := b[0]; {
		case c == 0:
			w.skip, w.state = 1, xzBlockEnd
		case c == 1 || c == 2:
			h, ok, err := w.peek(3)
			if !ok {
				return err
			}
			w.skip = 3 + (int64(h[1])<<8 | int64(h[2])) + 1
		case c >= 0x80:
			n := 5
			if c >= 0xc0 {
				n = 6
			}
			h, ok, err := w.peek(n)
			if !ok {
				return err
			}
			w.skip = int64(n) + (int64(h[3])<<8 | int64(h[4])) + 1
		default:
			return fmt.Errorf("corrupt LZMA2 data (chunk control byte %#02x)", c)
		}
		w.block += w.skip
	case xzBlockEnd:
		w.skip = (4-w.block%4)%4 + w.check // block padding and check
		w.state = xzBlockOrIndex
	case xzIndexCount, xzIndexRecords:
		if w.state == xzIndexRecords && w.left == 0 {
			w.state = xzIndexEnd
			return nil
		}
		v, n, ok, err := w.varint()
		if !ok {
			return err
		}
		w.skip, w.index = int64(n), w.index+int64(n)
		if w.state == xzIndexRecords {
			w.left--
			return nil
		}
		if v != w.blocks {
			return fmt.Errorf("index lists %d blocks, the stream holds %d", v, w.blocks)
		}
		w.left, w.state = 2*v, xzIndexRecords // unpadded and uncompressed size of each
	case xzIndexEnd:
		w.skip = (4-w.index%4)%4 + 4 + xzHeaderLen // index padding, its CRC32, stream footer
		w.state = xzStreamPadding
	case xzStreamPadding:
		b, err := w.br.Peek(4)
		switch {
		case len(b) < 4 && err == io.EOF:
			w.state = xzRest
		case len(b) < 4:
			return err
		case bytes.Equal(b, []byte{0, 0, 0, 0}):
			w.skip = 4
		default:
			w.state = xzStreamHeader
		}
	}
	return nil
}

// varint reads a multibyte integer (section 1.2) at the current position.
func (w *xzWatch) varint() (v uint64, n int, ok bool, err error) {
	b, err := w.br.Peek(xzMaxVarintLen)
	if err != nil && err != io.EOF {
		return 0, 0, false, err
	}
	v, n = uvarint(b)
	if n > 0 {
		return v, n, true, nil
	}
	if len(b) < xzMaxVarintLen {
		w.state, w.skip = xzRest, 0
		return 0, 0, false, nil
	}
	return 0, 0, false, errors.New("corrupt index (integer too long)")
}

// uvarint decodes a multibyte integer of at most xzMaxVarintLen bytes from
// the start of b; n is 0 when b holds none.
func uvarint(b []byte) (v uint64, n int) {
	for i := 0; i < len(b) && i < xzMaxVarintLen; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// blockHeader checks the dictionary size of a block header (section 3.1):
// size byte, flags, optional compressed and uncompressed sizes, the filter
// flags, padding, CRC32. github.com/ulikunitz/xz reads only blocks with a
// single filter, LZMA2, whose one property byte codes the dictionary size.
func (w *xzWatch) blockHeader(h []byte) error {
	bad := errors.New("unsupported or corrupt block header")
	flags := h[1]
	if flags&0x03 != 0 {
		return errors.New("unsupported block: more than one filter")
	}
	p := h[2 : len(h)-4]
	for _, present := range []bool{flags&0x40 != 0, flags&0x80 != 0} {
		if present {
			_, n := uvarint(p)
			if n == 0 {
				return bad
			}
			p = p[n:]
		}
	}
	id, n := uvarint(p)
	if n == 0 || id != lzma2FilterID {
		return fmt.Errorf("unsupported block: filter %#x, not LZMA2", id)
	}
	p = p[n:]
	if len(p) < 2 || p[0] != 1 {
		return bad
	}
	dict, err := lzma.DecodeDictCap(p[1])
	if err != nil {
		return bad
	}
	if dict > w.limit {
		return &WindowError{Format: XZ, Declared: dict, Limit: w.limit}
	}
	return nil
}
