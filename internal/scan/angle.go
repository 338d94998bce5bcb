package scan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode"
	"unicode/utf8"
)

// angle reads a candidate in the angle context (behaviour §3): it runs to the
// closing '>', all whitespace dropped, so a URI broken across lines is
// rejoined; in a quoted mail reply the quote prefix of each continuation
// line is dropped too. It returns none when the context is abandoned.
func (s *Scanner) angle(st, opener, schemeLen int, kind Kind, flags Flags) outcome {
	if !noGlance && s.noAngle(st) {
		return none
	}
	depth := s.quote.depthAt(s, opener)
	// Most '<' that fail, fail again and again on the same stretch
	// (1 GiB of "<http://x " with no '>', quoted or not): the memo
	// answers them in linear time in all.
	stop, k, more, run := s.angleStop(st, depth)
	if more {
		return needMore
	}
	if k != stopGT && k != stopEnd || stop-st > s.maxLen {
		return none
	}
	if k == stopGT && !noGlance && (run || uriRun(s.buf[st:stop])) {
		// Nothing to drop or rejoin: the text is the input as it
		// stands, as angleBuild would copy it byte by byte (a third
		// of the time of each URI of "<http://a/b>" repeated).
		text := s.buf[st:stop]
		if !usable(text, schemeLen, kind) {
			return none
		}
		s.emit(st, stop, stop+1, kind, DelimAngle, flags, text, nil)
		return found
	}
	return s.angleBuild(st, depth, schemeLen, kind, flags)
}

// uriRun tells whether b holds only ASCII bytes that may stand inside a
// URI (cURI): no whitespace, no quote prefix, no '\' of a fold.
func uriRun(b []byte) bool {
	for _, c := range b {
		if asciiClass[c]&cURI == 0 {
			return false
		}
	}
	return true
}

// noAngle is a glance at the angle context of a candidate starting at st:
// true when a '<' comes before any '>', with only ASCII before it. Then
// angleStop stops at that '<' at the latest, as no wrapper (stopBad), or
// earlier at another end that is no '>' (a character that always ends a
// URI is not ASCII), and angle returns none. It spares the quote depth
// and angleStop's reading, a third of the time of each of the URIs of
// "<http://a/b-" + newline, repeated (issue #17).
//
// It looks at most maxNoAngle bytes. Its reads do not overlap, so it
// costs linear time in all: it ends at the first '<' or '>' after st,
// and the next angle candidate has its opening '<' after that.
func (s *Scanner) noAngle(st int) bool {
	b := s.buf[st:min(s.n, st+maxNoAngle)]
	// Eight bytes at a time: in y the bytes '<' and '>' (0x3C, 0x3E), and
	// only they, are zero; hits has the high bit of each of them and of
	// each byte of a non-ASCII character set.
	const lows, highs = 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
	for ; len(b) >= 8; b = b[8:] {
		x := binary.LittleEndian.Uint64(b)
		y := (x | 0x0202020202020202) ^ 0x3E3E3E3E3E3E3E3E
		hits := ^((y&lows + lows) | y | lows) | x&highs
		if hits != 0 {
			return b[bits.TrailingZeros64(hits)/8] == '<'
		}
	}
	for _, c := range b {
		if t := angleGlance[c]; t != 0 {
			return t == '<'
		}
	}
	return false
}

const maxNoAngle = 256

// angleGlance marks the bytes that end noAngle's look: '<', '>' and the
// bytes of non-ASCII characters.
var angleGlance = func() (t [256]byte) {
	t['<'], t['>'] = '<', '>'
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = 1
	}
	return t
}()

