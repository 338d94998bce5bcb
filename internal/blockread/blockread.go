// Package blockread reads a stream into large blocks that pieces of it
// (the messages of an mbox, the records of a WARC file) can be handed out
// from as slices, without a copy each: a Reader is a bufio.Reader (Peek,
// Discard, Buffered, ReadSlice, ReadByte, Read) whose buffer, when full,
// moves on to a new block instead of sliding, and a piece held from its
// Mark keeps its block until Release.
//
// The copy of each message into a buffer of its own (after the
// bufio.Reader's copy) was a sixth of the CPU of the corpus mbox of
// bench/, up to a third when the two buffers stood where memmove copies
// slowly, and the copy of each record of a WET file into its own buffer
// was half the time of the goroutine that reads the file: reading into
// blocks leaves the kernel's copy alone.
//
// A Reader is used on one goroutine; the Blocks of held pieces may be
// read and Released on any.
//
// A Reader of an input already in memory (NewMappedReader: a file mapped
// into memory) gives its pieces as slices of the input itself, and its
// Blocks are windows of it rather than buffers.
package blockread

import (
	"bufio"
	"bytes"
	"io"
	"sync/atomic"
	"unsafe"

	"github.com/urix-dev/urix/internal/freelist"
	"github.com/urix-dev/urix/internal/pagecopy"
)

// A Block is a block of input that held pieces lie in. It goes back to its
// Reader's pool once every piece and the Reader have released it.
type Block struct {
	data []byte
	refs atomic.Int32
	pool *pool
	// Of a window of a mapped input: its input and where it lies in it
	// (end set when the Reader moves on to the next window).
	in         *mapped
	start, end int
}

// Release gives back a piece's hold on the block.
func (b *Block) Release() {
	if b.refs.Add(-1) == 0 {
		if b.in != nil {
			b.in.free(b)
			return
		}
		b.pool.put(b)
	}
}

// pool keeps the blocks given back, for the Reader; it holds no more than
// were ever in use at once.
type pool struct {
	free freelist.List[*Block]
	size int
}

func (p *pool) get() *Block {
	if b, ok := p.free.Get(); ok {
		return b
	}
	return &Block{data: make([]byte, p.size+pageSlack), pool: p}
}

func (p *pool) put(b *Block) { p.free.Put(b) }

// Reader reads a stream into blocks.
type Reader struct {
	src   io.Reader
	pool  *pool
	blk   *Block
	r, w  int
	mark  int   // start of the piece being held, -1 when none
	off   int64 // input offset of blk.data[0]
	err   error
	empty int     // reads in a row that gave nothing
	in    *mapped // the input, of a mapped Reader
}

// MinBlock is the least block size: a block holds many pieces (80
// messages of the corpus's mbox), so that moving a piece begun at a
// block's end to the next is rare.
const MinBlock = 1 << 20

// SliceMax is the most ReadSlice gives at once, as a bufio.Reader of
// that size: the longest Peek a caller may count on is blockSize minus
// the piece held.
const SliceMax = 64 << 10

// NewReader returns a Reader of src with blocks of room for a held piece
// of maxHeld bytes and a Peek of SliceMax past it.
func NewReader(src io.Reader, maxHeld int) *Reader {
	size := max(MinBlock, maxHeld+2*SliceMax)
	return &Reader{src: src, pool: &pool{size: size}, mark: -1}
}

// Mapped is the input of a mapped Reader, and what it tells of it.
type Mapped struct {
	Data []byte // the input, in memory
	// Free, when not nil, is given each window of Data once the Reader
	// is past it and no piece holds it: the pages of a mapping may go.
	// (A piece held from a window may reach into the next ones.)
	Free func(window []byte)
	// Done, when not nil, is called once Close was called and every
	// window is free: nothing reads Data any more.
	Done func()
}

// mapped is a mapped Reader's input and the windows not yet free (one
// more until Close).
type mapped struct {
	Mapped
	live atomic.Int32
}

// mapWindow is the size of a mapped Reader's windows: what a held piece
// keeps from Free with it is the window it starts in. Freeing windows of
// 2 MiB (each a madvise, and the other CPUs' TLBs flushed) took half of
// what the mapping saved of the corpus's mbox; 8 MiB, a tenth (peak RSS
// 30 MB against 27, and 22 read with Read).
const mapWindow = 8 << 20

