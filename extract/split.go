package extract

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/urix-dev/urix/internal/freelist"
	"github.com/urix-dev/urix/internal/inplace"
	"github.com/urix-dev/urix/internal/mapfile"
	"github.com/urix-dev/urix/internal/scan"
)

// Split reads one large plain-text file on several workers at once, a
// chunk each, and writes the output that one worker reading the whole file
// would write, byte for byte, in bounded memory.
//
// A worker starts reading a little before its chunk (so that what stands
// before a URI, its scheme and delimiter, is there) and keeps the URIs
// that start inside the chunk. Where a URI runs across a chunk boundary,
// or the text before the boundary changes how the text after it reads (an
// unclosed '<'), the worker of the next chunk may see things otherwise.
// So the results are joined in order, and at each boundary the scanner
// that has read everything before it, as one worker would, goes on past it
// until it reports a candidate that the next chunk's worker reported too.
// From that candidate on both scanners are in the same state, so the next
// chunk's results are taken from there. Where both are quiet past the
// boundary (no candidate of either reaches back over it), they are joined
// there without a candidate in common. If neither comes, the exact scanner
// reads the next chunk itself: slower, never wrong.
//
// Line numbers and columns need the line breaks before each chunk, which
// no worker knows when it formats its URIs. So the Formatter leaves them
// out, each chunk's scanner counts lines from where it started and notes
// the line and column where the next chunk's scanner starts, and the join,
// which goes in order, sums these and puts each URI's in as it writes it.
//
// A file given as an *os.File is mapped into memory, where the system
// allows it (Linux), and its chunks scanned where they lie: the kernel's
// copy of every read was a fifth of the CPU time of a split read. Its
// chunks are then at most 2 MiB, and the pages of each are dropped from
// the process once the join is past it, so that the pages mapped stay
// few (they are the page cache's, shared and clean; the process's
// resident size counts them). A file that shrinks while it is read, or
// whose storage fails, then ends where its pages end, with an error
// (document.MapFaultError), as a read error would end it (behaviour §1.5); the
// candidates a scanner had found in the window it was searching then
// (its largest buffer's size) and not yet given are lost with it.
//
// Memory (behaviour §1): a chunk's results flow to the writer in blocks
// as they are made; a chunk that is not yet the one being written holds
// at most QueueBytes/(2*Workers) of them, then its worker waits. At most
// Workers chunks are read at once and twice as many are read or waiting,
// each with its scanner and its share of QueueBytes, whatever the file
// holds: about QueueBytes + 2*Workers scanners' buffers in all.
type Split struct {
	// Workers is the number of chunks read at once (at least 1).
	Workers int
	// ChunkSize is the size of a chunk. 0 chooses it chunk by chunk, from
	// 256 KiB to 64 MiB, so that the output of a chunk is expected to
	// fill half its share of QueueBytes, by the output of the chunks read
	// so far: a text dense with URIs is read in small chunks, whose output
	// flows without waits, and a sparse one in large chunks, with fewer
	// joins and hand-offs.
	ChunkSize int64
	// QueueBytes bounds the output held for the chunks that wait for
	// their turn, all together (0: DefaultQueueBytes).
	QueueBytes int
	// Options are those of the scanners. Their OnSkip is not called:
	// Split's own is, in order. NoLines must be false when Format shows
	// line numbers or columns. Unique and FoldWidth need the whole text
	// before a chunk, and must not be set.
	Options Options
	// Format makes the output of each URI.
	Format Formatter
	// OnSkip, when set, is called for each candidate longer than
	// Options.MaxLength, in file order, on the goroutine of Read, with
	// its offsets (and line and column, when counted) in the file.
	OnSkip func(Skip)
	// Progress, when set, is called on the goroutine of Read with the
	// size of each chunk as the output reaches it.
	Progress func(n int64)
	// NoMap reads an *os.File with ReadAt, as any other file, instead of
	// mapping it into memory.
	NoMap bool
}

// Formatter makes the output of each URI that Split finds, on its workers,
// before the number of lines above it is known. It must be safe for
// concurrent use.
type Formatter interface {
	// Selects reports whether m is printed (or counted).
	Selects(m *Match) bool
	// AppendMatch appends the output of a selected m to b, leaving out
	// its line and column; it returns where in the returned slice they
	// go, -1 when the output shows neither. m's strings may be views on
	// the scanner's buffer or on the mapped file: they are not to be kept
	// past the call.
	AppendMatch(b []byte, m *Match) (out []byte, posAt int)
	// AppendPosition appends a URI's line and column, as AppendMatch
	// left them out.
	AppendPosition(b []byte, line, column int64) []byte
}

