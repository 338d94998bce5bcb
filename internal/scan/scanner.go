package scan

import (
	"bytes"
	"errors"
	"io"
	"unsafe"

	"github.com/urix-dev/urix/internal/pagecopy"
)

// Delim is what delimits a candidate in its context (behaviour §3).
type Delim uint8

const (
	DelimNone    Delim = iota // whitespace, start of text, other punctuation
	DelimAngle                // <...>
	DelimQuote                // "..."
	DelimBracket              // [...]
	DelimBrace                // {...}
	DelimParen                // (...)

	// delimSingle is '...' (behaviour §3.6), read as "..." with ' for
	// its closer and no line break rejoined; reported as DelimQuote.
	delimSingle
)

var delimNames = [...]string{"none", "angle", "quote", "bracket", "brace", "paren"}

func (d Delim) String() string {
	if int(d) < len(delimNames) {
		return delimNames[d]
	}
	return "unknown"
}

// Kind tells what anchored a candidate.
type Kind uint8

const (
	KindScheme Kind = iota // "scheme:" (behaviour §2)
	KindWWW                // a bare "www." host (Config.WWW)
	KindEmail              // a bare user@host.tld (Config.Email)
)

// Flags describe how a candidate was read.
type Flags uint8

const (
	// Rejoined: whitespace inside the candidate (a line break, mostly)
	// was dropped, so Text differs from Raw.
	Rejoined Flags = 1 << iota
	// URLPrefix: a "URL:" prefix stood before the candidate.
	URLPrefix
	// HyphenBreak: a line break came right after a hyphen; the hyphen may
	// or may not belong to the URI (Candidate.Hyphens says which).
	HyphenBreak
	// TooLong: the candidate ran past Config.MaxLength; it was skipped
	// and has no Text or Raw, only its position.
	TooLong
	// Unusable: the candidate holds, in its authority, a character that
	// cannot be in a URI (a control, a format character, an invalid
	// byte, U+3002 or U+FF0E), taken whole so that it is never cut to a
	// URI naming another host (behaviour §2, revision 5): it is invalid.
	Unusable
	// BareBreak: a bare URI ran to a line end after one of / ? & = # .,
	// and the whole next line may go on with it (behaviour §3.8): Text
	// is the first line's part, Joined the joined form.
	BareBreak
	// LocalEscape: the local part of an address (KindEmail) may hold a
	// character that a mailto: URI percent-encodes (RFC 6068 2): '%',
	// '/', '?', '#', '[', ']', '{', '}', '|', '^', '`' or non-ASCII.
	LocalEscape
)

// Candidate is one span of text that a reader would take for a URI.
// Its slices alias the scanner's buffers and are valid until the next Scan.
type Candidate struct {
	Kind Kind
	// Text is the candidate as a reader sees it: wrappers, "URL:", the
	// whitespace and quote prefixes of a rejoined URI left out; the
	// hyphens at line breaks are kept. For KindWWW and KindEmail it has
	// no scheme: the caller adds "http://" or "mailto:".
	Text []byte
	// Raw is the input from Offset to End: the candidate's own bytes,
	// line breaks and quote prefixes included, wrappers excluded.
	Raw    []byte
	Offset int64 // byte offset of the first byte, 0-based
	End    int64 // byte offset just after the last byte
	Line   int64 // 1-based line of the first byte (LF, CRLF and CR end lines); 0 with Config.NoLines
	Column int64 // 1-based byte column of the first byte; 0 with Config.NoLines
	Delim  Delim
	Flags  Flags
	// Hyphens holds the index in Text of each hyphen that stood right
	// before a line break (behaviour §3), in increasing order.
	Hyphens []int
	// With BareBreak: Joined is the text joined across the line break
	// (trimmed), JoinedRaw the input it spans, which ends at JoinedEnd.
	Joined, JoinedRaw []byte
	JoinedEnd         int64
}

