package extract

import (
	"bytes"
	"errors"
	"io"
	"math"
	"runtime"
	"sync"

	"github.com/urix-dev/urix/internal/scan"
)

// Ranges of a text file read apart, on different machines: Split's joins
// (split.go), computed ahead by a pass that finds the candidates of every
// range but judges none of them, and handed to the reading of each range
// as counts of its scanner's candidates.
//
// The reading of range m is a scanner that starts a little before the
// range (where Split's scanner of a chunk that starts there would, at
// Base), as Split's does. Its candidates, counted in the order it finds
// them (those skipped for their length included), are the whole file's
// from some point on: the join, where it reports a candidate that the
// scanner that has read the whole file before it reports too, or where
// both are quiet past the range's start (split.go's joinAt and
// joinQuiet). Until the next range's join, it is the exact reading; from
// there, the next range's scanner is. So range m prints its scanner's
// candidates From to From+Count: those before the first were the ranges
// before it's, those past the last are the ranges after it's. A range
// whose start no scanner agrees with before the range's end (a <...>
// or an overlong candidate that runs over the whole range) has Count 0:
// the exact scanner of a range before it reads on through it, as Split's
// reads through such a chunk.
//
// The pass (TextRanges) scans each range with the scanner of that range
// and the start of the next ones with theirs, all ranges at once, and
// puts the joins in order: where a join was found by a scanner before
// the point from which it is known to be exact (a range of a few bytes,
// whose join lies past its end), that range's joins are sought again
// from that point.

// A TextRange is what the reading of one range of a text file needs to
// print what a reading of the whole file prints for it (TextRanges).
type TextRange struct {
	// Base is where its scanner starts reading, at or before the range's
	// start; MidLine tells that Base is inside a line (its scanner takes
	// that line's quote depth to be 0, as Split's does).
	Base    int64
	MidLine bool
	// From is the number of its scanner's candidates (counted from 0 at
	// Base, in the order found, those skipped for their length
	// included) that come before the range's first; Count, how many are
	// the range's: -1 for all the rest, to the end of the file.
	From, Count int64
	// Line is the line (from 1) that holds Base, and LineStart the
	// offset where it starts, when the options count lines.
	Line, LineStart int64
}

// rangeLink is where the scanner of one range hands over to the scanner
// of a later one: its candidates before index handOver are its range's
// (and those of the ranges it read through), and the scanner of range
// to is exact from its candidate from on (the first of its range's) and
// in every state from its candidate exact on. decidedAt is the
// candidate of the handing scanner from which on the decision needed it
// to be exact. to is -1 when no later scanner takes over: this one reads
// to the end of the file.
type rangeLink struct {
	to int
	// unknown: no later scanner took over within the ranges the search
	// was given.
	unknown             bool
	handOver, decidedAt int64
	from, exact         int64
	// line and column where the next range's scanner starts, counted
	// from this one's start (lines on).
	nextLine, nextColumn int64
}

// TextRanges computes the readings of the ranges of a text file (of size
// bytes, read by file) that start at starts (the first at 0, in
// increasing order, each before size), with opts as the readings use
// them (NewRangeScanner), on workers goroutines at once. It scans the
// whole file, judging no candidate. The error is one of file's reads.
func TextRanges(file io.ReaderAt, size int64, starts []int64, opts Options, workers int) ([]TextRange, error) {
	tr := &textRanges{file: file, size: size, starts: starts, opts: opts}
	tr.opts.OnSkip, tr.opts.Unique, tr.opts.UniqueSet = nil, false, nil
	n := len(starts)
	links := make([]rangeLink, n)
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, n, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc scanners
			for m := range next {
				links[m], errs[m] = tr.link(m, 0, maxChain, &sc)
			}
		}()
	}
	for m := range n {
		next <- m
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var sc scanners
	out := make([]TextRange, n)
	exact := make([]int64, n) // the candidate from which each scanner is exact
	for m := range n {
		out[m].Base, out[m].MidLine = tr.base(m)
	}
	// The joins in order, from the first range's scanner, exact from its
	// start.
	for m := 0; m >= 0 && m < n; {
		l := links[m]
		if l.unknown || l.to >= 0 && l.decidedAt < exact[m] {
			// Not found within maxChain ranges, or decided before this
			// scanner was known to be exact: again, from there, as far
			// as it takes.
			var err error
			if l, err = tr.link(m, exact[m], -1, &sc); err != nil {
				return nil, err
			}
		}
		if l.to < 0 {
			out[m].Count = -1
			break
		}
		out[m].Count = l.handOver - out[m].From
		out[l.to].From, exact[l.to] = l.from, l.exact
		m = l.to
	}
	if !tr.opts.NoLines {
		out[0].Line = 1
		for m := 1; m < n; m++ {
			lb := lineBase{line: out[m-1].Line, start: out[m-1].LineStart}
			line, column := lb.position(links[m-1].nextLine, links[m-1].nextColumn, out[m].Base)
			out[m].Line, out[m].LineStart = line, out[m].Base-column+1
		}
	}
	return out, nil
}