// angleBuild collects the text of an angle candidate from st to its '>'.
// It follows the same rules as angleStop, which has found that '>'.
func (s *Scanner) angleBuild(st, depth, schemeLen int, kind Kind, flags Flags) outcome {
	b := s.buf[:s.n]
	text, hyph := s.text[:0], s.hyph[:0]
	j, rawEnd := st, st
	// State of the current line: at its start (quote prefix being
	// dropped), '>' dropped so far, nothing but whitespace since a line
	// break; whitespace dropped since the last content byte; a character
	// that cannot be in a URI seen on this line; the last line ended with
	// an RFC 8792 fold marker, whose continuation may start with a '\'.
	atLineStart, dropped, blank, gap, bad := false, 0, false, false, false
	fold, afterFold := false, false
	pendingHyphen := -1
	for {
		if j-st > s.maxLen {
			return none
		}
		if j >= s.n {
			if s.eof {
				return none
			}
			return needMore
		}
		c := b[j]
		size := 1
		switch {
		case c == '>':
			if atLineStart && dropped < depth {
				dropped++
				j++
				continue
			}
			return s.angleDone(st, rawEnd, j+1, schemeLen, kind, flags, text, hyph)
		case c == '\n' && b[j-1] == '\r':
			j++ // the LF of a CRLF: the same line break
			continue
		case c == '\n' || c == '\r':
			if !blank && !bad && depth == 0 {
				// An RFC page break is skipped whole (as angleStop does).
				if k := lineAfter(b, j); k < len(b) && mayPageBreak(b[k]) {
					if e, ok, _ := pageBreakEnd(b, k, s.eof); ok {
						j = e - 1
					}
				}
			}
			if blank || bad {
				return none // a blank line, or no '>' on the line of a bad character
			}
			if n := len(text); n > 0 && text[n-1] == '-' && !fold {
				pendingHyphen = n - 1
			}
			blank, atLineStart, dropped, gap = true, depth > 0, 0, true
			afterFold, fold = fold, false
			j++
			continue
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			gap = true
			j++
			continue
		case c < 0x20 || c == 0x7f:
			return none // NUL and other controls end the context (behaviour §1)
		case c == '\\' && foldMarker(b, j):
			// RFC 8792 line folding: the '\' that ends a line goes with
			// the break (behaviour §3).
			fold, blank, atLineStart = true, false, false
			j++
			continue
		case c == '\\' && afterFold:
			// The '\' that starts the continuation of a fold
			// (RFC 8792 section 8, two backslashes).
			afterFold, blank, atLineStart = false, false, false
			j++
			continue
		case c < utf8.RuneSelf && asciiClass[c]&cURI == 0:
			if c == '<' || gap {
				return none // the '<' was a less-than (see angleStop)
			}
			bad = true
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && n <= 1 {
				if !utf8.FullRune(b[j:]) && !s.eof {
					return needMore
				}
				return none
			}
			if r < 0xA0 {
				return none // C1 controls
			}
			if unicode.IsSpace(r) {
				gap = true
				j += n
				continue
			}
			if runeEndsURI(r) && !(isJoiner(r) && joinerContinues(b, j)) {
				if _, cut := cutterAt(b, j); cut && inAuthority(text, schemeLen, kind) {
					// Never cut to another host (behaviour §2): the text
					// is read again as if bare, where wholeAuthority
					// takes the run whole.
					return none
				}
				// What always ends a URI (behaviour §4: quotation marks,
				// brackets, CJK sentence marks, format characters) ends
				// it here too, rejoined as it is: "<http://a/\n b/。>"
				// gives http://a/b/, as "http://a/b/。" would.
				return s.angleDone(st, rawEnd, j, schemeLen, kind, flags, text, hyph)
			}
			size = n
		}
		// A content byte (or character).
		if gap && len(text) > 0 {
			flags |= Rejoined
		}
		if pendingHyphen >= 0 {
			hyph = append(hyph, pendingHyphen)
			pendingHyphen = -1
		}
		atLineStart, blank, gap, afterFold = false, false, false, false
		text = append(text, b[j:j+size]...)
		j += size
		rawEnd = j
	}
}