// Config holds the options of a Scanner. The zero value gives the
// defaults.
type Config struct {
	// MaxLength bounds a candidate's raw length in bytes; longer ones are
	// delivered with the TooLong flag. Zero means DefaultMaxLength.
	MaxLength int
	// AnyScheme accepts any syntactically valid scheme of two or more
	// characters, with or without "//" (behaviour §2).
	AnyScheme bool
	// Schemes, when not empty, are the only schemes found, with or
	// without "//" (compared case-insensitively; behaviour §2).
	Schemes []string
	// WWW finds scheme-less "www.host..." candidates.
	WWW bool
	// Email finds bare user@host.tld candidates.
	Email bool
	// NoLines leaves Line and Column zero, which saves counting line
	// breaks over the whole input.
	NoLines bool
	// StartsMidLine tells that the input starts inside a line whose quote
	// depth (behaviour §3: the number of '>' in its mail quote prefix) is
	// StartQuoteDepth, for a reader that starts scanning inside a file.
	StartsMidLine   bool
	StartQuoteDepth int
	// IsRegistered reports whether a scheme name is in the IANA registry;
	// nil means uri.LookupSchemeBytes.
	IsRegistered func(name []byte) bool
}

// DefaultMaxLength is the length limit of behaviour §1: 64 KiB.
const DefaultMaxLength = 64 << 10

const (
	// lookback bounds how far before an anchor the scanner looks: the
	// scheme run, "URL:", the whitespace and the opening delimiter.
	lookback = 512
	// maxSchemeRun bounds the run of scheme characters read before ':'.
	// The longest registered scheme has 36 characters.
	maxSchemeRun = 128
	// maxGap bounds the whitespace looked through between '<' or "URL:"
	// and the scheme.
	maxGap = 64
	// readSize is the least room the buffer keeps for a read. 256 KiB
	// reads made two 800 MB files 4% faster than 64 KiB ones, on one
	// worker and on two (fewer system calls), and the buffer still fits
	// a core's L2 cache; 512 KiB gained nothing more.
	readSize = 256 << 10
	// maxEmptyReads is how many (0, nil) reads in a row count as a
	// broken reader, as in bufio.
	maxEmptyReads = 100
)

// Scanner reads candidates from an io.Reader; see the package doc.
type Scanner struct {
	r       io.Reader
	cfg     Config
	maxLen  int
	schemes [][]byte // lower-case, from Config.Schemes

	buf []byte // buf[:n] holds input from offset base
	n   int
	// own is the Scanner's buffer while buf is a window on view, an
	// InPlaceReader's bytes (inPlace), which it never writes to.
	own     []byte
	view    []byte
	inPlace bool
	// viewRoom, when not 0, is the window's size in place of the largest
	// buffer's: tests slide it over small inputs.
	viewRoom int
	base     int64
	eof      bool  // no more input: end of file or a read error
	err      error // the read error, sticky

	pos        int // where the search for the next anchor resumes
	floor      int // no candidate starts before this index (the last one's end)
	want       int // bytes the current anchor asked for when last retried
	tries      int // how often the current anchor was retried
	firstBreak breakFinder
	// filledAll: the last fill filled the buffer to its end.
	filledAll bool

	anchors anchorCache
	lines   lineCounter
	quote   quoteCache
	memo    []angleMemo // by quote depth

	skip skipState

	cand      Candidate
	text      []byte // Text of a rejoined candidate
	hyph      []int
	contStart int    // where the last continuation line of a rejoined URI starts
	bareText  []byte // the joined form of a bare URI broken at a line end
	bareTrim  int    // the bytes of punctuation trimmed from its end
	opener    int    // the index of the opening delimiter of the candidate being read, or -1
	joined    []byte // a scheme joined across a line break (tryWrapped)
	// emph is the '_' or '*' of emphasis right before the candidate's
	// scheme (behaviour §2.1), trimmed at its end too; 0 when none.
	emph byte
}

// New returns a Scanner reading from r.
func New(r io.Reader, cfg Config) *Scanner {
	s := &Scanner{cfg: cfg, maxLen: cfg.MaxLength}
	if s.maxLen <= 0 {
		s.maxLen = DefaultMaxLength
	}
	for _, name := range cfg.Schemes {
		s.schemes = append(s.schemes, bytes.ToLower([]byte(name)))
	}
	s.Reset(r)
	return s
}

// InPlaceReader is an io.Reader whose input is all in memory: a Scanner
// given one (New, Reset) scans its bytes where they lie and never calls
// Read. InPlace returns the bytes Read would give; they must not change
// until the Scanner is Reset, and the Scanner does not write to them.
// (Mail bodies held whole in memory: their copy into the Scanner's
// buffer was 4 % of the time of a plain-text mbox. A file mapped into
// memory: the kernel's copy was a fifth of the CPU time of split
// reading.)
//
// The Scanner takes them as it would read them, a window of its largest
// buffer's size at a time that slides over them instead of being copied:
// what it works on at once, and so the memory it touches, is bounded as
// for any reader, whatever their length.
type InPlaceReader interface {
	io.Reader
	InPlace() []byte
}