// textRanges is one TextRanges.
type textRanges struct {
	file   io.ReaderAt
	size   int64
	starts []int64
	opts   Options
}

// end is where range m ends.
func (tr *textRanges) end(m int) int64 {
	if m+1 < len(tr.starts) {
		return tr.starts[m+1]
	}
	return tr.size
}

// base is where the scanner of range m starts, and whether that is inside
// a line: as Split's scanner of a chunk that starts there.
func (tr *textRanges) base(m int) (int64, bool) {
	if m == 0 {
		return 0, false
	}
	base := baseOf(tr.starts[m])
	if base == 0 {
		return 0, false
	}
	var prev [1]byte
	n, _ := tr.file.ReadAt(prev[:], base-1)
	return base, n != 1 || prev[0] != '\n'
}

// maxChain is how many ranges past its own the scanner of a range reads,
// when all the ranges are searched at once, to find the one that takes
// over from it. A scanner that none joins (inside a <...> of many ranges)
// is read further only if it is the exact one, once the joins are put in
// order: searched at once, every range inside such a <...> read to its
// end, over and over (target 1 over a 40 KB one: 40 s).
const maxChain = 4

// scanners are the scanners a goroutine of TextRanges reuses from range
// to range: a new one's buffers cost more than a short range's scan.
type scanners struct{ e, g *Scanner }

// link finds where the scanner of range m, exact from its candidate exact
// on, hands over to a later range's: the first later range whose scanner
// joins it (split.go's joinAt and joinQuiet), before that range's end,
// among the chain ranges after m (all of them when chain is -1).
func (tr *textRanges) link(m int, exact int64, chain int, sc *scanners) (rangeLink, error) {
	e := tr.cursor(m, &sc.e)
	l := rangeLink{to: -1}
	var held []rangeCand // read by e, not yet taken
	take := func(limit int64) (rangeCand, bool) {
		if len(held) > 0 {
			it := held[0]
			held = held[1:]
			return it, true
		}
		return e.next(limit)
	}
	for t := m + 1; t < len(tr.starts) && l.to < 0 && !e.done; t++ {
		if chain >= 0 && t > m+chain {
			l.unknown = true
			break
		}
		start, end := tr.starts[t], tr.end(t)
		g := tr.cursor(t, &sc.g)
		early, quiet, depthKnown := g.before(start)
		// e reads up to the range's start: its candidates before it
		// are its own.
		for {
			it, ok := take(start)
			if !ok {
				break
			}
			if it.offset >= start {
				held = append([]rangeCand{it}, held...)
				break
			}
		}
		if quiet {
			l = tr.joinQuiet(e, g, start, end, exact, depthKnown, &held, take)
		}
		if l.to < 0 {
			l = tr.joinAt(e, g, start, end, exact, early, &held, take)
		}
		if l.to >= 0 {
			l.to = t
		}
		if err := g.err(); err != nil {
			return l, err
		}
	}
	if !tr.opts.NoLines && m+1 < len(tr.starts) {
		nextBase, _ := tr.base(m + 1)
		l.nextLine, l.nextColumn = countLineBreaks(tr.file, e.base, nextBase)
	}
	return l, e.err()
}

// joinQuiet is split.go's joinQuiet: e reads every candidate that starts
// before start (none past end), and if it is then quiet past start as g
// was, g takes over after the candidates it found up to there.
func (tr *textRanges) joinQuiet(e, g *rangeCursor, start, end, exact int64, depthKnown bool,
	held *[]rangeCand, take func(int64) (rangeCand, bool)) rangeLink {
	for {
		it, ok := take(start)
		if !ok {
			break
		}
		if it.offset >= end {
			*held = append([]rangeCand{it}, *held...)
			return rangeLink{to: -1}
		}
	}
	if e.read < exact || !e.s.sc.QuietPast(start-e.base) ||
		!depthKnown && e.s.sc.QuoteDepthAt(start-e.base) != 0 {
		return rangeLink{to: -1}
	}
	return rangeLink{to: 0, handOver: e.read, decidedAt: e.read, from: g.quietFrom, exact: g.quietFrom}
}