// inAuthority tells whether the text of a candidate so far ends inside
// its authority: after "scheme://" (or at a bare www. host) with no '/',
// '?' or '#' yet.
func inAuthority(text []byte, schemeLen int, kind Kind) bool {
	auth := 0
	switch kind {
	case KindEmail:
		return false
	case KindScheme:
		auth = schemeLen + 3
		if auth > len(text) || text[auth-2] != '/' || text[auth-1] != '/' {
			return false
		}
	}
	return len(text) > auth && !bytes.ContainsAny(text[auth:], "/?#")
}

// lineAfter returns the index of the line after the line break at j (a
// CRLF counts once; len(b) when the buffer ends first).
func lineAfter(b []byte, j int) int {
	if b[j] == '\r' && j+1 < len(b) && b[j+1] == '\n' {
		return j + 2
	}
	return j + 1
}

// mayPageBreak is pageBreakEnd's first glance, at the first byte c of
// the line: whitespace, a form feed or a capital.
func mayPageBreak(c byte) bool {
	return isSpaceByte(c) || 'A' <= c && c <= 'Z'
}

// maxPageBreak bounds the bytes pageBreakEnd reads.
const maxPageBreak = 1024

// pageBreakEnd reads, from index k (the start of a line inside <...>), a
// page break of fixed-width text (behaviour §3.3, revision 5): blank
// lines, the RFC series' footer line ending "[Page N]", a form feed, the
// next page's header line ("RFC 8152   Title   July 2017"), any of them
// possibly missing but one, and blank lines, before the line that goes
// on with the URI. It returns where that line starts, ok when there is
// such a page break, and more when the buffered input does not tell.
func pageBreakEnd(b []byte, k int, eof bool) (end int, ok, more bool) {
	// A glance first: a page break starts with a blank line, a form
	// feed, or a footer or header line at the left margin, a capital
	// first ("<http://a/b-" + newline, repeated, spent a third of its
	// time here).
	g := k
	for g < len(b) && (b[g] == ' ' || b[g] == '\t') {
		g++
	}
	if g == len(b) {
		return 0, false, !eof
	}
	if c := b[g]; c != '\n' && c != '\r' && c != '\f' && (g > k || c < 'A' || c > 'Z') {
		return 0, false, false
	}
	lim := k + maxPageBreak
	seen := false
	for i := k; ; {
		e := i
		for e < len(b) && e < lim && b[e] != '\n' && b[e] != '\r' {
			e++
		}
		if e >= lim {
			return 0, false, false
		}
		if e == len(b) && !eof {
			return 0, false, true
		}
		line := bytes.Trim(b[i:e], " \t")
		switch {
		case len(line) == 0:
		case len(bytes.Trim(line, "\f")) == 0:
			seen = true // a form feed
		case pageFooter(line) || pageHeader(bytes.TrimLeft(line, "\f")):
			seen = true
		default:
			return i, seen, false
		}
		if e == len(b) {
			return 0, false, false // the input ends in the page break
		}
		if b[e] == '\r' && e+1 == len(b) && !eof {
			return 0, false, true
		}
		i = lineAfter(b, e)
	}
}

// pageFooter tells the footer line of a page of the RFC series: it ends
// with "[Page N]" after whitespace ("Schaad   Standards Track   [Page 90]").
func pageFooter(line []byte) bool {
	n := len(line)
	if n < len("x [Page 1]") || line[n-1] != ']' {
		return false
	}
	k := n - 2
	for k > 0 && '0' <= line[k] && line[k] <= '9' {
		k--
	}
	const page = "[Page "
	return k < n-2 && k+1 >= len(page) && string(line[k+1-len(page):k+1]) == page &&
		k+1-len(page) > 0 && isSpaceByte(line[k-len(page)])
}

