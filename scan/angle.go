package scan

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// angle reads a candidate in the angle context (SPEC 3): it runs to the
// closing '>', all whitespace dropped, so a URI broken across lines is
// rejoined; in a quoted mail reply the quote prefix of each continuation
// line is dropped too. It returns none when the context is abandoned.
func (s *Scanner) angle(st, opener, schemeLen int, kind Kind, flags Flags) outcome {
	depth := s.quote.depthAt(s, opener)
	// Most '<' that fail, fail again and again on the same stretch
	// (1 GiB of "<http://x " with no '>', quoted or not): the memo
	// answers them in linear time in all.
	stop, k, more := s.angleStop(st, depth)
	if more {
		return needMore
	}
	if k != stopGT && k != stopEnd || stop-st > s.maxLen {
		return none
	}
	return s.angleBuild(st, depth, schemeLen, kind, flags)
}

// angleBuild collects the text of an angle candidate from st to its '>'.
func (s *Scanner) angleBuild(st, depth, schemeLen int, kind Kind, flags Flags) outcome {
	b := s.buf[:s.n]
	text, hyph := s.text[:0], s.hyph[:0]
	j, rawEnd := st, st
	// State of the current line: at its start (quote prefix being
	// dropped), '>' dropped so far, nothing but whitespace since a line
	// break; and whitespace dropped since the last content byte.
	atLineStart, dropped, blank, gap := false, 0, false, false
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
			if blank {
				return none // a blank line before '>'
			}
			if n := len(text); n > 0 && text[n-1] == '-' {
				pendingHyphen = n - 1
			}
			blank, atLineStart, dropped, gap = true, depth > 0, 0, true
			j++
			continue
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			gap = true
			j++
			continue
		case c < 0x20 || c == 0x7f:
			return none // NUL and other controls end the context (SPEC 1)
		case c < utf8.RuneSelf && asciiClass[c]&cURI == 0:
			// '<', '"', '{', '}', '|', '\', '^', '`' never stand in a URI, with
			// or without whitespace: the '<' was not a wrapper but a
			// less-than ("0 < http://x = c && c < 32"; "Name <
			// http://x user@host>" then reads http://x).
			return none
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
			if runeEndsURI(r) {
				// What always ends a URI (SPEC 4: quotation marks,
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
		atLineStart, blank, gap = false, false, false
		text = append(text, b[j:j+size]...)
		j += size
		rawEnd = j
	}
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
	stopEnd                   // a character that always ends a URI (SPEC 4)
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
	from, to    int64 // [from, to) holds no stop
	blank       bool  // at to: after a line break with only whitespace (and quote prefix) since
	atLineStart bool  // at to: in the quote prefix of a continuation line
	dropped     int   // at to: the '>' of that prefix dropped so far
	stop        stopKind
	valid       bool
}

// maxMemoDepth bounds the quote depths that get a memo of their own;
// prefixDepth never counts more.
const maxMemoDepth = 256

// angleStop finds what ends the angle context of a candidate starting at
// st on a line of the given quote depth: a '>' (beyond the quote prefix of
// a continuation line), a blank line, a control character, invalid UTF-8
// or the end of input. It returns stopNone when the length limit comes
// first, and more when the buffered input does not tell. It follows the
// same rules as angleBuild.
func (s *Scanner) angleStop(st, depth int) (stop int, k stopKind, more bool) {
	b := s.buf[:s.n]
	if s.memo == nil {
		s.memo = make([]angleMemo, maxMemoDepth+1)
	}
	m := &s.memo[min(depth, maxMemoDepth)]
	abs := s.base + int64(st)
	j, blank, atLineStart, dropped := st, false, false, 0
	if m.valid && m.from <= abs && abs <= m.to && m.to <= s.base+int64(s.n) {
		if m.stop != stopNone {
			return int(m.to - s.base), m.stop, false
		}
		j, blank, atLineStart, dropped = int(m.to-s.base), m.blank, m.atLineStart, m.dropped
	} else {
		m.from, m.valid = abs, true
	}
	limit := min(s.n, st+s.maxLen+1)
	k = stopNone
scan:
	for ; j < limit; j++ {
		c := b[j]
		switch {
		case c == '>':
			if atLineStart && dropped < depth {
				dropped++
				continue
			}
			k = stopGT
			break scan
		case c == '\n' && b[j-1] == '\r':
		case c == '\n' || c == '\r':
			if blank {
				k = stopBlank
				break scan
			}
			blank, atLineStart, dropped = true, depth > 0, 0
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
		case c < 0x20 || c == 0x7f || c < utf8.RuneSelf && asciiClass[c]&cURI == 0:
			k = stopBad // as in angleBuild
			break scan
		case c < utf8.RuneSelf:
			blank, atLineStart = false, false
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
			if !unicode.IsSpace(r) {
				if runeEndsURI(r) {
					k = stopEnd // as in angleBuild
					break scan
				}
				blank, atLineStart = false, false
			}
			j += n - 1
		}
	}
	m.to, m.blank, m.atLineStart, m.dropped, m.stop = s.base+int64(j), blank, atLineStart, dropped, k
	if k != stopNone || j > st+s.maxLen {
		return j, k, false
	}
	if s.eof && j >= s.n {
		m.stop = stopEOF
		return j, stopEOF, false
	}
	return j, stopNone, true
}

// quoteCache keeps the quote depth (SPEC 3: the number of '>' in a quote
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
// with: a run of '>', spaces and tabs beginning with '>' (SPEC 3).
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