// NewMappedReader returns a Reader of m.Data, which gives its pieces as
// slices of m.Data, never copied; Close ends it.
func NewMappedReader(m Mapped) *Reader {
	in := &mapped{Mapped: m}
	in.live.Store(1)
	b := &Reader{in: in, mark: -1}
	b.window(0)
	return b
}

// Close ends a mapped Reader: its hold on the window it reads goes. It
// does nothing for others.
func (b *Reader) Close() {
	if b.in == nil || b.blk == nil {
		return
	}
	b.blk.end = len(b.in.Data)
	b.blk.Release()
	b.blk, b.r, b.w, b.err = nil, 0, 0, io.EOF
	b.in.done()
}

// window moves a mapped Reader to a window of the input from start on
// (nothing from before start held, or read from here on).
func (b *Reader) window(start int) {
	nb := &Block{in: b.in, start: start, data: b.in.Data[start:]}
	nb.refs.Store(1) // the Reader's
	b.in.live.Add(1)
	if old := b.blk; old != nil {
		shift := start - int(b.off)
		b.r -= shift
		b.w -= shift
		if b.mark >= 0 {
			b.mark -= shift
		}
		old.end = start
		old.Release()
	}
	b.blk, b.off = nb, int64(start)
}

// free frees the window w.
func (in *mapped) free(w *Block) {
	if in.Free != nil && w.start < w.end {
		in.Free(in.Data[w.start:w.end])
	}
	in.done()
}

// done counts one window, or the Reader, off.
func (in *mapped) done() {
	if in.live.Add(-1) == 0 && in.Done != nil {
		in.Done()
	}
}

// mapFill is fill for a mapped Reader: up to readMax bytes more of the
// input become read, as a read would bring them in; a new window starts
// at the piece being marked, or at r, once mapWindow bytes before them
// are read.
func (b *Reader) mapFill() {
	if b.blk == nil {
		return // closed
	}
	from := b.r
	if b.mark >= 0 {
		from = b.mark
	}
	if from > mapWindow {
		b.window(int(b.off) + from - 1) // one byte before, for UnreadByte
	}
	if b.w == len(b.blk.data) {
		b.err = io.EOF
		return
	}
	b.w = min(len(b.blk.data), b.w+readMax)
}

// Buffered returns the number of bytes that can be read without reading
// from the input.
func (b *Reader) Buffered() int { return b.w - b.r }

// Discard skips the next n bytes, reading as needed; fewer, with the
// read error, when the input ends first.
func (b *Reader) Discard(n int) (int, error) {
	done := 0
	for {
		k := max(0, min(n-done, b.w-b.r))
		b.r += k
		done += k
		if done == n || b.err != nil && b.w == b.r {
			if done < n {
				return done, b.err
			}
			return done, nil
		}
		b.fill()
	}
}

// Peek returns the next n bytes without consuming them; fewer, with the
// read error (io.EOF at the end), when the input ends first. The slice is
// valid until the next read.
func (b *Reader) Peek(n int) ([]byte, error) {
	for b.w-b.r < n && b.err == nil {
		b.fill()
	}
	if b.w-b.r < n {
		return b.blk.data[b.r:b.w], b.err
	}
	return b.blk.data[b.r : b.r+n], nil
}

// ReadSlice reads up to and including delim, as bufio.Reader's does with
// a buffer of SliceMax bytes: bufio.ErrBufferFull after SliceMax bytes
// without it, the error at the end of the input.
func (b *Reader) ReadSlice(delim byte) ([]byte, error) {
	seen := 0
	for {
		data := b.blk0()[b.r:b.w]
		if i := bytes.IndexByte(data[seen:min(len(data), SliceMax)], delim); i >= 0 {
			line := data[:seen+i+1]
			b.r += len(line)
			return line, nil
		}
		seen = min(len(data), SliceMax)
		if seen == SliceMax {
			b.r += seen
			return data[:seen], bufio.ErrBufferFull
		}
		if b.err != nil {
			b.r = b.w
			return data, b.err
		}
		b.fill()
	}
}

// blk0 is the current block's data, none before the first read.
func (b *Reader) blk0() []byte {
	if b.blk == nil {
		return nil
	}
	return b.blk.data
}

// ReadByte reads one byte.
func (b *Reader) ReadByte() (byte, error) {
	if _, err := b.Peek(1); b.w == b.r {
		return 0, err
	}
	c := b.blk.data[b.r]
	b.r++
	return c, nil
}

