package scan

import (
	"unicode"
	"unicode/utf8"
)

// skipState follows a candidate longer than the limit to its end, keeping
// none of it (SPEC 1: skipped, reported, and the scan goes on).
type skipState struct {
	active bool
	at     int64 // where the scan of the candidate resumes
	start  int64
	line   int64
	col    int64
	kind   Kind
	delim  Delim
	depth  int
	flags  Flags
}

func (s *Scanner) startSkip(st, at int, kind Kind, d Delim, depth int, flags Flags) {
	line, col := s.position(s.base + int64(st))
	s.skip = skipState{
		active: true, at: s.base + int64(at), start: s.base + int64(st),
		line: line, col: col, kind: kind, delim: d, depth: depth, flags: flags,
	}
}

func (s *Scanner) skipOn() outcome {
	b := s.buf[:s.n]
	open, closer := brackets(s.skip.delim)
	end, depth, partial := plainRun(b, int(s.skip.at-s.base), open, closer, s.skip.depth)
	s.skip.depth = depth
	if partial && !s.eof {
		s.skip.at = s.base + int64(end)
		return needMore
	}
	s.skip.active = false
	s.cand = Candidate{
		Kind:   s.skip.kind,
		Offset: s.skip.start,
		End:    s.base + int64(end),
		Line:   s.skip.line,
		Column: s.skip.col,
		Delim:  s.skip.delim,
		Flags:  s.skip.flags | TooLong,
	}
	s.pos, s.floor = end, end
	return found
}

// tryWWW looks at the "www." at index i (Config.WWW).
func (s *Scanner) tryWWW(i int) outcome {
	if i < s.floor || (i > 0 && !wordBoundaryBefore(s.buf[:i])) {
		return none
	}
	return s.candidateAt(i, 0, KindWWW)
}

// wordBoundaryBefore reports whether b ends with a character after which a
// bare host may start: not a letter, digit or one of the characters that
// would make it part of a word, path or address.
func wordBoundaryBefore(b []byte) bool {
	c := b[len(b)-1]
	if c < utf8.RuneSelf {
		return !isSchemeByte(c) && c != '/' && c != '@' && c != '_' && c != '%' && c != ':' && c != '\\'
	}
	r, _ := utf8.DecodeLastRune(b)
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// wwwHost reports whether a www candidate's host has a label after "www."
// and a dot after that: www.example.com, not www.example or www..
func wwwHost(text []byte) bool {
	host := text[min(4, len(text)):]
	for i, c := range host {
		if c == '/' || c == '?' || c == '#' || c == ':' {
			host = host[:i]
			break
		}
	}
	dot := -1
	for i, c := range host {
		if c == '.' {
			if i == 0 || i == dot+1 {
				return false
			}
			dot = i
		}
	}
	return dot > 0 && dot < len(host)-1
}

const maxLocalPart = 64 // RFC 5321 4.5.3.1.1

// tryEmail looks at the '@' at index i (Config.Email): a bare
// user@host.tld.
func (s *Scanner) tryEmail(i int) outcome {
	b := s.buf[:s.n]
	lo := max(s.floor, i-maxLocalPart)
	j := i
	for j > lo && asciiClass[b[j-1]]&cLocal != 0 {
		j--
	}
	if j == lo && j > s.floor && asciiClass[b[j-1]]&cLocal != 0 {
		return none // a local part too long to be one
	}
	for j < i && b[j] == '.' {
		j++
	}
	if j == i || b[i-1] == '.' {
		return none
	}
	if j > 0 && (b[j-1] == '/' || b[j-1] == ':') {
		return none // part of a path or of a URI's userinfo
	}
	end, ok := s.domainEnd(i + 1)
	if !ok {
		return needMore
	}
	if end < 0 {
		return none
	}
	d, _, _ := s.context(j)
	if end-j > s.maxLen {
		// Longer than the limit, like any other candidate (SPEC 1).
		s.startSkip(j, end, KindEmail, DelimNone, 0, 0)
		s.skip.active = false
		s.cand = Candidate{
			Kind: KindEmail, Offset: s.skip.start, End: s.base + int64(end),
			Line: s.skip.line, Column: s.skip.col, Flags: TooLong,
		}
		s.pos, s.floor = end, end
		return found
	}
	next := end
	if closer := closerOf(d); closer != 0 {
		if end < s.n && b[end] == closer {
			next = end + 1
		} else {
			d = DelimNone
		}
	}
	s.emit(j, end, next, KindEmail, d, 0, b[j:end], nil)
	return found
}

// domainEnd reads a host name from index k: dot-separated labels of
// letters, digits and hyphens, the last one a top-level domain of the
// IANA list. It returns the end, -1 when there is no such host, and ok ==
// false when the buffered input does not tell.
func (s *Scanner) domainEnd(k int) (end int, ok bool) {
	b := s.buf[:s.n]
	const maxDomain = 253
	labelStart, dots, lastDot := k, 0, -1
	j := k
	for ; j < s.n && j-k <= maxDomain; j++ {
		c := b[j]
		if asciiClass[c]&cDomain != 0 {
			continue
		}
		if c == '.' && j > labelStart && j+1 < s.n && asciiClass[b[j+1]]&cDomain != 0 {
			dots, lastDot, labelStart = dots+1, j, j+1
			continue
		}
		if c == '.' && j+1 == s.n && !s.eof {
			return 0, false
		}
		break
	}
	if j == s.n && !s.eof {
		return 0, false
	}
	if dots == 0 || j-k > maxDomain {
		return -1, true
	}
	if !isTopLevelDomain(b[lastDot+1 : j]) {
		return -1, true // image@2x.png, user@host.local
	}
	return j, true
}

//go:generate go run gen_tlds.go

// isTopLevelDomain reports whether label is in the IANA list of top-level
// domains, in any case, without allocating.
func isTopLevelDomain(label []byte) bool {
	var low [64]byte
	if len(label) < 2 || len(label) > len(low) {
		return false
	}
	for i, c := range label {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	name := low[:len(label)]
	lo, hi := 0, len(topLevelDomains)
	for lo < hi {
		// Comparing with string(name) does not allocate.
		if m := int(uint(lo+hi) >> 1); topLevelDomains[m] < string(name) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(topLevelDomains) && topLevelDomains[lo] == string(name)
}

// closerOf gives the byte that closes the delimiter d, or 0 for DelimNone.
func closerOf(d Delim) byte {
	switch d {
	case DelimAngle:
		return '>'
	case DelimQuote:
		return '"'
	}
	_, closer := brackets(d)
	return closer
}