// pageHeader tells the header line of a page of the RFC series: "RFC",
// a number, and a year at its end ("RFC 8152   COSE   July 2017").
func pageHeader(line []byte) bool {
	n := len(line)
	if n < len("RFC 1 x 2000") || string(line[:4]) != "RFC " || line[4] < '0' || line[4] > '9' {
		return false
	}
	for _, c := range line[n-4:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return isSpaceByte(line[n-5])
}

// foldMarker tells whether the '\' at index j ends its line: an RFC 8792
// fold marker. At the end of the buffered input the caller has asked for
// more (angleStop) before it gets here.
func foldMarker(b []byte, j int) bool {
	return j+1 < len(b) && (b[j+1] == '\n' || b[j+1] == '\r')
}

// angleDone delivers an angle candidate that reached its '>', unless it
// has nothing usable after its scheme.
func (s *Scanner) angleDone(st, rawEnd, next, schemeLen int, kind Kind, flags Flags, text []byte, hyph []int) outcome {
	s.text, s.hyph = text, hyph
	if !usable(text, schemeLen, kind) {
		return none
	}
	if len(hyph) > 0 {
		flags |= HyphenBreak
	} else {
		hyph = nil
	}
	s.emit(st, rawEnd, next, kind, DelimAngle, flags, text, hyph)
	return found
}

type stopKind uint8

const (
	stopNone  stopKind = iota // nothing found yet
	stopGT                    // '>'
	stopEnd                   // a character that always ends a URI (behaviour §4)
	stopBad                   // a control character or invalid UTF-8
	stopBlank                 // a blank line
	stopEOF                   // the end of input
)

// angleMemo remembers a stretch of input known to hold none of the things
// that end an angle context opened on a line of a given quote depth, and
// what ends it. The scan state at the end of the stretch does not depend
// on where in it the candidate started, since a candidate starts with a
// scheme letter, which resets that state.
type angleMemo struct {
	from, to int64 // [from, to) holds no stop
	st       angleState
	stop     stopKind
	valid    bool
}

// angleState is the scan state of angleStop between two bytes; angleBuild
// keeps the same in its own variables.
type angleState struct {
	blank       bool // after a line break with only whitespace (and quote prefix) since
	atLineStart bool // in the quote prefix of a continuation line
	dropped     int  // the '>' of that prefix dropped so far
	gap         bool // whitespace since the last content byte
	bad         bool // a character that cannot be in a URI on this line
	fold        bool // this line ends with an RFC 8792 fold marker
	afterFold   bool // a continuation line of a fold, before its content
}

// maxMemoDepth bounds the quote depths that get a memo of their own;
// prefixDepth never counts more.
const maxMemoDepth = 256

// angleMemo returns the memo of quote depth depth. The memo slice is only
// as long as the deepest depth seen since Reset, and zero past its length,
// so that Reset clears what was used: clearing all 257 memos (22 KiB) at
// every Reset was 2 % of the CPU of an mbox, whose messages give the
// scanner many short documents.
func (s *Scanner) angleMemo(depth int) *angleMemo {
	d := min(depth, maxMemoDepth)
	if d >= len(s.memo) {
		if s.memo == nil {
			s.memo = make([]angleMemo, 0, maxMemoDepth+1)
		}
		s.memo = s.memo[:d+1]
	}
	return &s.memo[d]
}

// angleStop finds what ends the angle context of a candidate starting at
// st on a line of the given quote depth: a '>' (beyond the quote prefix of
// a continuation line), a blank line, a control character, invalid UTF-8
// or the end of input. It returns stopNone when the length limit comes
// first, and more when the buffered input does not tell. It follows the
// same rules as angleBuild.
//
// A character that cannot be in a URI ('"', '{', '}', '|', '\', '^', '`')
// inside the wrapper is part of the candidate, which is then invalid as a
// whole (behaviour §3: <https://launchpad.net/\~user> is never cut to
// https://launchpad.net/). But it also tells when the '<' was no wrapper:
// a '<' inside, such a character at the start of a word (after
// whitespace: "Name < https://x {name}@host>"), or a line break after it
// before the '>' ("if (0 < http://x/|y)") abandon the angle context, as a
// blank line does, and the text after the '<' is read as if
// whitespace-delimited.
func (s *Scanner) angleStop(st, depth int) (stop int, k stopKind, more, run bool) {
	b := s.buf[:s.n]
	m := s.angleMemo(depth)
	abs := s.base + int64(st)
	j, t := st, angleState{}
	if m.valid && m.from <= abs && abs <= m.to && m.to <= s.base+int64(s.n) {
		if m.stop != stopNone {
			return int(m.to - s.base), m.stop, false, false
		}
		j, t = int(m.to-s.base), m.st
	} else {
		m.from, m.valid = abs, true
	}
	// run tells the caller that b[st:stop] is all uriRun bytes, read
	// here from st: the bytes of most angle URIs, which uriRun then need
	// not read again ("<https://lists.example.org/archive/x>", a header
	// field each message).
	run = j == st
	limit := min(s.n, st+s.maxLen+1)
	k = stopNone
scan:
	for ; j < limit; j++ {
		c := b[j]
		if c < utf8.RuneSelf && asciiClass[c]&cURI != 0 {
			// The bytes of the URI itself, most of them: a run at a
			// time ('>', whitespace, controls and '\\' are not cURI).
			for j+1 < limit && b[j+1] < utf8.RuneSelf && asciiClass[b[j+1]]&cURI != 0 {
				j++
			}
			t.blank, t.atLineStart, t.gap, t.afterFold = false, false, false, false
			continue
		}
		wasRun := run
		run = false
		switch {
		case c == '>':
			if t.atLineStart && t.dropped < depth {
				t.dropped++
				continue
			}
			k, run = stopGT, wasRun
			break scan
		case c == '\n' && b[j-1] == '\r':
		case c == '\n' || c == '\r':
			if !t.blank && !t.bad && depth == 0 {
				// An RFC page break is skipped whole, like whitespace.
				e, ok, more := 0, false, false
				if k := lineAfter(b, j); k >= len(b) || mayPageBreak(b[k]) {
					e, ok, more = pageBreakEnd(b, k, s.eof)
				}
				if more {
					break scan
				}
				if ok {
					j = e - 1
				}
			}
			if t.blank || t.bad {
				k = stopBlank
				break scan
			}
			t.blank, t.atLineStart, t.dropped, t.gap = true, depth > 0, 0, true
			t.afterFold, t.fold, t.bad = t.fold, false, false
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			t.gap = true
		case c < 0x20 || c == 0x7f:
			k = stopBad // as in angleBuild
			break scan
		case c == '\\' && j+1 == s.n && !s.eof:
			break scan // is it a fold marker? more input tells
		case c == '\\' && foldMarker(b, j):
			t.fold, t.blank, t.atLineStart = true, false, false
		case c == '\\' && t.afterFold:
			t.afterFold, t.blank, t.atLineStart = false, false, false
		case c < utf8.RuneSelf && asciiClass[c]&cURI == 0:
			if c == '<' || t.gap {
				k = stopBad
				break scan
			}
			t.bad, t.blank, t.atLineStart, t.gap, t.afterFold = true, false, false, false, false
		case c < utf8.RuneSelf:
			t.blank, t.atLineStart, t.gap, t.afterFold = false, false, false, false
		default:
			r, n := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && n <= 1 {
				if !utf8.FullRune(b[j:]) && !s.eof {
					break scan // more input may complete it
				}
				k = stopBad
				break scan
			}
			if r < 0xA0 {
				k = stopBad
				break scan
			}
			if unicode.IsSpace(r) {
				t.gap = true
			} else {
				if runeEndsURI(r) && !(isJoiner(r) && joinerContinues(b, j)) {
					k = stopEnd // as in angleBuild
					break scan
				}
				t.blank, t.atLineStart, t.gap, t.afterFold = false, false, false, false
			}
			j += n - 1
		}
	}
	// Field by field: a copy of t whole read its narrow stores back with
	// wide loads, which stalled.
	m.to, m.stop = s.base+int64(j), k
	m.st.blank, m.st.atLineStart, m.st.dropped, m.st.gap = t.blank, t.atLineStart, t.dropped, t.gap
	m.st.bad, m.st.fold, m.st.afterFold = t.bad, t.fold, t.afterFold
	if k != stopNone || j > st+s.maxLen {
		return j, k, false, run
	}
	if s.eof && j >= s.n {
		m.stop = stopEOF
		return j, stopEOF, false, false
	}
	return j, stopNone, true, false
}

// quoteCache keeps the quote depth (behaviour §3: the number of '>' in a quote
// prefix) of the line being scanned, also once its start has slid out of
// the buffer.
type quoteCache struct {
	lineStart int64 // where the line holding offset scanned-1 starts
	depth     int   // its quote depth, when known
	known     bool
	scanned   int64 // line breaks before this offset are accounted for
}

// depthAt returns the quote depth of the line holding index i.
func (q *quoteCache) depthAt(s *Scanner, i int) int {
	q.update(s, i)
	return q.depth
}

// advance accounts for the line breaks before index keep, before the buffer
// drops them.
func (q *quoteCache) advance(s *Scanner, keep int) { q.update(s, keep) }

func (q *quoteCache) update(s *Scanner, i int) {
	b := s.buf[:s.n]
	from := min(max(0, int(q.scanned-s.base)), i)
	if k := lastNewline(b[from:i]); k >= 0 {
		ls := from + k + 1
		q.lineStart, q.depth, q.known = s.base+int64(ls), prefixDepth(b[ls:]), true
	} else if !q.known && q.lineStart >= s.base {
		q.depth, q.known = prefixDepth(b[q.lineStart-s.base:]), true
	}
	q.scanned = max(q.scanned, s.base+int64(i))
}

// QuoteDepth counts the '>' of the mail quote prefix that line starts
// with: a run of '>', spaces and tabs beginning with '>' (behaviour §3).
func QuoteDepth(line []byte) int { return prefixDepth(line) }

func prefixDepth(line []byte) int {
	if len(line) == 0 || line[0] != '>' {
		return 0
	}
	depth := 0
	for _, c := range line[:min(len(line), 256)] {
		switch c {
		case '>':
			depth++
		case ' ', '\t':
		default:
			return depth
		}
	}
	return depth
}

// lastNewline is bytes.LastIndexByte(b, '\n'), fast also over a long line:
// LastIndexByte goes byte by byte, while IndexByte is vectorized.
func lastNewline(b []byte) int {
	if len(b) <= 32 {
		// The few bytes since the last candidate of text packed with
		// them ("<http://a/b>" repeated, a quote depth asked at each),
		// eight at a time: LastIndexByte's loop cost a twentieth of
		// the time of each.
		return lastNewlineShort(b)
	}
	// Lines are short in most text: look back a little first.
	lo := max(0, len(b)-256)
	if k := bytes.LastIndexByte(b[lo:], '\n'); k >= 0 {
		return lo + k
	}
	last := -1
	for from := 0; from < lo; {
		k := bytes.IndexByte(b[from:lo], '\n')
		if k < 0 {
			break
		}
		last = from + k
		from = last + 1
	}
	return last
}

// lastNewlineShort is lastNewline for a short b: the last word of eight
// bytes holding a '\n' found, then the byte in it.
func lastNewlineShort(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	e := len(b)
	for ; e >= 8; e -= 8 {
		// Zero bytes of x are the '\n' of the word; the high bit of
		// each is set in hit, and perhaps that of a byte above one.
		x := binary.LittleEndian.Uint64(b[e-8:e]) ^ 0x0A0A0A0A0A0A0A0A
		if hit := (x - ones) &^ x & highs; hit != 0 {
			return bytes.LastIndexByte(b[e-8:e], '\n') + e - 8
		}
	}
	return bytes.LastIndexByte(b[:e], '\n')
}

// maxSchemeGap bounds the whitespace (one line break, its indentation and
// a quote prefix) looked through inside a scheme or between a scheme's
// ':' and its "//" in the angle context. With maxSchemeRun, "URL:" and
// two maxGap it keeps a candidate's start within lookback of its anchor.
const maxSchemeGap = 64

// mayWrapAfter is the glance of the hot path before gapThenSlashes: after
// the ':' at i and the spaces and tabs that follow it, a wrap needs "/" or
// a line break next ("Note: this", a ':' every hundred bytes of prose,
// is turned down here). True when the buffer ends first.
func mayWrapAfter(b []byte, i int) bool {
	k := i + 1
	for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
		k++
	}
	return k == len(b) || b[k] == '/' || b[k] == '\n' || b[k] == '\r'
}