// Counts are the numbers of URIs Split.Read found.
type Counts struct {
	Found    int64 // valid or not
	Invalid  int64
	Selected int64 // those the Formatter selected
}

// DefaultQueueBytes is the default of Split.QueueBytes.
const DefaultQueueBytes = 16 << 20

const (
	// lead is how far before its chunk a worker starts reading: more
	// than a scanner ever looks back from a URI.
	lead = 4 << 10
	// blockBytes and blockItems bound a block of results; a block holds
	// more bytes only for one URI whose output is longer.
	blockBytes = 64 << 10
	blockItems = 512
	// itemBytes is about what an item costs in a block besides its output.
	itemBytes = 96
)

// Read reads file, of size bytes, and writes the output of its URIs to w.
// It returns the first read error after writing what came before it. At
// the first error of w it stops: its workers leave their chunks, no more
// are read, and it returns that error (a pipe whose reader is gone, as in
// urix FILE | head, ends the run at once, not after the whole file).
func (s *Split) Read(w io.Writer, file io.ReaderAt, size int64) (Counts, error) {
	r := newSplitRun(s, w, file, size)
	if f, ok := file.(*os.File); ok && !s.NoMap {
		if r.mapped = mapfile.Map(f, size); r.mapped != nil {
			// After run, whose joins have waited for every worker: no
			// one reads the mapping any more.
			defer mapfile.Unmap(r.mapped)
		}
	}
	return r.run()
}

// Chunk sizes. Chunks of 1 MiB once cost half again the CPU of 64 MiB
// ones (-j 2, text.txt of bench/: 145 against 91 ms): not the chunks
// themselves but the kernel's copy of their reads, which started at
// multiples of 1 MiB and so landed where it copies at a third of its
// speed (scan.Scanner's keepForCopy; now 95 against 91 ms). A chunk is
// never held in memory, only its results, so its size costs nothing
// there; the last ones are smaller (chunkSize).
const (
	minChunk   = 256 << 10
	firstChunk = 1 << 20 // before any chunk is read
	maxChunk   = 64 << 20
)

// chunkSize returns the size of the next chunk, which starts at start.
func (r *splitRun) chunkSize(start int64) int64 {
	if r.ChunkSize > 0 {
		return r.ChunkSize
	}
	in, out := r.readIn.Load(), r.made.Load()
	if in == 0 {
		return firstChunk
	}
	target := int64(r.queueBytes() / r.inFlight() / 2)
	size := min(maxChunk, max(minChunk, target*in/max(1, out)))
	if r.mapped != nil {
		size = min(size, mapChunk)
	}
	// Towards the end, smaller chunks: the last ones end together on
	// every worker, instead of one worker reading a 64 MiB chunk alone
	// while the others wait (the tail of a 200 MB file read on two
	// workers was up to a seventh of the time).
	return min(size, max(minChunk, (r.size-start)/int64(2*r.workers())))
}

// mapChunk is the largest chunk of a file mapped into memory: the pages
// mapped at once are those of the chunks in flight, each at most this.
// (text.txt of bench/, -j 2: chunks of 2 MiB take the time of 4, 8 and
// 16 MiB ones, 1 MiB ones 5 % more; peak resident size 20, 30, 51 and 90
// MB, 17 MB with 1 MiB, and 216 MB with every page kept.)
const mapChunk = 2 << 20

func (s *Split) workers() int { return max(1, s.Workers) }

// inFlight is the number of chunks read or waiting for their turn: twice
// the workers, so that a worker done with its chunk goes on to another
// one at once, without waiting for the join to reach the chunk before
// (on a busy machine each of those waits cost a wait for a CPU too).
func (s *Split) inFlight() int { return 2 * s.workers() }

func (s *Split) queueBytes() int {
	if s.QueueBytes > 0 {
		return s.QueueBytes
	}
	return DefaultQueueBytes
}

// splitRun is one Read.
type splitRun struct {
	*Split
	w     io.Writer
	file  io.ReaderAt
	size  int64
	queue int // blocks a chunk may hold, waiting for its turn
	// readIn and made are the bytes of the chunks read so far, and of
	// their results (output and items).
	readIn, made atomic.Int64
	lines        bool
	// scanners: those of the chunks done, for the chunks to come. One
	// list serves chunks that start at a line's start and inside one
	// alike (ResetFrom): with one for each kind, the first chunk's
	// scanner, the only one that starts at a line's start in most files,
	// was never used again, and another scanner's buffers were paid for
	// in page faults. blocks: those the join is done with, for the
	// workers. Both bounded by the chunks in flight (Split's doc).
	scanners freelist.List[*chunkScanner]
	blocks   freelist.List[*block]
	counts   Counts
	err      error
	pos      []byte // the join's buffer
	// writeErr is w's first error, set by the join; stopped tells the
	// workers and the chunk maker.
	writeErr error
	stopped  atomic.Bool
	// producerErr is the error of a panic of the chunk maker, set
	// before it closes the chunks.
	producerErr error
	// mapped is the file mapped into memory, nil when it is read.
	mapped []byte
}