// joinAt is split.go's joinAt: the first candidate of e, from start on
// and before end, that g reports too, read in the same context.
func (tr *textRanges) joinAt(e, g *rangeCursor, start, end, exact int64, early []rangeCand,
	held *[]rangeCand, take func(int64) (rangeCand, bool)) rangeLink {
	theirs, ok := rangeCand{}, false
	nextTheirs := func() {
		if len(early) > 0 {
			theirs, ok = early[0], true
			early = early[1:]
			return
		}
		theirs, ok = g.next(end)
	}
	nextTheirs()
	for {
		// Before end only (ScanBefore): a scanner that read on to its
		// next candidate, past a megabyte without one, could no more be
		// quiet at the starts of the ranges on the way (split.go's
		// joinAt reads on, over chunks of 256 KiB at least).
		it, more := take(end)
		if !more {
			return rangeLink{to: -1}
		}
		if it.offset >= end {
			*held = append([]rangeCand{it}, *held...)
			return rangeLink{to: -1}
		}
		for ok && theirs.offset < it.offset {
			nextTheirs()
		}
		if ok && theirs.same(&it) && (theirs.lineSure || it.depth == 0) && it.index >= exact {
			return rangeLink{to: 0, handOver: it.index, decidedAt: it.index, from: theirs.index, exact: theirs.index + 1}
		}
	}
}

// rangeCursor is a scanner of the candidates of a text file from a
// range's Base, judging none.
type rangeCursor struct {
	s       *Scanner // its scan.Scanner is read directly
	base    int64
	guessed bool
	read    int64 // the candidates read
	done    bool  // the end of the file is reached
	// quietFrom is the number of candidates read by before.
	quietFrom int64
}

// rangeCand is a candidate a rangeCursor read: what split.go's item
// holds for a join.
type rangeCand struct {
	offset, end int64
	index       int64 // its number in its scanner's order
	skipped     bool
	lineSure    bool
	depth       int    // its line's quote depth, as its scanner saw it
	read        readAs // how it was read (split.go)
}

// same is split.go's item.same.
func (a *rangeCand) same(b *rangeCand) bool {
	return a.offset == b.offset && a.end == b.end && a.skipped == b.skipped && a.read == b.read
}

// cursor returns a scanner of range m's, as NewRangeScanner reads it,
// made of *sc (kept there).
func (tr *textRanges) cursor(m int, sc **Scanner) *rangeCursor {
	base, mid := tr.base(m)
	src := io.NewSectionReader(tr.file, base, tr.size-base)
	if *sc == nil {
		// Its candidates are those of a scanner that counts lines; it
		// counts none (countLineBreaks does, once a range): a line and
		// column for each candidate cost as much as the scan of dense
		// text (a URI a line, 97 MB: 0.50 s, 0.29 s without).
		opts := tr.opts
		opts.NoLines = true
		*sc = newScannerAt(src, opts, mid, 0)
	} else {
		(*sc).resetFrom(src, mid, 0)
	}
	return &rangeCursor{s: *sc, base: base, guessed: mid}
}

// next is chunkScanner.next on candidates: the next one, or false at the
// end of the file, or with a limit (not -1) once none that starts before
// it comes.
func (c *rangeCursor) next(limit int64) (rangeCand, bool) {
	sc := c.s.sc
	var ok bool
	if limit >= 0 {
		ok = sc.ScanBefore(max(0, limit-c.base))
	} else if ok = sc.Scan(); !ok {
		c.done = true
	}
	if !ok {
		return rangeCand{}, false
	}
	k := sc.Candidate()
	it := rangeCand{
		offset: c.base + k.Offset, end: c.base + k.End, index: c.read, depth: -1,
		read: readAsOf(k, c.base),
	}
	c.read++
	if k.Flags&scan.TooLong != 0 {
		it.skipped = true
		return it, true
	}
	it.depth = sc.QuoteDepthAt(k.Offset)
	if !c.guessed {
		it.lineSure = true
	} else if fb := sc.FirstLineBreak(); fb >= 0 && it.offset > fb+c.base+lead {
		it.lineSure = true
	}
	return it, true
}

// before reads the candidates before start, as a chunk's worker does
// first (split.go's read): it returns those found on the way that start
// at start or past it, whether the scanner is quiet past start, and
// whether it knew the quote depth of the lines from start on.
func (c *rangeCursor) before(start int64) (early []rangeCand, quiet, depthKnown bool) {
	for {
		it, ok := c.next(start)
		if !ok {
			break
		}
		if it.offset >= start {
			early = append(early, it)
		}
	}
	c.quietFrom = c.read
	quiet = c.s.sc.QuietPast(start - c.base)
	fb := c.s.sc.FirstLineBreak()
	depthKnown = !c.guessed || fb >= 0 && fb+c.base < start
	return early, quiet, depthKnown
}

func (c *rangeCursor) err() error { return c.s.Err() }

