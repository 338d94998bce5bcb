package mail

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
	"unsafe"
)

// An mbox split by MboxSplitter is read into large blocks, and a message
// that lies whole in one is given as a slice of it: no copy of each
// message into a buffer of its own. That copy (and the bufio.Reader's)
// was a sixth of the CPU of the corpus mbox of bench/, up to a third when
// the two buffers stood where memmove copies slowly (below); a block is
// read into by the kernel alone.

// mboxBlock is a block of input that messages may point into. It goes
// back to its pool once no message and not the reader hold it.
type mboxBlock struct {
	data []byte
	refs atomic.Int32
	pool *blockPool
}

func (b *mboxBlock) release() {
	if b.refs.Add(-1) == 0 {
		b.pool.put(b)
	}
}

// blockPool keeps the blocks given back, for the reader; it holds no more
// than were ever in use at once.
type blockPool struct {
	mu   sync.Mutex
	free []*mboxBlock
	size int
}

func (p *blockPool) get() *mboxBlock {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		return b
	}
	// pageSlack: next may start the data up to 63 bytes in.
	return &mboxBlock{data: make([]byte, p.size+pageSlack), pool: p}
}

func (p *blockPool) put(b *mboxBlock) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, b)
}

// blockReader is a bufio.Reader (its Peek, Discard and Buffered) over
// blocks: when the current block is full, what is still needed (the
// unread bytes, and the message begun at mark) moves to a new block,
// and the old one stays as long as messages point into it.
type blockReader struct {
	src   io.Reader
	pool  *blockPool
	blk   *mboxBlock
	r, w  int
	mark  int   // start of the message being held whole, -1 when none
	off   int64 // input offset of blk.data[0]
	err   error
	empty int // reads in a row that gave nothing
}

// minBlock is the least block size: a block holds many messages (80 of
// the corpus's), so that moving a message begun at a block's end to the
// next is rare.
const minBlock = 1 << 20

func newBlockReader(src io.Reader, maxHeld int) *blockReader {
	// Room for a held message and a Peek past it (quotedFrom looks up
	// to bufSize ahead).
	size := max(minBlock, maxHeld+2*bufSize)
	return &blockReader{src: src, pool: &blockPool{size: size}, mark: -1}
}

func (b *blockReader) Buffered() int { return b.w - b.r }

func (b *blockReader) Discard(n int) (int, error) {
	n = max(0, min(n, b.w-b.r))
	b.r += n
	return n, nil
}

// Peek returns the next n bytes without consuming them; fewer, with the
// read error (io.EOF at the end), when the input ends first.
func (b *blockReader) Peek(n int) ([]byte, error) {
	for b.w-b.r < n && b.err == nil {
		b.fill()
	}
	if b.w-b.r < n {
		return b.blk.data[b.r:b.w], b.err
	}
	return b.blk.data[b.r : b.r+n], nil
}

// fill reads more input, moving to a new block first when the current
// one has no room for n bytes from r.
func (b *blockReader) fill() {
	if b.blk == nil || b.w == len(b.blk.data) {
		b.next()
	}
	m, err := b.src.Read(b.blk.data[b.w:])
	if m < 0 || m > len(b.blk.data)-b.w {
		m, err = 0, io.ErrNoProgress
	}
	b.w += m
	if err != nil {
		b.err = err
	} else if m > 0 {
		b.empty = 0
	} else {
		b.empty++
		if b.empty >= 100 {
			b.err = io.ErrNoProgress
		}
	}
}

// pageSlack is the most next shifts a block's data.
const pageSlack = 64

// next moves what is still needed (the bytes from mark, or from r, to w)
// to a new block. It places them so that the kernel copies the reads
// into it fast: a read(2) of a cached file copies with "rep movsb",
// which on this project's AMD hosts runs at a third of its speed when
// the destination is 1 to 63 bytes past the source modulo 4 KiB (see
// scan.Scanner's keepForCopy). Within a block the distance stays what
// next makes it, the input being read in order.
func (b *blockReader) next() {
	nb := b.pool.get()
	nb.refs.Store(1) // the reader's
	from, start := 0, int64(0)
	var carry []byte
	if b.blk != nil {
		from = b.r
		if b.mark >= 0 {
			from = b.mark
		}
		carry, start = b.blk.data[from:b.w], b.off+int64(from)
	}
	pad := 0
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(nb.data)))
	if d := int((addr - uintptr(start)) % 4096); d >= 1 && d < pageSlack {
		pad = pageSlack - d
	}
	copy(nb.data[pad:], carry)
	shift := from - pad // an index i of the old block is i-shift in the new
	b.r -= shift
	b.w -= shift
	if b.mark >= 0 {
		b.mark -= shift
	}
	b.off += int64(shift)
	if b.blk != nil {
		b.blk.release()
	}
	b.blk = nb
}

// setMark starts a message to be held whole: the bytes from here on are
// kept in one block.
func (b *blockReader) setMark() { b.mark = b.r }

// clearMark ends it.
func (b *blockReader) clearMark() { b.mark = -1 }

// held returns the bytes from the mark to r, and the block they lie in,
// held for them until its release.
func (b *blockReader) held() ([]byte, *mboxBlock) {
	if b.blk == nil {
		return nil, nil
	}
	b.blk.refs.Add(1)
	return b.blk.data[b.mark:b.r:b.r], b.blk
}

// discardLine consumes the rest of the current line, its "\n" included.
func discardLine(br peeker) (int64, error) {
	var n int64
	for {
		b, err := br.Peek(max(1, br.Buffered()))
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			br.Discard(i + 1)
			return n + int64(i+1), nil
		}
		br.Discard(len(b))
		n += int64(len(b))
		if err != nil {
			return n, err
		}
	}
}

// peeker is what mbox reads through: a bufio.Reader (Walk) or a
// blockReader (MboxSplitter).
type peeker interface {
	Peek(n int) ([]byte, error)
	Discard(n int) (int, error)
	Buffered() int
}