func newSplitRun(s *Split, w io.Writer, file io.ReaderAt, size int64) *splitRun {
	r := &splitRun{Split: s, w: w, file: file, size: size, lines: !s.Options.NoLines}
	perChunk := s.queueBytes() / s.inFlight()
	r.queue = max(2, perChunk/(blockBytes+blockItems*itemBytes))
	return r
}

// item is one candidate: a URI, or one skipped for its length. Its
// fields are packed (72 bytes, not 96): the items of the chunks waiting
// for their turn are most of the memory a split read allocates.
type item struct {
	offset, end int64
	// line and column are those its scanner counted from where it
	// started reading.
	line, column int64
	// selected: the Formatter selected it; out is then its output, and
	// posAt where its line and column go in out (-1: nowhere; out is
	// one URI's output, far shorter than 2 GiB).
	out   []byte
	posAt int32
	// depth is the quote depth of the candidate's line, as the exact
	// scanner saw it (joins look at it); -1 when not known.
	depth    int32
	kind     itemKind
	selected bool
	// lineSure: the chunk's scanner read the candidate's line as one
	// worker would (see chunk.lineSure).
	lineSure bool
	// read is how its scanner read the candidate (the zero value for a
	// skipped one).
	read readAs
}

// readAs is how a scanner read a candidate, besides where it stands: two
// scanners can find a candidate at the same offsets and read it
// otherwise, for what they read before it. A chunk that started inside
// a line of 7,000 bytes read the URI of the next line without the
// url_prefix flag that its "URL:" gives it in one reading (a random text
// of 20 KB, TextRanges' tests): joined on the offsets alone, -j 2 printed
// what -j 1 did not.
type readAs struct {
	kind      scan.Kind
	delim     scan.Delim
	flags     scan.Flags
	joinedEnd int64 // in the file: where a candidate joined over a bare line break ends
	textLen   int
}

// readAsOf is how c was read by a scanner that started at base.
func readAsOf(c *scan.Candidate, base int64) readAs {
	r := readAs{kind: c.Kind, delim: c.Delim, flags: c.Flags, textLen: len(c.Text)}
	if c.Flags&scan.BareBreak != 0 {
		r.joinedEnd = base + c.JoinedEnd
	}
	return r
}

type itemKind uint8

const (
	kindValid   itemKind = iota // a valid URI
	kindInvalid                 // an invalid one
	kindSkipped                 // a candidate skipped for its length
)

func (a *item) same(b *item) bool {
	return a.offset == b.offset && a.end == b.end && (a.kind == kindSkipped) == (b.kind == kindSkipped) && a.read == b.read
}

// block is a run of a chunk's items and their output.
type block struct {
	data  []byte
	items []item
}

// add appends it to b, its output copied, and reports false when b has no
// room for it (b is then left as it was). A block gets room for output
// at its first (counting, -c, needs none).
func (b *block) add(it item) bool {
	if len(b.items) == cap(b.items) {
		return false
	}
	if n := len(it.out); n > 0 {
		if b.data == nil {
			b.data = make([]byte, 0, blockBytes)
		}
		switch {
		case n <= cap(b.data)-len(b.data):
			at := len(b.data)
			b.data = append(b.data, it.out...)
			it.out = b.data[at:len(b.data):len(b.data)]
		case len(b.items) > 0:
			return false
		default:
			// One URI longer than a block: its own bytes.
			it.out = bytes.Clone(it.out)
		}
	}
	b.items = append(b.items, it)
	return true
}