// mayWrapBefore is the same glance before a scheme broken inside itself:
// the part after the break stands at the start of a line, after its
// indentation and a quote prefix ("<ht" + newline + "   tp://x>"), so a
// line break comes first going back over spaces, tabs and '>' from j.
func mayWrapBefore(b []byte, j, floor int) bool {
	k := j
	for k > floor && (b[k-1] == ' ' || b[k-1] == '\t' || b[k-1] == '>') {
		k--
	}
	return k > floor && (b[k-1] == '\n' || b[k-1] == '\r')
}

// gapThenSlashes tells, for the ':' at index i followed by whitespace,
// whether a line break, then "//" and the authority, follow:
// "<http:" + newline + "  //example.com/a>". It is true also when the
// buffered input ends first, so that tryScheme asks for more. It is the
// cheap test of indexColonGlance; tryWrapped decides.
func gapThenSlashes(b []byte, i int) bool {
	k, ok := skipSchemeGap(b, i+1)
	return ok && wrappedSlashes(b, k) != 0
}

// wrappedSlashes tells whether "//" and a character that is not
// whitespace stand at index k: 1 when they do, 0 when not, -1 when the
// buffered input ends first. The text wraps where a line is full; a
// comment on the next line ("a < b:" + newline + "  // c > d", in code)
// has a space after its "//".
func wrappedSlashes(b []byte, k int) int {
	switch {
	case k+3 > len(b):
		return -1
	case b[k] == '/' && b[k+1] == '/' && !isSpaceByte(b[k+2]):
		return 1
	}
	return 0
}