// UnreadByte unreads the byte that the last ReadByte read.
func (b *Reader) UnreadByte() error {
	if b.r == 0 {
		return bufio.ErrInvalidUnreadByte
	}
	b.r--
	return nil
}

// Read reads into p what is buffered, or reads first when nothing is.
// As bufio's, it reads a large p straight from the input when nothing is
// buffered (and no piece is held): a WARC record's body read by a scanner
// was otherwise copied twice, 10 % of the time of a WET file on one
// goroutine.
func (b *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.w == b.r && b.mark < 0 && len(p) >= SliceMax && b.err == nil && b.in == nil {
		n, err := b.src.Read(p)
		if n < 0 || n > len(p) {
			n, err = 0, io.ErrNoProgress
		}
		b.off += int64(n) // the bytes of the block come after these
		if err != nil {
			b.err = err
		}
		if n == 0 && err != nil {
			return 0, err
		}
		return n, nil
	}
	if b.w == b.r {
		if _, err := b.Peek(1); b.w == b.r {
			return 0, err
		}
	}
	n := copy(p, b.blk.data[b.r:b.w])
	b.r += n
	return n, nil
}

// readMax is the most a fill reads: while no piece holds the block, the
// Reader slides back to its start as a bufio.Reader does, and its reads
// stay within the core's cache (reading a WET file a record at a time
// through a block of 1 MiB was 9 % slower than through a 64 KiB buffer).
const readMax = 128 << 10

// fill reads more input, moving to a new block first when the current one
// is full, or back to the start of this one when nothing in it is held
// and all of it is read.
func (b *Reader) fill() {
	if b.in != nil {
		b.mapFill()
		return
	}
	if b.blk == nil || b.w == len(b.blk.data) || b.r == b.w && b.w > readMax && b.alone() {
		b.next()
	}
	m, err := b.src.Read(b.blk.data[b.w:min(len(b.blk.data), b.w+readMax)])
	if m < 0 || m > len(b.blk.data)-b.w {
		m, err = 0, io.ErrNoProgress
	}
	b.w += m
	switch {
	case err != nil:
		b.err = err
	case m > 0:
		b.empty = 0
	default:
		b.empty++
		if b.empty >= 100 {
			b.err = io.ErrNoProgress
		}
	}
}

// pageSlack is the most next shifts a block's data.
const pageSlack = pagecopy.Slack

// next moves what is still needed (the bytes from the mark, or from r,
// to w) to a new block. It places them so that the kernel copies the
// reads into it fast (package pagecopy). Within a block the distance
// stays what next makes it, the input being read in order.
func (b *Reader) next() {
	nb := b.blk
	if !b.alone() {
		nb = b.pool.get()
		nb.refs.Store(1) // the Reader's
	}
	from, start := 0, int64(0)
	var carry []byte
	if b.blk != nil {
		from = b.r
		if b.mark >= 0 {
			from = b.mark
		}
		if from > 0 {
			from-- // one byte before r, for UnreadByte
		}
		carry, start = b.blk.data[from:b.w], b.off+int64(from)
	}
	pad := pagecopy.Shift(uintptr(unsafe.Pointer(unsafe.SliceData(nb.data))), start)
	copy(nb.data[pad:], carry)
	shift := from - pad // an index i of the old block is i-shift in the new
	b.r -= shift
	b.w -= shift
	if b.mark >= 0 {
		b.mark -= shift
	}
	b.off += int64(shift)
	if b.blk != nil && b.blk != nb {
		b.blk.Release()
	}
	b.blk = nb
}

// alone reports whether the current block may be written over from its
// start: no piece holds it (only the Reader makes holds, so none comes
// while it looks) and none is being marked.
func (b *Reader) alone() bool {
	return b.blk != nil && b.mark < 0 && b.blk.refs.Load() == 1
}

// Mark starts a piece to be held: the bytes from here on are kept in one
// block, until ClearMark.
func (b *Reader) Mark() { b.mark = b.r }

// ClearMark ends the piece.
func (b *Reader) ClearMark() { b.mark = -1 }

// Marked returns the bytes from the mark to the read position; valid
// until the next read.
func (b *Reader) Marked() []byte { return b.blk0()[b.mark:b.r] }

// Held returns the bytes from the mark to the read position, and the
// block they lie in, held for them until its Release.
func (b *Reader) Held() ([]byte, *Block) {
	if b.blk == nil {
		return nil, nil
	}
	b.blk.refs.Add(1)
	return b.blk.data[b.mark:b.r:b.r], b.blk
}
