package document

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/urix-dev/urix/internal/freelist"
)

// Gzip members decoded ahead, on several goroutines.
//
// A gzip file may hold many members one after the other (RFC 1952 2.2),
// and crawlers write WARC files so, a member a record. Each member decodes
// on its own, so members further on can be decoded while the decoder is
// still on those before, if it is known where they start. That is the
// difficulty: a member's start is known for certain only once the member
// before it is decoded to its end. The gzip magic bytes may stand inside
// compressed data too, or in a stored block that holds a gzip file as it
// is (a WARC record of a gzipped HTTP body: deflate stores what it cannot
// compress).
//
// So the workers guess and the decoder checks. The input is cut into
// segments of aheadSegment compressed bytes; a worker takes one, finds the
// first place in it where a whole member decodes (header, deflate data,
// CRC-32 and size all good), and decodes members from there until one
// starts past the segment: a chain. The decoder decodes the start of the
// input itself and, at the end of each member (where the next one truly
// starts), looks at the segment that offset lies in. When that segment's
// chain begins exactly there, it is the chain the decoder would have
// decoded, member by member: it hands out the chain's output and goes on
// from where the chain ends, again a true start. Otherwise (a chain begun
// at a false start, a member that failed or was too large to hold) it
// decodes on by itself. So what the reader gets, bytes, errors and their
// offsets, is what one decoder alone gives: every byte handed out was
// decoded from a true start, and whatever goes wrong is met by the
// decoder itself, as without workers (behaviour §1.4).

// Variables, for the tests to make them small.
var (
	// aheadSegment is the compressed size of a segment; its chain's
	// output is held until the decoder reaches it (512 KiB of text
	// decode to 1.5-2 MiB). On bench's text.wet.gz, 1 MiB segments
	// took the same time and 7 MB more memory, 256 KiB ones 8 % more
	// CPU time (the chain handed over twice as often).
	aheadSegment int64 = 512 << 10
	// aheadHold is the decoded output a segment holds, at most, before
	// the decoder takes from it; a worker waits there (or gives the
	// chain up, when one member alone is larger).
	aheadHold int64 = 2 << 20
	// aheadBlock is the size of the blocks that output is held in.
	aheadBlock = 256 << 10
	// aheadRead is the size of a worker's reads: its buffer's, and the
	// window it looks for magic bytes in.
	aheadRead = 64 << 10
	// aheadFirstMember: the workers start when the first member end
	// the decoder meets past its first output is within this many bytes
	// of the input's start (a file of many small members, not one large
	// member whose candidate starts would all be false), and at least
	// two segments follow.
	aheadFirstMember int64 = 128 << 10
)

// sizedSource is an input that may also be read at any offset: an
// *io.SectionReader of a regular file, a *bytes.Reader.
type sizedSource interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	Size() int64
}

// gzipAhead is the workers' side: the segments in flight, in order.
type gzipAhead struct {
	in   *io.SectionReader // the input from where the decoder began
	size int64

	queue   chan *aheadSeg // the segments, in order, for the decoder
	slots   chan struct{}  // one for each segment in flight
	stop    chan struct{}  // closed by close
	wg      sync.WaitGroup
	next    int64 // the start of the next segment to come out of queue
	blocks  freelist.List[[]byte]
	stopped bool
	// failed is the error of a panic of the segment maker, set before
	// it closes queue.
	failed error
}

// aheadSeg is a segment and its worker's chain.
type aheadSeg struct {
	start int64

	mu   sync.Mutex
	cond sync.Cond
	// known: first is set, the start of the chain, -1 for none.
	known bool
	first int64
	// done: end is set, where the chain ends (the start of the first
	// member past the segment, or of the one that failed, or where the
	// members stop), and produced == committed.
	done bool
	end  int64
	// blocks hold the output from consumed on; at is the offset of
	// consumed in blocks[0]. committed counts the output of the members
	// decoded whole; the decoder takes no more.
	blocks                        [][]byte
	at                            int
	produced, committed, consumed int64
	cancelled                     bool
	// failed: the worker panicked (a bug that some member meets), and
	// the decoder ends with this error where it comes to the segment.
	failed error
}

