package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/output"
)

// One large plain-text file is read by several workers at once, a chunk
// each, with a result equal to one worker's, byte for byte.
//
// A worker starts reading a little before its chunk (so that what stands
// before a URI, its scheme and delimiter, is there) and keeps the URIs
// that start inside the chunk. Where a URI runs across a chunk boundary,
// or the text before the boundary changes how the text after it reads (an
// unclosed '<'), the worker of the next chunk may see things otherwise.
// So the results are joined in order, and at each boundary the previous
// chunk's scanner — which has read everything before the boundary, as one
// worker would — goes on past it until it reports a candidate that the
// next chunk's worker reported too. From that candidate on both scanners
// are in the same state (the same resume position over the same input),
// so the next chunk's results are taken from there. If no such candidate
// comes, the previous scanner simply reads on: slower, never wrong.
//
// Line numbers and columns need the line breaks before each chunk, which
// no worker knows when it formats its lines. So a chunk's lines are
// formatted without them, its scanner counting lines from where it
// started, and each chunk's scanner notes the line and column where the
// next chunk's scanner starts (MarkLine): the join, which goes in order,
// sums these and puts each URI's line and column in as it prints it.

// splitChunk is the chunk size; files of less than two chunks are read
// whole by one worker. URIX_SPLIT_CHUNK sets it, for tests of the joins.
var splitChunk = envInt("URIX_SPLIT_CHUNK", 16<<20)

func envInt(name string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(name), 10, 64); err == nil && v > 0 {
		return v
	}
	return def
}

const (
	// splitLead is how far before its chunk a worker starts reading: more
	// than the scanner ever looks back from a URI.
	splitLead = 4 << 10
)

// splittable tells whether file may be read in chunks: the only input of
// the run (with several, the workers have whole files to read, and chunks
// only add the joins), a regular,
// uncompressed plain-text file of two chunks or more, with jobs to spare and
// nothing asked that needs the text before a chunk.
func (r *run) splittable(in inputFile, file *os.File) (int64, bool) {
	if !r.splitFiles || r.jobs < 2 || r.opts.Unique || r.opts.FoldWidth || r.in.forceZ {
		return 0, false
	}
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < 2*splitChunk {
		return 0, false
	}
	head := make([]byte, 8<<10)
	n, _ := file.ReadAt(head, 0)
	head = head[:n]
	if document.Sniff(head) != document.None || (in.walked && !r.in.text && document.IsBinary(head)) {
		return 0, false
	}
	switch r.in.format {
	case "text":
	case "auto":
		if bytes.HasPrefix(head, []byte("WARC/1.")) || mail.Detect(head) != mail.FormatText {
			return 0, false
		}
	default:
		return 0, false
	}
	return fi.Size(), true
}

// splitItem is one candidate of a chunk, its output line already made.
type splitItem struct {
	offset, end int64
	print       bool   // a URI to print (or count), not one filtered out
	valid       bool   // a valid URI (for --stats)
	out         []byte // the line to print, or the warning of a skipped candidate
	skipped     bool
	// line and column are those its scanner counted from where it
	// started reading; posAt is where in out they go (-1: not printed).
	line, column int64
	posAt        int
	// depth is the quote depth of the candidate's line as its scanner saw
	// it, taken for the candidates past the chunk (the ones joins look at);
	// -1 when not known.
	depth int
}

func (a *splitItem) same(b *splitItem) bool {
	return a.offset == b.offset && a.end == b.end && a.skipped == b.skipped
}