// chunk is one chunk of the file and its worker's results.
type chunk struct {
	start, end int64 // the chunk
	base       int64 // where its scanner starts reading
	// guessed: the chunk starts inside a line, whose quote depth its
	// scanner took to be 0; the join checks that guess.
	guessed bool

	// Set before ready is closed: quiet tells that the scanner was
	// quiet past the chunk's start (QuietPast), having found quietFrom
	// items in the chunk before it stopped there; depthKnown, that its
	// scanner knew the quote depth of the lines from the start on.
	ready      chan struct{}
	quiet      bool
	quietFrom  int
	depthKnown bool

	results blockQueue // the items that start in the chunk, in order
	taken   []*block   // blocks taken from results, not yet read
	head    *block     // the block being read, and its next item
	at      int

	// Set before done is closed: pending holds what the scanner read
	// past the chunk's end; nextLine and nextColumn, those it counted
	// at the next chunk's base; err, its read error.
	done                 chan struct{}
	cs                   *chunkScanner
	pending              []item
	nextLine, nextColumn int64
	err                  error
	panicked             bool // the worker panicked: err says so (contain)

	// firstLine is the line and line start of base in the file, set by
	// the join.
	firstLine lineBase
}

// lineBase is the line (1-based) holding a scanner's first byte and the
// offset where that line starts, in the whole file.
type lineBase struct{ line, start int64 }

// position turns the line and column that a scanner starting at base
// counted for offset off into the file's.
func (lb lineBase) position(line, column, off int64) (int64, int64) {
	if line == 1 {
		return lb.line, off - lb.start + 1
	}
	return lb.line + line - 1, column
}

// baseOf is where the reader of the chunk that starts at start starts: a
// little before it, at a multiple of 4 KiB, where the scanner's reads
// are placed so that the kernel copies them fast (scan.Scanner's
// keepForCopy).
func baseOf(start int64) int64 { return max(0, (start-lead)&^4095) }

func (r *splitRun) run() (Counts, error) {
	if r.size == 0 {
		return r.counts, nil
	}
	// A slot is taken for each chunk being read or waiting for its turn,
	// and given back once the join is past it. The chunks go in order to
	// the workers (todo) and to the join (chunks).
	slots := make(chan struct{}, r.inFlight())
	todo := make(chan *chunk, r.inFlight())
	chunks := make(chan *chunk, r.inFlight())
	go func() {
		defer close(chunks)
		defer close(todo)
		defer func() {
			// A panic here ends the chunks: the join ends with the
			// error (its turn unknown: no worker's results tell it).
			if p := recover(); p != nil {
				r.producerErr = internalError(p)
				r.stopped.Store(true)
			}
		}()
		for start := int64(0); start < r.size && !r.stopped.Load(); {
			slots <- struct{}{}
			c := r.newChunk(start, min(r.size, start+r.chunkSize(start)))
			start = c.end
			todo <- c
			chunks <- c
		}
	}()
	if r.mapped != nil {
		// A fault in the mapping (the file shrank) is a panic that the
		// chunk scanners recover as a read error, not a crash.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	for range r.workers() {
		go func() {
			if r.mapped != nil {
				debug.SetPanicOnFault(true)
			}
			for c := range todo {
				r.read(c)
			}
		}()
	}
	cur := <-chunks // the chunk whose scanner reads exactly
	r.progress(cur)
	cur.firstLine = lineBase{line: 1}
	r.emitRest(cur)
	<-slots
	last := cur // the chunk before next
	for next := range chunks {
		if r.stopped.Load() {
			// w failed: no more joins (the exact scanner may read a
			// whole chunk to find one), only the workers to wait for.
			r.drain(next)
			r.release(next)
			<-slots
			continue
		}
		r.progress(next)
		line, column := last.firstLine.position(last.nextLine, last.nextColumn, next.base)
		next.firstLine = lineBase{line: line, start: next.base - column + 1}
		last = next
		if r.joinAt(cur, next) {
			r.release(cur)
			cur = next
		} else {
			r.drain(next)
			r.release(next)
		}
		<-slots // next's results are all taken
	}
	if err := cur.cs.err(); err != nil && r.err == nil {
		r.err = err
	}
	r.release(cur)
	if r.err == nil {
		r.err = r.writeErr
	}
	if r.err == nil {
		r.err = r.producerErr // set before chunks was closed
	}
	return r.counts, r.err
}

// write writes p to w, and stops the run at w's first error.
func (r *splitRun) write(p []byte) {
	if _, err := r.w.Write(p); err != nil && r.writeErr == nil {
		r.writeErr = err
		r.stopped.Store(true)
	}
}

func (r *splitRun) progress(c *chunk) {
	if r.Progress != nil {
		r.Progress(min(r.size, c.end) - c.start)
	}
}

func (r *splitRun) newChunk(start, end int64) *chunk {
	c := &chunk{
		start: start, end: end, base: baseOf(start),
		ready: make(chan struct{}), done: make(chan struct{}),
	}
	c.results.init(r.queue)
	if c.base > 0 {
		var prev [1]byte
		n, _ := r.file.ReadAt(prev[:], c.base-1)
		c.guessed = n != 1 || prev[0] != '\n'
	}
	return c
}