// Reset makes s read from r as a new Scanner with the same Config would,
// keeping its buffers: reading many small inputs (the parts of mail
// messages) costs no allocation each.
func (s *Scanner) Reset(r io.Reader) {
	clear(s.memo) // only what was used: see angleMemo
	own := s.buf
	if s.inPlace {
		own = s.own
	}
	// What is kept, aside; the rest zeroed in place (a composite literal
	// built the whole Scanner aside and copied it: half the time of a
	// Reset, which a header field, a document of its own, pays each).
	cfg, maxLen, schemes, viewRoom := s.cfg, s.maxLen, s.schemes, s.viewRoom
	text, hyph, memo, joined := s.text[:0], s.hyph[:0], s.memo[:0], s.joined[:0]
	*s = Scanner{}
	s.r, s.cfg, s.maxLen, s.schemes, s.viewRoom = r, cfg, maxLen, schemes, viewRoom
	s.buf, s.text, s.hyph, s.memo, s.joined = own, text, hyph, memo, joined
	if ip, ok := r.(InPlaceReader); ok {
		s.own, s.inPlace, s.view = s.buf, true, ip.InPlace()
		s.slideView()
	} else if s.buf == nil {
		s.buf = make([]byte, min(initialBuffer, s.maxBuffer()))
	}
	s.lines = lineCounter{line: 1, mark: -1}
	s.firstBreak = breakFinder{at: -1}
	if s.cfg.StartsMidLine {
		s.quote = quoteCache{lineStart: -1, depth: s.cfg.StartQuoteDepth, known: true}
	}
	s.anchors.reset()
}

// ResetFrom is Reset for an input whose start Config tells afresh: inside
// a line of quote depth quoteDepth when midLine (Config.StartsMidLine and
// StartQuoteDepth), at a line's start otherwise; later Resets keep that
// start. A reader that splits a file between scanners reuses one for
// chunks of either kind. The buffer takes its largest size at once: a
// chunk fills it, and the steps on the way were memory touched for
// nothing (five scanners' 120 KiB each, on two workers).
func (s *Scanner) ResetFrom(r io.Reader, midLine bool, quoteDepth int) {
	s.cfg.StartsMidLine, s.cfg.StartQuoteDepth = midLine, quoteDepth
	if _, ok := r.(InPlaceReader); !ok {
		if s.inPlace {
			s.buf, s.inPlace = s.own, false
		}
		if len(s.buf) < s.maxBuffer() {
			s.buf = make([]byte, s.maxBuffer())
		}
	}
	s.Reset(r)
}

// initialBuffer is the buffer a Scanner starts with; it grows, up to
// maxBuffer, as the input shows it is large or a candidate is long.
const initialBuffer = 8 << 10

// doubleUpTo is where the buffer stops doubling and takes its largest
// size: an input that has filled 64 KiB is most likely large, and the
// steps from there (128 and 256 KiB, then 321) touched twice the memory a
// scanner keeps. Fresh memory is dear where page faults are (a virtual
// machine's): text.txt of the corpus, one worker, 1,434 -> 1,170 page
// faults, 0.117 -> 0.113 s; split on two workers, three scanners, 0.089
// -> 0.085 s (median of 15).
const doubleUpTo = 64 << 10

// maxBuffer is the most the buffer grows to: room for the look-back, a
// candidate of the longest length, and a read.
func (s *Scanner) maxBuffer() int { return lookback + s.maxLen + readSize }

// grow doubles the buffer up to doubleUpTo, then makes it maxBuffer.
func (s *Scanner) grow() {
	if len(s.buf) >= s.maxBuffer() {
		return
	}
	size := s.maxBuffer()
	if len(s.buf) < doubleUpTo {
		size = min(2*len(s.buf), size)
	}
	b := make([]byte, size)
	copy(b, s.buf[:s.n])
	s.buf = b
}

// Candidate returns the candidate found by the last call to Scan.
func (s *Scanner) Candidate() *Candidate { return &s.cand }

// Err returns the first read error, or nil at a clean end of input.
func (s *Scanner) Err() error { return s.err }

// outcome is what an attempt at an anchor gave.
type outcome uint8

const (
	none     outcome = iota // no candidate here
	found                   // s.cand is set
	needMore                // the answer lies past the buffered input
)