// chunkReader is a chunk's scanner; after its chunk it can read on.
type chunkReader struct {
	start, end int64 // the chunk
	base       int64 // where the scanner started reading
	section    *io.SectionReader
	src        io.Reader // section, yielding (see yieldingReader)
	// guessed: the quote depth of the first line was taken to be 0;
	// firstBreak is where that line ends (-1: nowhere in what was read).
	guessed    bool
	firstBreak int64
	cs         *chunkScanner
	sc         *extract.Scanner // cs.sc
	items      []splitItem      // the candidates that start in the chunk
	pending    []splitItem      // read past the end of the chunk, not yet used
	skips      []splitItem      // skips reported by OnSkip, not yet placed
	done       bool             // the scanner is at the end of the input
	fo         *fileOutput      // formats this chunk's lines
	dst        *fileOutput      // the output of the whole file
	// firstLine is the line and line start of base in the file, set by
	// the join; nextLine, nextColumn, those its scanner counted at the
	// next chunk's base (with line numbers only).
	firstLine            lineBase
	nextLine, nextColumn int64
	// quiet: the scanner was quiet past the chunk's start (QuietPast),
	// having found items[:quietFrom] before it stopped there.
	quiet     bool
	quietFrom int
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

// readSplit reads a large file in chunks on r.jobs workers.
func (r *run) readSplit(f *fileOutput, file *os.File, size int64) error {
	nChunks := int((size + splitChunk - 1) / splitChunk)
	results := make([]chan *chunkReader, nChunks)
	for i := range results {
		results[i] = make(chan *chunkReader, 1)
	}
	// At most jobs chunks are being read or waiting for the join.
	slots := make(chan struct{}, r.jobs)
	go func() {
		for i := range nChunks {
			slots <- struct{}{}
			start := int64(i) * splitChunk
			go func() {
				c := r.newChunkReader(f, file, size, start, min(size, start+splitChunk))
				c.setLine(file)
				c.readChunk()
				results[i] <- c
			}()
		}
	}()
	// --stats and --progress count each chunk as the join takes it.
	chunkDone := func(i int) { r.stats.bytes.Add(min(size, int64(i+1)*splitChunk) - int64(i)*splitChunk) }
	cur := <-results[0]
	<-slots
	chunkDone(0)
	cur.firstLine = lineBase{line: 1}
	f.emitItems(cur.items, cur.firstLine)
	last := cur // the chunk before next
	for i := 1; i < nChunks; i++ {
		next := <-results[i]
		<-slots
		chunkDone(i)
		line, column := last.firstLine.position(last.nextLine, last.nextColumn, next.base)
		next.firstLine = lineBase{line: line, start: next.base - column + 1}
		last = next
		if cur.joinAt(next) {
			r.scanners.put(cur.cs)
			cur = next
		} else {
			r.scanners.put(next.cs)
		}
	}
	// The last chunk's scanner has reached the end of the file.
	return cur.sc.Err()
}

func (r *run) newChunkReader(f *fileOutput, file *os.File, size, start, end int64) *chunkReader {
	c := &chunkReader{start: start, end: end, base: splitBase(int(start / splitChunk)), dst: f}
	c.fo = &fileOutput{r: r, name: f.name}
	c.section = io.NewSectionReader(file, c.base, size-c.base)
	c.src = &yieldingReader{r: c.section}
	return c
}

// skipped records a candidate skipped for its length.
func (c *chunkReader) skipped(sk extract.Skip) {
	c.skips = append(c.skips, splitItem{
		offset: c.base + sk.Offset, end: c.base + sk.End, skipped: true, depth: -1, posAt: -1,
		out: []byte(fmt.Sprintf("%s: skipped a candidate of %d bytes at offset %d (longer than --max-length)",
			displayName(c.dst.name), sk.End-sk.Offset, c.base+sk.Offset)),
	})
}

// chunkScanner is a scanner that reads chunk after chunk: a new one per
// chunk grew its buffer anew each time, and on machines where a page
// fault is dear (a virtual machine's) the faults of that fresh memory were
// the largest cost of split reading after the scanning itself.
type chunkScanner struct {
	sc  *extract.Scanner
	cur *chunkReader // the chunk being read, told of skipped candidates
	// items and out hold the chunk's items and their output lines,
	// kept from chunk to chunk for the same reason.
	items []splitItem
	out   lineArena
	buf   []byte
}

// format returns the output line of m, which lives until the scanner's
// next chunk, and sets *posAt to where its line and column go (-1: none).
func (cs *chunkScanner) format(fo *fileOutput, m *extract.Match, posAt *int) []byte {
	var at int
	cs.buf, at = fo.r.out.AppendDeferred(cs.buf[:0], fo.name, output.Origin{}, m)
	*posAt = at
	return cs.out.keep(cs.buf)
}

// lineArena holds a chunk's output lines in blocks of arenaBlock bytes,
// kept from chunk to chunk. (One slice grown by append left the garbage of
// each doubling: with --json, twice the heap and page faults that cost
// more than the formatting.)
type lineArena struct {
	blocks [][]byte
	cur    int // the block being filled
}

const arenaBlock = 64 << 10

// keep returns a copy of line that lives until the next reset.
func (a *lineArena) keep(line []byte) []byte {
	if len(line) > arenaBlock/4 {
		return bytes.Clone(line) // a long URI: not worth a block's tail
	}
	if len(a.blocks) == 0 {
		a.blocks = append(a.blocks, make([]byte, 0, arenaBlock))
	}
	if b := a.blocks[a.cur]; cap(b)-len(b) < len(line) {
		if a.cur++; a.cur == len(a.blocks) {
			a.blocks = append(a.blocks, make([]byte, 0, arenaBlock))
		}
	}
	b := a.blocks[a.cur]
	start := len(b)
	b = append(b, line...)
	a.blocks[a.cur] = b
	return b[start:len(b):len(b)]
}

// reset empties the arena; the lines it returned are no longer valid.
func (a *lineArena) reset() {
	// The blocks past cur are empty: joins reset after each URI.
	for i := 0; i <= a.cur && i < len(a.blocks); i++ {
		a.blocks[i] = a.blocks[i][:0]
	}
	a.cur = 0
}

// scannerPool keeps the scanners of the chunks done. One pool serves
// chunks that start at a line's start and inside one alike (ResetFrom):
// with a pool for each kind, the first chunk's scanner, the only one that
// starts at a line's start in most files, was never used again, and a
// fourth scanner's buffers were paid for in page faults (text.txt, -j 2:
// 4 scanners, 2,344 page faults; -j 1 1,454).
type scannerPool struct {
	mu   sync.Mutex
	free []*chunkScanner
}

func (p *scannerPool) put(cs *chunkScanner) {
	if cs == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	cs.cur = nil
	p.free = append(p.free, cs)
}

// get returns a scanner for reading c's section, set for where c starts
// (from a line's start or not).
func (p *scannerPool) get(c *chunkReader) *chunkScanner {
	p.mu.Lock()
	var cs *chunkScanner
	if n := len(p.free); n > 0 {
		cs, p.free = p.free[n-1], p.free[:n-1]
	}
	p.mu.Unlock()
	// When c starts inside a line, its scanner takes that line's quote
	// depth to be 0: the guess that the join checks (readLineAsOne).
	if cs != nil {
		// The lines of its last chunk have been printed: the join has
		// moved past that chunk.
		cs.cur, cs.items = c, cs.items[:0]
		cs.out.reset()
		cs.sc.ResetFrom(c.src, c.guessed, 0)
		return cs
	}
	cs = &chunkScanner{cur: c}
	opts := c.fo.r.opts
	opts.OnSkip = func(sk extract.Skip) { cs.cur.skipped(sk) }
	opts.StartsMidLine, opts.StartQuoteDepth = c.guessed, 0
	cs.sc = extract.NewScanner(c.src, opts)
	return cs
}

// setLine tells the chunk's scanner what it can know of the line it
// starts in without reading back: when it starts right after a line break,
// nothing is to be told; otherwise it starts inside a line whose quote
// depth (SPEC 3) it takes to be 0, and the join checks that guess
// (joinAt) before it trusts this chunk's reading of that first line.
func (c *chunkReader) setLine(file *os.File) {
	if c.base == 0 {
		return
	}
	var prev [1]byte
	if n, _ := file.ReadAt(prev[:], c.base-1); n == 1 && prev[0] == '\n' {
		return
	}
	c.guessed = true
}

// splitBase is where the reader of chunk i starts: a little before it.
func splitBase(i int) int64 { return max(0, int64(i)*splitChunk-splitLead) }

// next reads the next candidate (a URI or a skipped one), or returns false
// at the end of the input. With a limit (not -1), it also returns false
// once no more candidates that start before that offset come.
func (c *chunkReader) next(limit int64) (splitItem, bool) {
	for len(c.skips) == 0 {
		if c.done {
			return splitItem{}, false
		}
		if limit >= 0 {
			if !c.sc.ScanBefore(limit - c.base) {
				if len(c.skips) > 0 {
					break // skips reported on the way come first
				}
				return splitItem{}, false
			}
		} else if !c.sc.Scan() {
			c.done = true
			continue // skips reported on the way to the end come first
		}
		m := c.sc.Match()
		it := splitItem{
			offset: c.base + m.Offset, end: c.base + m.End, print: c.fo.r.out.Selects(m), valid: m.Valid,
			depth: -1, line: m.Line, column: m.Column, posAt: -1,
		}
		if it.offset >= c.end {
			it.depth = c.sc.QuoteDepthAt(m.Offset)
		}
		m.Offset += c.base
		m.End += c.base
		if it.print && !c.fo.r.out.Count {
			it.out = c.cs.format(c.fo, m, &it.posAt)
		}
		// A skip reported during this Scan came before this URI.
		c.skips = append(c.skips, it)
	}
	it := c.skips[0]
	// Shift rather than reslice: a queue that keeps dropping its head
	// loses its capacity, and it allocated once per URI.
	c.skips = c.skips[:copy(c.skips, c.skips[1:])]
	return it, true
}

// readChunk reads the candidates that start in the chunk, and those that
// come up to a little past it. It reads no further: reading on to the
// next candidate, wherever it was, made a file without URIs after its
// first chunks cost each chunk's reader the rest of the file (800 MB took
// 1 s, against 0.08 s with one worker).
func (c *chunkReader) readChunk() {
	c.cs = c.fo.r.scanners.get(c)
	c.sc, c.items = c.cs.sc, c.cs.items
	defer func() { c.cs.items = c.items }()
	nextBase := splitBase(int(c.start/splitChunk) + 1)
	if !c.fo.r.opts.NoLines && nextBase < c.base+c.section.Size() {
		c.sc.MarkLine(nextBase - c.base)
		defer c.markNext(nextBase)
	}
	if c.base < c.start {
		// Where the scanner stops past the chunk's start, the join may
		// take over from the previous chunk's scanner without a URI in
		// common (joinQuiet).
		for {
			it, ok := c.next(c.start)
			if !ok {
				break
			}
			if it.offset >= c.start {
				c.items = append(c.items, it)
			}
		}
		c.quiet, c.quietFrom = c.sc.QuietPast(c.start-c.base), len(c.items)
	}
	for {
		it, ok := c.next(c.end)
		if !ok {
			break
		}
		if it.offset < c.start {
			continue
		}
		if it.offset >= c.end {
			c.pending = append(c.pending, it)
			break
		}
		c.items = append(c.items, it)
	}
	if c.firstBreak = c.sc.FirstLineBreak(); c.firstBreak >= 0 {
		c.firstBreak += c.base
	}
}

// markNext takes the line and column the scanner counted at the next
// chunk's base. The scanner has read that far, unless the file ended
// before it (it shrank as it was read); then they are counted here.
func (c *chunkReader) markNext(nextBase int64) {
	var ok bool
	if c.nextLine, c.nextColumn, ok = c.sc.Marked(); ok {
		return
	}
	c.nextLine, c.nextColumn = 1, 1
	buf := make([]byte, 64<<10)
	for off := int64(0); off < nextBase-c.base; {
		n, err := c.section.ReadAt(buf[:min(int64(len(buf)), nextBase-c.base-off)], off)
		seg := buf[:n]
		if k := bytes.Count(seg, []byte{'\n'}); k > 0 {
			c.nextLine += int64(k)
			c.nextColumn = int64(n - bytes.LastIndexByte(seg, '\n'))
		} else {
			c.nextColumn += int64(n)
		}
		off += int64(n)
		if err != nil {
			return
		}
	}
}

// nextBefore returns c's next candidate, those it read past its chunk
// first, with next's limit (-1: none), when it starts before end; one
// that starts at end or later is kept for later and false returned.
func (c *chunkReader) nextBefore(end, limit int64) (splitItem, bool) {
	var it splitItem
	if len(c.pending) > 0 {
		it, c.pending = c.pending[0], c.pending[1:]
	} else {
		var ok bool
		if it, ok = c.next(limit); !ok {
			return it, false
		}
	}
	if it.offset >= end {
		c.pending = append([]splitItem{it}, c.pending...)
		return it, false
	}
	return it, true
}

// joinAt emits, in order, the candidates from c's chunk end to the point
// where next agrees with c, then next's from there. It returns true when
// next takes over, false when c read through next's whole chunk.
func (c *chunkReader) joinAt(next *chunkReader) bool {
	if next.quiet && !c.done && c.joinQuiet(next) {
		return true
	}
	j := 0
	for {
		it, ok := c.nextBefore(next.end, -1)
		if !ok {
			break
		}
		for j < len(next.items) && next.items[j].offset < it.offset {
			j++
		}
		if j < len(next.items) && next.items[j].same(&it) && next.readLineAsOne(&it) {
			c.dst.emitItems(next.items[j:], next.firstLine)
			next.dst = c.dst
			return true
		}
		c.dst.emitItems([]splitItem{it}, c.firstLine)
		if len(c.pending) == 0 {
			// Every line kept so far is printed: reading through chunk
			// after chunk keeps no more than one chunk's lines.
			c.cs.out.reset()
		}
	}
	// No agreement inside next's chunk: c has read it as one worker would.
	c.end = next.end
	return false
}

// joinQuiet emits c's candidates up to where its scanner stops past
// next's start, and if it is quiet there as next's was, next's from where
// next's stopped: from there on both find the same (scan.QuietPast). This
// joins chunks that have no URI in common, which a URI-free chunk never
// has: without it, the previous chunk's scanner read such chunks again,
// one after the other (800 MB of text with 192 URIs: 0.236 s, against
// 0.179 s with it and 0.277 s with -j 1). It returns true when next takes
// over.
func (c *chunkReader) joinQuiet(next *chunkReader) bool {
	limit := next.start
	for {
		it, ok := c.nextBefore(next.end, limit)
		if !ok {
			break
		}
		c.dst.emitItems([]splitItem{it}, c.firstLine)
	}
	if len(c.pending) > 0 {
		return false // one past next's chunk: c reads on in joinAt
	}
	c.cs.out.reset()
	if !c.sc.QuietPast(limit-c.base) || !next.quoteDepthsAgree(c, limit) {
		return false
	}
	c.dst.emitItems(next.items[next.quietFrom:], next.firstLine)
	next.dst = c.dst
	return true
}

// quoteDepthsAgree tells whether c, a chunk's reader, knows the quote
// depths of the lines from offset off on as prev, the previous chunk's
// exact reader, does: c started at a line's start, or its first line
// ends before off, or it took that line's depth to be 0 and prev saw 0.
func (c *chunkReader) quoteDepthsAgree(prev *chunkReader, off int64) bool {
	if !c.guessed || c.firstBreak >= 0 && c.firstBreak < off {
		return true
	}
	return prev.sc.QuoteDepthAt(off-prev.base) == 0
}

// readLineAsOne tells whether c, a chunk's reader, read the line of the
// candidate it as one worker would: c started at a line's start, or it is
// past c's first line by more than a scanner looks back (its '<' may stand
// on the line before), or c's guess of the first line's quote depth, 0,
// was right: the previous chunk's reader, exact, saw depth 0 there.
func (c *chunkReader) readLineAsOne(it *splitItem) bool {
	if !c.guessed || c.firstBreak >= 0 && it.offset > c.firstBreak+splitLead {
		return true
	}
	return it.depth == 0
}

// emitItems prints the items of a chunk, in order; lb is the line base of
// the scanner that read them.
func (f *fileOutput) emitItems(items []splitItem, lb lineBase) {
	for i := range items {
		it := &items[i]
		if it.skipped {
			if !f.r.quiet {
				f.r.warnf("%s", it.out)
			}
			continue
		}
		f.found++
		if !it.valid {
			f.invalid++
		}
		if it.print {
			f.out.AddCount(1)
			if !f.r.out.Count {
				f.writeItem(it, lb)
			}
		}
	}
}

// writeItem prints the line of it with its line and column in place.
func (f *fileOutput) writeItem(it *splitItem, lb lineBase) {
	if it.posAt < 0 {
		f.w.Write(it.out)
		return
	}
	line, column := lb.position(it.line, it.column, it.offset)
	f.w.Write(it.out[:it.posAt])
	f.pos = f.r.out.AppendPosition(f.pos[:0], line, column)
	f.w.Write(f.pos)
	f.w.Write(it.out[it.posAt:])
}