// release gives c's scanner back once its results have all been taken.
func (r *splitRun) release(c *chunk) {
	if c.cs != nil {
		c.cs.chunk = nil
		if c.cs.fault == nil { // one that faulted is left half-way
			r.scanners.Put(c.cs)
		}
		c.cs = nil
	}
	if r.mapped != nil {
		// Whole pages only: the ones at either end may hold the chunks
		// beside it.
		mapfile.Drop(r.mapped[c.start:c.end])
	}
}

// read is a chunk's worker: it sends the candidates that start in the
// chunk and keeps the first one past it.
func (r *splitRun) read(c *chunk) {
	defer close(c.done)
	ready := false // c.ready closed
	defer func() {
		if p := recover(); p != nil {
			r.contain(c, p, ready)
		}
	}()
	cs := r.scanner(c)
	c.cs = cs
	nextBase := baseOf(c.end)
	marked := r.lines && c.end < r.size
	if marked {
		cs.sc.markLine(nextBase - c.base)
	}
	blk := r.newBlock()
	var made int64
	put := func(it item) {
		made += int64(len(it.out) + itemBytes)
		if !blk.add(it) {
			c.results.put(blk)
			blk = r.newBlock()
			blk.add(it)
		}
	}
	if c.base < c.start {
		// Where the scanner stops past the chunk's start, the join may
		// take over from the exact scanner without a URI in common
		// (joinQuiet). The few candidates found on the way are sent once
		// the join knows that: it waits for it before it takes any.
		var early []item
		for {
			it, ok := cs.next(c.start)
			if !ok {
				break
			}
			if it.offset >= c.start {
				it.out = bytes.Clone(it.out)
				early = append(early, it)
			}
		}
		c.quiet, c.quietFrom = cs.sc.quietPast(c.start-c.base), len(early)
		fb := cs.firstLineBreak()
		c.depthKnown = !c.guessed || fb >= 0 && fb+c.base < c.start
		close(c.ready)
		ready = true
		for _, it := range early {
			put(it)
		}
	} else {
		close(c.ready)
		ready = true
	}
	for !r.stopped.Load() {
		it, ok := cs.next(c.end)
		if !ok {
			break
		}
		if it.offset < c.start {
			continue
		}
		if it.offset >= c.end {
			if it.kind != kindSkipped {
				it.depth = int32(cs.quoteDepthAt(it.offset - c.base))
			}
			it.out = bytes.Clone(it.out)
			c.pending = append(c.pending, it)
			break
		}
		put(it)
		if panicAt != nil {
			panicAt(c.start, it.offset)
		}
	}
	if len(blk.items) > 0 {
		c.results.put(blk)
	} else {
		r.blocks.Put(blk)
	}
	c.results.close()
	r.made.Add(made)
	r.readIn.Add(c.end - c.start)
	if marked && !r.stopped.Load() {
		c.markNext(r.file, nextBase)
	}
	c.err = cs.err()
}

// panicAt, set by the tests alone, is called by a chunk's worker after
// each candidate it found, to make the worker panic there.
var panicAt func(chunkStart, offset int64)

// contain ends the reading of c after its worker panicked (p; a bug of
// urix's that some text meets): the results it sent stay, the rest of
// the chunk is not read, and the file's reading ends with an error once
// the join is through with c (finish), where it would be whatever the
// workers' timing: what was written before the error is the same on
// every run. Without this, the panic of one worker ended the process
// (the CLI's run, a Beam worker with every file of its bundle).
func (r *splitRun) contain(c *chunk, p any, ready bool) {
	err := internalError(p)
	if c.cs == nil {
		c.cs = &chunkScanner{}
	}
	// Faulted: the scanner, in a state unknown, is never used again
	// (release), and reads no further for the join.
	c.cs.fault, c.cs.done, c.cs.queue = err, true, nil
	c.pending = nil
	c.err, c.panicked = err, true
	if !ready {
		close(c.ready)
	}
	c.results.close()
}

// internalError is the error of a read that panicked, worded as the
// engine words the panics it contains (behaviour §7.7).
func internalError(p any) error {
	return fmt.Errorf("internal error reading the input: %v (the rest of it was not read; please report this)", p)
}

// markNext takes the line and column the scanner counted at the next
// chunk's base. The scanner has read that far, unless the file ended
// before it (it shrank as it was read); then they are counted here.
func (c *chunk) markNext(file io.ReaderAt, nextBase int64) {
	var ok bool
	if c.nextLine, c.nextColumn, ok = c.cs.marked(); ok {
		return
	}
	c.nextLine, c.nextColumn = countLines(file, c.base, nextBase)
}