// Scan finds the next candidate; it returns false at the end of the input
// or on a read error (see Err).
func (s *Scanner) Scan() bool { return s.scan(noLimit) }

// ScanBefore is Scan for a reader that splits its input between scanners:
// it returns false also once every candidate that starts before offset
// limit has been delivered, having read no further past limit than the
// scanner looks back (it may deliver a few candidates past limit first).
// The scanner stays where it stood: Scan, or ScanBefore with a later
// limit, goes on from there exactly as if only Scan had been called.
func (s *Scanner) ScanBefore(limit int64) bool { return s.scan(limit) }

// QuietPast tells, right after ScanBefore(limit) returned false, whether
// what s finds from then on depends on nothing before limit: no candidate
// it found ends at or after limit, and it is not skipping an overlong one.
// Its next anchor lies a look-back past limit, and a candidate's look-back
// (its scheme run, "URL:", an opening '<') never reaches before limit, so
// two scanners over the same input that are both quiet past limit, and
// agree on the mail quote depth of the lines from limit on (see
// StartsMidLine), find the same candidates from there. A reader that
// splits a file between scanners joins them so where no candidate is
// common to both (see the CLI's -j).
func (s *Scanner) QuietPast(limit int64) bool {
	// floor < limit, strictly: context() compares a candidate's start,
	// which may be limit itself, with the floor.
	return !s.skip.active && s.base+int64(s.floor) < limit
}

// noLimit is the limit of Scan.
const noLimit = -1

// passed tells whether index i of the buffer lies so far past limit that
// no candidate found from there starts before limit: a candidate starts
// at most lookback before its anchor.
func (s *Scanner) passed(limit int64, i int) bool {
	return limit != noLimit && s.base+int64(i) >= limit+lookback
}

func (s *Scanner) scan(limit int64) bool {
	for {
		if s.skip.active {
			switch s.skipOn() {
			case found:
				return true
			case needMore:
				s.fill(int(s.skip.at-s.base), 1)
			}
			continue
		}
		i, kind := s.nextAnchor()
		// Stopping here changes nothing: the next call finds this
		// same anchor (or none) again.
		if i >= 0 && s.passed(limit, i) || i < 0 && !s.eof && s.passed(limit, s.n-3) {
			return false
		}
		if i < 0 {
			if s.eof {
				return false
			}
			// Keep a few bytes: "www." may straddle the read.
			s.pos = max(s.pos, s.n-3)
			s.fill(s.pos-lookback, 1)
			continue
		}
		switch s.try(i, kind) {
		case found:
			s.tries = 0
			return true
		case none:
			s.tries = 0
			s.pos = i + 1
		case needMore:
			// Ask for twice as much on each retry of the same anchor,
			// so that a long candidate costs linear time however small
			// the reader's reads are.
			s.tries++
			s.want = 256 << min(s.tries, 12)
			s.pos = i
			s.fill(i-lookback, s.want)
		}
	}
}

// fill drops the input before index keep (or less) and reads until at least
// want new bytes arrived, the buffer is full, or the input ends.
func (s *Scanner) fill(keep, want int) {
	if s.inPlace {
		s.fillView(keep)
		return
	}
	keep = max(0, min(keep, s.n))
	if s.n-keep == len(s.buf) {
		s.grow()
	}
	if s.n-keep == len(s.buf) {
		// A full buffer of the largest size that cannot slide: callers
		// never let this happen, since a candidate ends within maxLen of
		// its anchor.
		keep = s.n - lookback
	}
	// Drop what is read only when room is short: a reader that gives
	// small pieces (an HTML part, a token at a time) made each fill copy
	// the look-back kept, 512 bytes for every 60 read, and count its
	// lines and quotes in as many small steps.
	if keep > 0 && len(s.buf)-s.n < len(s.buf)/2 {
		if keep = s.keepForCopy(keep); keep > 0 {
			s.discard(keep)
		}
	}
	if s.n == len(s.buf) || s.filledAll {
		// No room left, or the last read filled all there was: a large
		// input, read in larger pieces.
		s.grow()
	}
	start := s.n
	defer func() { s.filledAll = s.n == len(s.buf) && s.n > start }()
	got, empty := 0, 0
	for s.n < len(s.buf) && !s.eof && got < want {
		m, err := s.r.Read(s.buf[s.n:])
		if m < 0 || m > len(s.buf)-s.n {
			s.setErr(errors.New("scan: reader returned an invalid count"))
			return
		}
		s.n += m
		got += m
		switch {
		case err == io.EOF:
			s.eof = true
		case err != nil:
			s.setErr(err)
		case m == 0:
			empty++
			if empty >= maxEmptyReads {
				s.setErr(io.ErrNoProgress)
			}
		default:
			empty = 0
		}
	}
}