// skipSchemeGap steps from index k over whitespace that holds at most one
// line break, after which a quote prefix ('>', spaces and tabs) may stand.
// It returns where that ends (len(b) when the buffer ends first), and
// false when there is a second line break (a blank line) or too much
// whitespace. (Code such as "case a < b: // c > d" is no URI: the "//" of a
// comment has a space after it, see wrappedSlashes.)
func skipSchemeGap(b []byte, k int) (int, bool) {
	start, breaks := k, 0
	for ; k < len(b) && k-start <= maxSchemeGap; k++ {
		switch c := b[k]; {
		case c == '\n' && k > start && b[k-1] == '\r':
		case c == '\n' || c == '\r':
			if breaks++; breaks > 1 {
				return k, false
			}
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
		case c == '>' && breaks > 0:
		default:
			return k, breaks <= 1
		}
	}
	return k, k-start <= maxSchemeGap
}

// skipSchemeGapBack is skipSchemeGap backwards from index k (exclusive),
// not below lo: the whitespace before the part of a scheme that follows a
// line break. It needs exactly one line break, and returns where the gap
// starts.
func skipSchemeGapBack(b []byte, k, lo int) (int, bool) {
	end, breaks := k, 0
	for ; k > lo && end-k <= maxSchemeGap; k-- {
		switch c := b[k-1]; {
		case c == '\r' && k < end && b[k] == '\n':
		case c == '\n' || c == '\r':
			if breaks++; breaks > 1 {
				return k, false
			}
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
		case c == '>' && breaks == 0:
			// A quote prefix stands after the break, before the scheme.
		default:
			return k, breaks == 1
		}
	}
	return k, false
}