// countLines returns the line and column, counted from 1, 1 at offset
// from, of offset to in file (LF ends a line).
func countLines(file io.ReaderAt, from, to int64) (line, column int64) {
	line, column = 1, 1
	buf := make([]byte, 64<<10)
	for off := from; off < to; {
		n, err := file.ReadAt(buf[:min(int64(len(buf)), to-off)], off)
		seg := buf[:n]
		if k := bytes.Count(seg, []byte{'\n'}); k > 0 {
			line += int64(k)
			column = int64(n - bytes.LastIndexByte(seg, '\n'))
		} else {
			column += int64(n)
		}
		off += int64(n)
		if err != nil {
			break
		}
	}
	return line, column
}

// peek returns c's next result, waiting for its worker, or false once
// there are no more.
func (c *chunk) peek(r *splitRun) (*item, bool) {
	for c.head == nil || c.at == len(c.head.items) {
		if c.head != nil {
			r.putBlock(c.head)
		}
		if len(c.taken) == 0 {
			if c.taken = c.results.take(c.taken); len(c.taken) == 0 {
				c.head = nil
				return nil, false
			}
		}
		c.head, c.at = c.taken[0], 0
		c.taken = c.taken[:copy(c.taken, c.taken[1:])]
	}
	return &c.head.items[c.at], true
}

// blockQueue passes a chunk's blocks from its worker to the join. The
// worker waits while limit blocks wait; the join, until half as many wait
// or the chunk is done. (A channel woke the join for each block: on two
// CPUs, the hand-offs of the join and the workers cost more CPU time than
// the join's work itself.)
type blockQueue struct {
	mu              sync.Mutex
	notFull, enough sync.Cond
	blocks          []*block
	limit           int
	closed          bool
}

func (q *blockQueue) init(limit int) {
	q.limit = limit
	q.notFull.L, q.enough.L = &q.mu, &q.mu
}

// put adds b, waiting while the queue is full.
func (q *blockQueue) put(b *block) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.blocks) >= q.limit {
		q.notFull.Wait()
	}
	q.blocks = append(q.blocks, b)
	if len(q.blocks) >= q.limit/2 {
		q.enough.Signal()
	}
}

// close tells that no more blocks come.
func (q *blockQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.enough.Signal()
}

// take appends the blocks waiting to dst, once half the limit wait or the
// queue is closed; none when it is closed and empty.
func (q *blockQueue) take(dst []*block) []*block {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.blocks) < max(1, q.limit/2) && !q.closed {
		q.enough.Wait()
	}
	dst = append(dst, q.blocks...)
	clear(q.blocks)
	q.blocks = q.blocks[:0]
	q.notFull.Signal()
	return dst
}

func (r *splitRun) putBlock(b *block) {
	clear(b.items) // the outputs they point to may be their own
	b.data, b.items = b.data[:0], b.items[:0]
	r.blocks.Put(b)
}

// newBlock returns a block given back, or a new one.
func (r *splitRun) newBlock() *block {
	if b, ok := r.blocks.Get(); ok {
		return b
	}
	return &block{items: make([]item, 0, blockItems)}
}

// emitRest writes c's results from where the join took them, then waits
// for its worker to finish.
func (r *splitRun) emitRest(c *chunk) {
	for {
		it, ok := c.peek(r)
		if !ok {
			break
		}
		r.emit(it, c.firstLine)
		c.at++
	}
	r.finish(c)
}

// drain drops c's results: the exact scanner has read c's chunk itself.
func (r *splitRun) drain(c *chunk) {
	for {
		if _, ok := c.peek(r); !ok {
			break
		}
		c.at++
	}
	r.finish(c)
}

// finish waits for c's worker to end, once all its results are taken.
func (r *splitRun) finish(c *chunk) {
	<-c.done
	if c.err != nil && r.err == nil {
		r.err = c.err
	}
	if c.panicked {
		r.stopped.Store(true) // no more joins: the chunks after c are dropped
	}
}

// emit writes the output of it, a candidate found by a scanner whose
// first line is lb, and counts it.
func (r *splitRun) emit(it *item, lb lineBase) {
	if it.kind == kindSkipped {
		if r.OnSkip != nil {
			sk := Skip{Offset: it.offset, End: it.end}
			if r.lines {
				sk.Line, sk.Column = lb.position(it.line, it.column, it.offset)
			}
			r.OnSkip(sk)
		}
		return
	}
	r.counts.Found++
	if it.kind == kindInvalid {
		r.counts.Invalid++
	}
	if !it.selected {
		return
	}
	r.counts.Selected++
	if len(it.out) == 0 || r.writeErr != nil {
		return // counted only
	}
	if it.posAt < 0 {
		r.write(it.out)
		return
	}
	line, column := lb.position(it.line, it.column, it.offset)
	r.pos = r.Format.AppendPosition(append(r.pos[:0], it.out[:it.posAt]...), line, column)
	r.pos = append(r.pos, it.out[it.posAt:]...)
	r.write(r.pos)
}