// countLineBreaks returns the line and column, counted from 1, 1 at offset
// from, of offset to in file, as a scanner that starts at from counts
// them (scan's lineCounter): LF, CRLF and a CR alone end a line, and a
// CRLF is counted at its LF, so that a CR right before to, whose LF is at
// to, is not counted yet.
func countLineBreaks(file io.ReaderAt, from, to int64) (line, column int64) {
	line, lineStart := int64(1), from
	buf := make([]byte, 64<<10)
	for off := from; off < to; {
		// One byte more than the segment: whether a CR at its end is
		// followed by an LF.
		n, _ := file.ReadAt(buf[:min(int64(len(buf)), to-off+1)], off)
		seg := buf[:min(int64(n), to-off, int64(len(buf)-1))]
		if len(seg) == 0 {
			break
		}
		if k := bytes.Count(seg, []byte{'\n'}); k > 0 {
			line += int64(k)
			lineStart = off + int64(bytes.LastIndexByte(seg, '\n')) + 1
		}
		for i := 0; ; {
			k := bytes.IndexByte(seg[i:], '\r')
			if k < 0 {
				break
			}
			i += k + 1
			if i < n && buf[i] == '\n' {
				continue // a CRLF, counted at its LF
			}
			line++
			if start := off + int64(i); start > lineStart {
				lineStart = start
			}
		}
		off += int64(len(seg))
	}
	return line, to - lineStart + 1
}

// A RangeScanner reads the URIs of one range of a text file, as a
// Scanner reading the whole file finds them there (TextRanges): their
// offsets, lines and columns are the file's.
type RangeScanner struct {
	s    *Scanner
	tr   TextRange
	read int64 // candidates read
	// lastMine: the last candidate read is the range's.
	lastMine bool
	onSkip   func(Skip)
	lines    lineBase
}

// NewRangeScanner returns a scanner of the range tr of a text file that
// file reads (to its end: a range's last URIs may lie past the range's
// end). opts must be those TextRanges was given, OnSkip aside (called
// with the skipped candidates of the range).
func NewRangeScanner(file io.ReaderAt, tr TextRange, opts Options) *RangeScanner {
	rs := &RangeScanner{tr: tr, onSkip: opts.OnSkip, lines: lineBase{line: tr.Line, start: tr.LineStart}}
	opts.OnSkip = rs.skipped
	opts.Unique, opts.UniqueSet = false, nil
	rs.s = newScannerAt(io.NewSectionReader(file, tr.Base, math.MaxInt64-tr.Base), opts, tr.MidLine, 0)
	return rs
}

// mine tells whether the candidate numbered i is the range's.
func (rs *RangeScanner) mine(i int64) bool {
	return i >= rs.tr.From && (rs.tr.Count < 0 || i < rs.tr.From+rs.tr.Count)
}

// past tells whether the candidates numbered i and on are past the range.
func (rs *RangeScanner) past(i int64) bool { return rs.tr.Count >= 0 && i >= rs.tr.From+rs.tr.Count }

func (rs *RangeScanner) skipped(sk Skip) {
	i := rs.read
	rs.read++
	if rs.past(rs.read) {
		// The range's last candidate: its scanner reads no further.
		rs.s.halt = true
	}
	if rs.mine(i) && rs.onSkip != nil {
		rs.place(&sk.Offset, &sk.End, &sk.Line, &sk.Column)
		rs.onSkip(sk)
	}
}

// place turns a candidate's offsets, line and column, as its scanner
// counted them from Base, into the file's.
func (rs *RangeScanner) place(offset, end, line, column *int64) {
	*offset += rs.tr.Base
	*end += rs.tr.Base
	if *line > 0 {
		*line, *column = rs.lines.position(*line, *column, *offset)
	}
}

// Scan advances to the range's next URI; it returns false past the range
// or at the end of the file, or on a read error, which Err then reports.
func (rs *RangeScanner) Scan() bool {
	for {
		if len(rs.s.pending) > 0 {
			// The second form of the last candidate (HyphenBoth,
			// BareBreakBoth): the range's when the first was.
			rs.s.scan(-1)
			if rs.lastMine {
				rs.placeMatch()
				return true
			}
			continue
		}
		if rs.past(rs.read) || rs.s.halt || !rs.s.scan(-1) {
			return false
		}
		i := rs.read
		rs.read++
		if rs.past(i) {
			return false
		}
		if rs.lastMine = rs.mine(i); rs.lastMine {
			rs.placeMatch()
			return true
		}
	}
}

func (rs *RangeScanner) placeMatch() {
	m := &rs.s.m
	rs.place(&m.Offset, &m.End, &m.Line, &m.Column)
}

// Match returns the URI found by the last call to Scan (see Scanner.Match).
func (rs *RangeScanner) Match() *Match { return rs.s.Match() }

// Err returns the first read error, or nil.
func (rs *RangeScanner) Err() error { return rs.s.Err() }