// tryWrapped reads, at the ':' at index i, the two schemes that only the
// angle context rejoins (behaviour §3): one whose "//" follows after a
// line break ("<http:" + newline + "  //example.com/a>"), and one broken
// inside itself where the scheme joined across the break is registered
// ("<ht" + newline + "  tp://example.com/a>" gives http://example.com/a,
// as the RFC series wraps at 72 columns). ok is false when neither is
// there; tryScheme then goes on as for any ':'.
// j0 is where the run of scheme characters before the ':' starts.
func (s *Scanner) tryWrapped(i, j0 int) (out outcome, ok bool) {
	b := s.buf[:s.n]
	gapAfter := i+1 < s.n && isSpaceByte(b[i+1]) && mayWrapAfter(b, i)
	gapBefore := j0 > s.floor && isSpaceByte(b[j0-1]) && mayWrapBefore(b, j0, s.floor)
	if !gapAfter && !gapBefore {
		return none, false
	}
	j := j0
	for j < i && !isAlpha(b[j]) {
		j++ // leading '-', '+', '.', digits: not a scheme's start
	}
	slashes := i+2 < s.n && b[i+1] == '/' && b[i+2] == '/'
	if gapAfter {
		k, fine := skipSchemeGap(b, i+1)
		w := wrappedSlashes(b, k)
		if fine && w < 0 && !s.eof {
			return needMore, true
		}
		slashes = fine && w > 0
		if !slashes && !gapBefore {
			return none, false
		}
	}
	// Without "//" the joined scheme must be one of those written
	// without an authority, which have at most six letters: most ':'
	// that get here end a word ("default:" in code) and stop here.
	if gapBefore && (slashes || i-j0 < 6) {
		if st, schemeLen := s.joinedScheme(j0, i, slashes); st >= 0 {
			if out := s.angleAt(st, schemeLen); out != none {
				return out, true
			}
		}
	}
	if !gapAfter || !slashes || j == i || bytes.EqualFold(b[j:i], []byte("url")) {
		return none, false // "<URL: //x>": URL: is the prefix, not a scheme
	}
	k := s.schemeIn(b[j:i], true, false)
	if k < 0 {
		return none, false
	}
	if out := s.angleAt(j+k, i-j-k); out != none {
		return out, true
	}
	return none, false
}