// aheadMaxWorkers bounds the workers, and with them the memory (2 MiB of
// output held for each, plus two): eight inflate ~1.7 GB/s of text at the
// ~220 MB/s of one here (bench/README.md, session 13), holding 20 MiB; a
// machine of 64 cores would otherwise hold 132 MiB for one file.
const aheadMaxWorkers = 8

// newGzipAhead starts workers on the segments from start on, of in's
// size bytes.
func newGzipAhead(in *io.SectionReader, start int64, workers int) *gzipAhead {
	workers = min(workers, aheadMaxWorkers)
	inFlight := workers + 2
	g := &gzipAhead{
		in: in, size: in.Size(), next: start,
		queue: make(chan *aheadSeg, inFlight),
		slots: make(chan struct{}, inFlight),
		stop:  make(chan struct{}),
	}
	todo := make(chan *aheadSeg, inFlight)
	g.wg.Add(1 + workers)
	go func() {
		defer g.wg.Done()
		defer close(g.queue)
		defer close(todo)
		defer func() {
			if p := recover(); p != nil {
				g.failed = internalError(p)
			}
		}()
		for s := start; s < g.size; s += aheadSegment {
			select {
			case <-g.stop:
				return
			default:
			}
			select {
			case g.slots <- struct{}{}:
			case <-g.stop:
				return
			}
			seg := &aheadSeg{start: s}
			seg.cond.L = &seg.mu
			todo <- seg
			g.queue <- seg
		}
	}()
	for range workers {
		go func() {
			defer g.wg.Done()
			w := &aheadWorker{g: g}
			for seg := range todo {
				if w.run(seg) {
					// Its decoder and buffers, in a state unknown, are
					// dropped.
					w = &aheadWorker{g: g}
				}
			}
		}()
	}
	return g
}

// from returns the segment whose chain starts at m, a member's start the
// decoder has reached, or nil when there is none: m lies before the next
// segment, or that segment's chain begins elsewhere. The decoder serves a
// segment returned and then gives it back with done. The error is that
// of a worker that panicked in the segment m lies in (or of the segment
// maker): the input ends there, as the engine ends an input whose reader
// panics (behaviour §7.7), where it would be whatever the workers'
// timing, since the decoder comes to the same segments on every run.
func (g *gzipAhead) from(m int64) (*aheadSeg, error) {
	for !g.stopped && m >= g.next {
		seg, ok := <-g.queue
		if !ok {
			g.next = g.size
			return nil, g.failed
		}
		g.next = seg.start + aheadSegment
		if m >= g.next {
			g.done(seg) // passed: a member from before spans it
			continue
		}
		first, err := seg.chainStart()
		if err != nil {
			g.done(seg)
			return nil, err
		}
		if first == m {
			return seg, nil
		}
		g.done(seg)
	}
	return nil, nil
}

// done gives a segment back: its worker stops and its slot is free. The
// blocks go back to the list once the worker is through (it may be
// writing into the last one).
func (g *gzipAhead) done(seg *aheadSeg) {
	seg.mu.Lock()
	seg.cancelled = true
	if seg.done {
		g.free(seg)
	}
	seg.cond.Broadcast()
	seg.mu.Unlock()
	<-g.slots
}

// free gives seg's blocks back; seg.mu is held.
func (g *gzipAhead) free(seg *aheadSeg) {
	for _, b := range seg.blocks {
		g.blocks.Put(b[:0])
	}
	seg.blocks, seg.at = nil, 0
}

// close stops the workers and waits for them.
func (g *gzipAhead) close() {
	if g.stopped {
		return
	}
	g.stopped = true
	close(g.stop)
	for seg := range g.queue {
		g.done(seg)
	}
	g.wg.Wait()
}