func (s *Scanner) setErr(err error) {
	if s.err == nil {
		s.err = err
	}
	s.eof = true
}

// keepForCopy returns keep, or a little less (more of the input is kept),
// so that the reads after the discard do not land where the kernel copies
// slowly (package pagecopy). The distance is that of buf[0] to its input
// offset s.base, whatever s.n is: keeping pagecopy.Slack bytes more moves
// it out of the slow range. A reader whose offset 0 is not at a multiple
// of 4 KiB in its file (a chunk of a split file starts at one) shifts it,
// and one behind a buffer (bufio, a decoder) makes it moot.
func (s *Scanner) keepForCopy(keep int) int {
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(s.buf)))
	if pagecopy.Shift(addr, s.base+int64(keep)) > 0 {
		keep = max(0, keep-pagecopy.Slack)
	}
	return keep
}

// discard drops buf[:keep], keeping the counts that need the dropped bytes.
func (s *Scanner) discard(keep int) {
	abs := s.base + int64(keep)
	if !s.cfg.NoLines {
		s.lines.advance(s, abs)
	}
	s.quote.advance(s, keep)
	s.findBreak(keep)
	if !s.inPlace {
		copy(s.buf, s.buf[keep:s.n])
	}
	s.n -= keep
	s.base = abs
	s.pos = max(0, s.pos-keep)
	s.floor = max(0, s.floor-keep)
	if s.inPlace {
		s.slideView()
	}
}

// fillView is fill for an InPlaceReader: the window on its bytes slides
// past what is dropped, as a buffer of the largest size would be moved
// (so that what is scanned at once, and the memory touched, stay
// bounded: a file mapped into memory is one such input), and takes in
// all it has room for, as a read would fill it.
func (s *Scanner) fillView(keep int) {
	keep = max(0, min(keep, s.n))
	room := s.windowSize()
	if s.n-keep >= room {
		keep = s.n - lookback // as fill: callers never let this happen
	}
	if keep > 0 && room-s.n < room/2 {
		s.discard(keep)
		return
	}
	s.slideView()
}

func (s *Scanner) windowSize() int {
	if s.viewRoom > 0 {
		return s.viewRoom
	}
	return s.maxBuffer()
}

// slideView sets buf to the window on view from base: all of the bytes
// up to the window's size, the largest buffer's.
func (s *Scanner) slideView() {
	start := min(s.base, int64(len(s.view)))
	n := min(int64(s.windowSize()), int64(len(s.view))-start)
	s.buf, s.n = s.view[start:start+n:start+n], int(n)
	s.eof = start+n == int64(len(s.view))
}

// FirstLineBreak returns the offset of the first LF in the input read so
// far, or -1 when there is none yet. With QuoteDepthAt it lets a reader
// that scans a file in chunks, each from the middle of a line, check that
// two scanners agree (see the CLI's -j).
func (s *Scanner) FirstLineBreak() int64 {
	s.findBreak(s.n)
	return s.firstBreak.at
}

// QuoteDepthAt returns the mail quote depth (behaviour §3) of the line holding
// offset abs, which must be in the input read since the last candidate
// began; -1 when it is not.
func (s *Scanner) QuoteDepthAt(abs int64) int {
	i := abs - s.base
	if i < 0 || i > int64(s.n) || abs < s.quote.scanned {
		return -1
	}
	return s.quote.depthAt(s, int(i))
}

// breakFinder remembers the first LF of the input, once seen.
type breakFinder struct {
	at       int64 // its offset, or -1
	searched int64 // the input before this offset has been searched
}

// findBreak looks for the first LF up to index upto, if it is not known yet.
func (s *Scanner) findBreak(upto int) {
	f := &s.firstBreak
	if f.at >= 0 {
		return
	}
	from := max(0, int(f.searched-s.base))
	if upto <= from {
		return
	}
	if k := bytes.IndexByte(s.buf[from:upto], '\n'); k >= 0 {
		f.at = s.base + int64(from+k)
	}
	f.searched = s.base + int64(upto)
}