// joinAt writes, in order, the candidates that the exact scanner, c's,
// finds from c's chunk end to the point where next agrees with it, then
// next's from there. It returns true when next takes over, false when c
// read through next's whole chunk.
func (r *splitRun) joinAt(c, next *chunk) bool {
	<-next.ready
	if next.quiet && !c.cs.done && r.joinQuiet(c, next) {
		return true
	}
	for {
		it, ok := r.nextBefore(c, next.end, -1)
		if !ok {
			break
		}
		var theirs *item
		for {
			theirs, ok = next.peek(r)
			if !ok || theirs.offset >= it.offset {
				break
			}
			next.at++
		}
		if ok && theirs.same(&it) && (theirs.lineSure || it.depth == 0) {
			r.emitRest(next)
			return true
		}
		r.emit(&it, c.firstLine)
	}
	// No agreement inside next's chunk: c has read it as one worker would.
	c.end = next.end
	return false
}

// joinQuiet writes c's candidates up to where its scanner stops past
// next's start, and if it is quiet there as next's was, next's from where
// next's stopped: from there on both find the same. This joins chunks
// that have no URI in common, which a URI-free chunk never has: without
// it, the exact scanner read such chunks again, one after the other (800
// MB of text with 192 URIs: 0.236 s, against 0.179 s with it and 0.277 s
// with -j 1). It returns true when next takes over.
func (r *splitRun) joinQuiet(c, next *chunk) bool {
	limit := next.start
	for {
		it, ok := r.nextBefore(c, next.end, limit)
		if !ok {
			break
		}
		r.emit(&it, c.firstLine)
	}
	if len(c.pending) > 0 {
		return false // one past next's chunk: c reads on in joinAt
	}
	if !c.cs.sc.quietPast(limit-c.base) || !next.depthKnown && c.cs.quoteDepthAt(limit-c.base) != 0 {
		return false
	}
	for range next.quietFrom {
		next.peek(r)
		next.at++
	}
	r.emitRest(next)
	return true
}

// nextBefore returns the exact scanner's next candidate, those it read
// past its chunk first, with next's limit (-1: none), when it starts
// before end; one that starts at end or later is kept for later and false
// returned. The item's output lives until the next call.
func (r *splitRun) nextBefore(c *chunk, end, limit int64) (item, bool) {
	var it item
	if len(c.pending) > 0 {
		it = c.pending[0]
		c.pending = c.pending[:copy(c.pending, c.pending[1:])]
	} else {
		var ok bool
		if it, ok = c.cs.next(limit); !ok {
			return it, false
		}
		if it.kind != kindSkipped {
			it.depth = int32(c.cs.quoteDepthAt(it.offset - c.base))
		}
		if it.offset >= end {
			it.out = bytes.Clone(it.out)
		}
	}
	if it.offset >= end {
		c.pending = append([]item{it}, c.pending...)
		return it, false
	}
	return it, true
}

// chunkScanner is a scanner that reads chunk after chunk: a new one per
// chunk grew its buffer anew each time, and on machines where a page fault
// is dear (a virtual machine's) the faults of that fresh memory were the
// largest cost of split reading after the scanning itself.
type chunkScanner struct {
	sc     *Scanner
	format Formatter
	chunk  *chunk // the chunk being read
	base   int64
	// queue holds the candidates of the last Scan: the ones skipped on
	// the way (reported by OnSkip), then the URI.
	queue []item
	done  bool // Scan returned false: the end of the input
	buf   []byte
	// mapped is the file mapped into memory, which view shows from
	// base on; fault, the error of a fault in it.
	mapped []byte
	view   inplace.Reader
	fault  error
}