func (g *gzipAhead) newBlock() []byte {
	if b, ok := g.blocks.Get(); ok {
		return b
	}
	return make([]byte, 0, aheadBlock)
}

// chainStart waits until the worker knows where its chain begins, or
// has panicked before.
func (s *aheadSeg) chainStart() (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.known {
		s.cond.Wait()
	}
	return s.first, s.failed
}

// failure is the error of the segment's worker, once the decoder has
// taken the chain's output: what it decoded before it panicked is handed
// out, then the input ends.
func (s *aheadSeg) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

// read copies the segment's output to p, waiting for it; 0 once the
// chain's output is all taken.
func (s *aheadSeg) read(g *gzipAhead, p []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.consumed == s.committed && !s.done {
		s.cond.Wait()
	}
	n := 0
	for n < len(p) && s.consumed < s.committed {
		b := s.blocks[0]
		k := copy(p[n:], b[s.at:min(len(b), s.at+int(s.committed-s.consumed))])
		n += k
		s.at += k
		s.consumed += int64(k)
		if s.at == len(b) && len(b) == cap(b) {
			g.blocks.Put(b[:0])
			s.blocks = s.blocks[1:]
			s.at = 0
		}
	}
	s.cond.Broadcast() // room for the worker
	return n
}

// aheadWorker decodes chains, keeping its decoder and buffers.
type aheadWorker struct {
	g    *gzipAhead
	src  countingReader
	br   *bufio.Reader
	gz   memberReader
	look []byte
}

// errGiveUp: a member's output does not fit in what a segment may hold.
var errGiveUp = errors.New("member too large to decode ahead")

// panicAhead, set by the tests alone, is called by a worker as it starts
// to decode a member of the segment that starts at segStart, to make it
// panic there.
var panicAhead func(segStart int64)

// run finds the chain of seg and decodes it. A panic of the decoding is
// seg's failure, for the decoder to report (from): it reports whether
// there was one. Without this, the panic of one worker ended the process
// (the CLI's run, a Beam worker with every file of its bundle).
func (w *aheadWorker) run(seg *aheadSeg) (panicked bool) {
	defer func() {
		p := recover()
		seg.mu.Lock()
		if p != nil {
			panicked, seg.failed = true, internalError(p)
		}
		if !seg.known {
			seg.known, seg.first = true, -1
		}
		if !seg.done {
			seg.done, seg.end = true, -1
			seg.produced = seg.committed
		}
		if seg.cancelled {
			w.g.free(seg)
		}
		seg.cond.Broadcast()
		seg.mu.Unlock()
	}()
	end := min(w.g.size, seg.start+aheadSegment)
	for c, tries := seg.start, 0; c < end && tries < aheadTries; c, tries = c+1, tries+1 {
		c = w.candidate(c, end)
		if c < 0 || seg.isCancelled() {
			return
		}
		if w.chain(seg, c) {
			return
		}
	}
	return
}

// aheadTries bounds the candidate starts a worker tries in a segment. In a
// WARC file the first is the member's start all but always; a segment
// full of magic bytes that start nothing (a binary stored in a record)
// would otherwise cost a read and a failed header for each, while the
// decoder waits for the segment.
const aheadTries = 8

// candidate returns the first offset from c on, before end, where the
// gzip magic bytes stand, or -1.
func (w *aheadWorker) candidate(c, end int64) int64 {
	if w.look == nil {
		w.look = make([]byte, aheadRead+len(magicGzip)-1)
	}
	for c < end {
		n, _ := w.g.in.ReadAt(w.look[:min(int64(len(w.look)), w.g.size-c)], c)
		if n < len(magicGzip) {
			return -1
		}
		if i := bytes.Index(w.look[:n], magicGzip); i >= 0 {
			if c+int64(i) < end {
				return c + int64(i)
			}
			return -1
		}
		c += int64(n - len(magicGzip) + 1)
	}
	return -1
}