// joinedScheme looks, for the scheme part b[j:i] before the ':' at i,
// across the line break before it for the rest of the scheme: a run of
// scheme characters, starting with a letter, that the angle context
// holds. It returns where the scheme starts and its length when the
// scheme joined across the break is registered (or listed, with
// Config.Schemes) and accepted as behaviour §2 says, else -1.
func (s *Scanner) joinedScheme(j, i int, slashes bool) (st, schemeLen int) {
	b := s.buf[:s.n]
	g, ok := skipSchemeGapBack(b, j, max(s.floor, j-maxSchemeGap))
	if !ok {
		return -1, 0
	}
	r := g
	for r > s.floor && g-r < maxSchemeRun && isSchemeByte(b[r-1]) {
		r--
	}
	if r == g || !isAlpha(b[r]) || r > s.floor && isSchemeByte(b[r-1]) {
		return -1, 0
	}
	if d, _, _ := s.context(r); d != DelimAngle {
		return -1, 0
	}
	// The joined name, in a buffer kept by the scanner: one on the stack
	// would escape to the heap through Config.IsRegistered.
	s.joined = append(append(s.joined[:0], b[r:g]...), b[j:i]...)
	if !s.known(s.joined) || s.schemeIn(s.joined, slashes, false) != 0 {
		return -1, 0
	}
	return r, len(s.joined)
}

// angleAt reads the candidate starting at st in the angle context, if its
// context is that; none when it is not, or when the context is abandoned.
func (s *Scanner) angleAt(st, schemeLen int) outcome {
	d, urlPrefix, opener := s.context(st)
	if d != DelimAngle {
		return none
	}
	var flags Flags
	if urlPrefix {
		flags |= URLPrefix
	}
	return s.angle(st, opener, schemeLen, KindScheme, flags)
}