// position gives the line and column of the absolute offset abs, which
// must not be before any offset asked for earlier.
func (s *Scanner) position(abs int64) (line, col int64) {
	if s.cfg.NoLines {
		return 0, 0
	}
	s.lines.advance(s, abs)
	return s.lines.line, abs - s.lines.lineStart + 1
}

// MarkLine asks s to note the line and column of offset abs as it counts
// line breaks, for Marked: a reader that splits a file between scanners
// learns so how many lines stand before the next scanner's start, from the
// count this one makes anyway (see the CLI's -j). An offset the count has
// already passed is ignored; Reset clears the mark.
func (s *Scanner) MarkLine(abs int64) {
	if abs >= s.lines.at {
		s.lines.mark, s.lines.marked = abs, false
	}
}

// Marked returns the line and column of the offset given to MarkLine once
// s has read that far; ok is false before that, without a mark, and with
// Config.NoLines.
func (s *Scanner) Marked() (line, col int64, ok bool) {
	lc := &s.lines
	if s.cfg.NoLines || lc.mark < 0 {
		return 0, 0, false
	}
	if !lc.marked && lc.mark <= s.base+int64(s.n) {
		lc.advance(s, lc.mark)
	}
	return lc.markLine, lc.markCol, lc.marked
}

// lineCounter counts line breaks lazily, up to the offsets asked for: LF,
// CRLF and a CR alone each end a line (behaviour §3), so text with
// CR-only breaks (old Mac files, some mail) is numbered as it reads.
type lineCounter struct {
	at        int64 // line breaks before this offset are counted
	line      int64 // the line holding offset at
	lineStart int64 // the offset where that line starts
	// pendingCR: the byte before at is a CR whose next byte was not yet
	// read, so whether it ends a line (or its LF will) is not known.
	pendingCR bool
	// mark is the offset of MarkLine (-1: none); once the count has
	// passed it, marked is set and markLine, markCol are its position.
	mark              int64
	marked            bool
	markLine, markCol int64
}

func (lc *lineCounter) advance(s *Scanner, abs int64) {
	if !lc.marked && lc.mark >= lc.at && lc.mark <= abs {
		lc.count(s, lc.mark)
		if !lc.pendingCR {
			lc.takeMark()
		} // else taken once the CR before it is told (count)
	}
	lc.count(s, abs)
}

func (lc *lineCounter) takeMark() {
	lc.marked, lc.markLine, lc.markCol = true, lc.line, lc.mark-lc.lineStart+1
}

func (lc *lineCounter) count(s *Scanner, abs int64) {
	if lc.pendingCR && (lc.at < s.base+int64(s.n) || s.eof) {
		// The byte after the CR is here (or the input ended after it).
		lc.pendingCR = false
		if lc.at == s.base+int64(s.n) || s.buf[lc.at-s.base] != '\n' {
			lc.line, lc.lineStart = lc.line+1, lc.at
		}
		if !lc.marked && lc.mark == lc.at {
			lc.takeMark()
		}
	}
	if abs <= lc.at {
		return
	}
	// Most text has no CR: the LFs are counted and a CR looked for in one
	// pass, and only a stretch with a CR is read again (countCR).
	seg := s.buf[lc.at-s.base : abs-s.base]
	k, cr := countBreaks(seg)
	if k > 0 {
		lc.line += int64(k)
		lc.lineStart = lc.at + int64(lastNewline(seg)) + 1
	}
	if cr {
		lc.countCR(s, seg, abs)
	}
	lc.at = abs
}

// countCR adds the line breaks of the CRs of seg, which ends at offset abs,
// that are not followed by an LF (a CRLF is counted at its LF). Whether a
// CR at the end of seg is followed by one is known only when the next byte
// has been read or the input has ended; until then it is pending. So the
// count does not depend on how the input is split into reads.
func (lc *lineCounter) countCR(s *Scanner, seg []byte, abs int64) {
	lastLone := -1
	for i := 0; ; {
		k := bytes.IndexByte(seg[i:], '\r')
		if k < 0 {
			break
		}
		i += k + 1
		switch {
		case i < len(seg):
			if seg[i] == '\n' {
				continue
			}
		case abs < s.base+int64(s.n):
			if s.buf[abs-s.base] == '\n' {
				continue
			}
		case !s.eof:
			lc.pendingCR = true
			continue
		}
		lc.line++
		lastLone = i
	}
	if start := lc.at + int64(lastLone); lastLone >= 0 && start > lc.lineStart {
		lc.lineStart = start
	}
}