// chain decodes members from c on into seg, and reports whether the first
// one decoded: whether seg's chain is found (true) or the next candidate
// is to be tried.
func (w *aheadWorker) chain(seg *aheadSeg, c int64) bool {
	w.src = countingReader{r: io.NewSectionReader(w.g.in, c, w.g.size-c), n: c}
	if w.br == nil {
		w.br = bufio.NewReaderSize(&w.src, aheadRead)
	} else {
		w.br.Reset(&w.src)
	}
	at := c // the start of the member being decoded
	for {
		err := w.member()
		if panicAhead != nil {
			panicAhead(seg.start)
		}
		if err == nil {
			err = w.decode(seg)
		}
		if at == c {
			if err != nil {
				// A false start, most likely; a member too large gives
				// up the segment (the candidates inside it are false).
				seg.mu.Lock()
				w.g.free(seg)
				seg.produced = 0
				seg.mu.Unlock()
				return errors.Is(err, errGiveUp)
			}
			seg.mu.Lock()
			seg.known, seg.first = true, c
			seg.cond.Broadcast()
			seg.mu.Unlock()
		}
		next := w.src.n - int64(w.br.Buffered())
		if err != nil {
			next = at // the decoder decodes this one itself
		}
		seg.mu.Lock()
		if err == nil {
			seg.committed = seg.produced
			seg.cond.Broadcast() // the decoder may wait for it
		}
		stop := err != nil || next >= seg.start+aheadSegment || seg.cancelled
		if !stop {
			prefix, _ := w.br.Peek(len(magicGzip))
			// Zero padding, other trailing data, the input's end: the
			// decoder's to see.
			stop = !bytes.Equal(prefix, magicGzip)
		}
		if stop {
			seg.done, seg.end = true, next
			seg.produced = seg.committed // the rest is not handed out
			seg.cond.Broadcast()
			seg.mu.Unlock()
			return true
		}
		seg.mu.Unlock()
		at = next
	}
}

// member reads the header of the member at the reader's position.
func (w *aheadWorker) member() error {
	return w.gz.reset(w.br, w.src.n-int64(w.br.Buffered()))
}

// decode decodes the member's data into seg's blocks, to its end (nil:
// the member is whole, its CRC-32 and size checked).
func (w *aheadWorker) decode(seg *aheadSeg) error {
	for {
		dst, err := w.room(seg)
		if err != nil {
			return err
		}
		n, err := w.gz.Read(dst)
		seg.grow(n)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// room returns where the next output goes: the free end of seg's last
// block or a new block. It waits while seg holds aheadHold bytes the
// decoder has not taken, and fails when the decoder cannot take them (the
// member being decoded holds them) or seg is given up.
func (w *aheadWorker) room(seg *aheadSeg) ([]byte, error) {
	seg.mu.Lock()
	defer seg.mu.Unlock()
	for !seg.cancelled && seg.produced-seg.consumed >= aheadHold {
		if seg.committed == seg.consumed {
			return nil, errGiveUp
		}
		seg.cond.Wait()
	}
	if seg.cancelled {
		return nil, errGiveUp
	}
	if n := len(seg.blocks); n == 0 || len(seg.blocks[n-1]) == cap(seg.blocks[n-1]) {
		seg.blocks = append(seg.blocks, w.g.newBlock())
	}
	last := seg.blocks[len(seg.blocks)-1]
	return last[len(last):cap(last)], nil
}

// grow adds the n bytes just decoded to the end of the last block. (The
// lock is let go by defer: were a bug to panic here, it would not be
// held on, and run's recovery take it again forever.)
func (s *aheadSeg) grow(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	last := len(s.blocks) - 1
	s.blocks[last] = s.blocks[last][:len(s.blocks[last])+n]
	s.produced += int64(n)
}

// internalError is the error of a reading that panicked, worded as the
// engine words the panics it contains (behaviour §7.7).
func internalError(p any) error {
	return fmt.Errorf("internal error reading the input: %v (the rest of it was not read; please report this)", p)
}

func (s *aheadSeg) isCancelled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancelled
}