// scanner returns a scanner set to read c from its base.
func (r *splitRun) scanner(c *chunk) *chunkScanner {
	cs, ok := r.scanners.Get()
	if !ok {
		cs = &chunkScanner{format: r.Format, mapped: r.mapped}
	}
	var src io.Reader
	if r.mapped != nil {
		cs.view.Reset(r.mapped[c.base:r.size])
		src = &cs.view
	} else {
		src = io.NewSectionReader(r.file, c.base, r.size-c.base)
	}
	if cs.sc == nil {
		opts := r.Options
		opts.OnSkip = cs.skipped
		// next formats each match before it asks for the next.
		opts.ReuseStrings = true
		cs.sc = NewScanner(src, opts)
	}
	// A chunk that starts inside a line takes that line's quote depth to
	// be 0: the guess that the join checks.
	cs.sc.resetFrom(src, c.guessed, 0)
	cs.chunk, cs.base, cs.queue, cs.done = c, c.base, cs.queue[:0], false
	return cs
}

func (cs *chunkScanner) skipped(sk Skip) {
	cs.queue = append(cs.queue, item{
		offset: cs.base + sk.Offset, end: cs.base + sk.End, line: sk.Line, column: sk.Column,
		kind: kindSkipped, depth: -1, posAt: -1,
	})
}

// next reads the next candidate (a URI or a skipped one), or returns false
// at the end of the input. With a limit (not -1), it also returns false
// once no more candidates that start before that offset come. The item's
// output lives until the next call.
func (cs *chunkScanner) next(limit int64) (_ item, ok bool) {
	if cs.mapped != nil {
		defer cs.recoverFault(func() { ok = false })
	}
	for len(cs.queue) == 0 {
		if cs.done {
			return item{}, false
		}
		if limit >= 0 {
			if !cs.sc.scanBefore(limit - cs.base) {
				if len(cs.queue) > 0 {
					break // skips reported on the way come first
				}
				return item{}, false
			}
		} else if !cs.sc.Scan() {
			cs.done = true
			continue // skips reported on the way to the end come first
		}
		m := cs.sc.Match()
		it := item{
			offset: cs.base + m.Offset, end: cs.base + m.End, line: m.Line, column: m.Column,
			kind: kindValid, depth: -1, posAt: -1, read: readAsOf(cs.sc.sc.Candidate(), cs.base),
		}
		if !m.Valid {
			it.kind = kindInvalid
		}
		if c := cs.chunk; !c.guessed {
			it.lineSure = true
		} else if fb := cs.firstLineBreak(); fb >= 0 && it.offset > fb+cs.base+lead {
			// Past the first line by more than a scanner looks back
			// (its '<' may stand on the line before): read as one worker
			// would, whatever the first line's quote depth.
			it.lineSure = true
		}
		if cs.format.Selects(m) {
			m.Offset += cs.base
			m.End += cs.base
			var posAt int
			cs.buf, posAt = cs.format.AppendMatch(cs.buf[:0], m)
			it.posAt = int32(posAt)
			it.selected, it.out = true, cs.buf
		}
		if len(cs.queue) == 0 {
			return it, true // the usual case: no skip on the way
		}
		// A skip reported during this Scan came before this URI.
		cs.queue = append(cs.queue, it)
	}
	it := cs.queue[0]
	// Shift rather than reslice: a queue that keeps dropping its head
	// loses its capacity, and it allocated once per URI.
	cs.queue = cs.queue[:copy(cs.queue, cs.queue[1:])]
	return it, true
}

// err returns the error that ended cs's input: a read error, or a fault in
// the file's mapping.
func (cs *chunkScanner) err() error {
	if cs.fault != nil {
		return cs.fault
	}
	return cs.sc.Err()
}

// firstLineBreak, quoteDepthAt and marked are those of cs.sc, which read
// the file's bytes: after a fault in its mapping, what is not known.
func (cs *chunkScanner) firstLineBreak() (at int64) {
	if cs.mapped != nil {
		defer cs.recoverFault(func() { at = -1 })
	}
	return cs.sc.firstLineBreak()
}

func (cs *chunkScanner) quoteDepthAt(off int64) (depth int) {
	if cs.mapped != nil {
		defer cs.recoverFault(func() { depth = -1 })
	}
	return cs.sc.quoteDepthAt(off)
}

func (cs *chunkScanner) marked() (line, column int64, ok bool) {
	if cs.mapped != nil {
		defer cs.recoverFault(func() { ok = false })
	}
	return cs.sc.marked()
}

// recoverFault, deferred by a method that reads the mapped file, turns a
// fault in the mapping into the end of cs's input with an error, and
// calls unknown to set what the method returns then. Any other panic goes
// on.
func (cs *chunkScanner) recoverFault(unknown func()) {
	e := recover()
	if e == nil {
		return
	}
	fault := mapfile.Fault(e, cs.mapped)
	if fault == nil {
		panic(e)
	}
	if cs.fault == nil {
		cs.fault = fault
	}
	cs.done, cs.queue = true, cs.queue[:0]
	unknown()
}
