package scan

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// skipState follows a candidate longer than the limit to its end, keeping
// none of it (behaviour §1: skipped, reported, and the scan goes on).
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

// wwwHost reports whether a www candidate's host starts with "www.", has a
// label after it and a dot after that: www.example.com, not www.example or
// www.. An '@' in the authority makes what stands before it userinfo: the
// host of www.info@evil.example is evil.example, and it is not reported
// (behaviour §2).
func wwwHost(text []byte) bool {
	// One pass: the searches for '@' and ':' of the host, then the walk
	// over its dots, cost a tenth of the time of each "www.a.com" of
	// hostile input packed with them.
	host := text[min(4, len(text)):]
	n, colon, dot := len(host), -1, -1
hostEnd:
	for i, c := range host {
		switch c {
		case '/', '?', '#':
			n = i
			break hostEnd
		case '@':
			return false
		case ':':
			if colon < 0 {
				colon = i
			}
		case '.':
			if colon < 0 {
				if i == 0 || i == dot+1 {
					return false
				}
				dot = i
			}
		}
	}
	if colon >= 0 {
		n = colon
	}
	return dot > 0 && dot < n-1
}

const maxLocalPart = 64 // RFC 5321 4.5.3.1.1

// tryEmail looks at the '@' at index i (Config.Email): a bare
// user@host.tld (behaviour §2). The local part is RFC 5322 dot-atom text
// with the UTF-8 of RFC 6531, taken whole: it starts after a character
// that cannot be in it, never inside a run of such characters
// (o'brien@example.com is not brien@example.com).
func (s *Scanner) tryEmail(i int) outcome {
	b := s.buf[:s.n]
	lo := max(s.floor, i-maxLocalPart-utf8.UTFMax)
	j := i
	var seen uint16 // the classes of the local part's bytes
	for j > lo {
		c := b[j-1]
		if c < utf8.RuneSelf {
			if asciiClass[c]&cLocal == 0 {
				break
			}
			seen |= asciiClass[c]
			j--
			continue
		}
		r, size := utf8.DecodeLastRune(b[lo:j])
		if !localRune(r) {
			break
		}
		seen |= cEscape
		j -= size
	}
	if j == i || i-j > maxLocalPart || j > 0 && endsInLocal(b[:j]) {
		// No local part, one too long to be one, or the tail of a run
		// that a previous candidate or the look-back cut.
		return none
	}
	if b[j] == '/' {
		return none // a path, or the authority of a URI not found
	}
	end, ok := s.domainEnd(i + 1)
	if !ok {
		return needMore
	}
	if end < 0 {
		return none
	}
	if end < s.n && b[end] == ':' {
		// user@host:path is scp's and git's, not an address; a ':' that
		// ends a sentence or a label leaves it one.
		if end+1 == s.n && !s.eof {
			return needMore
		}
		if end+1 < s.n && scpPathByte(b[end+1]) {
			return none
		}
	}
	// Markup around the address ('a@x.com', `a@x.com`, *a@x.com*,
	// {a@x.com}) is not part of the local part, though its opener could be.
	w := 0
	for j+w < i {
		closer := wrapperCloser(b[j+w])
		if closer == 0 {
			break
		}
		if end+w == s.n && !s.eof {
			return needMore
		}
		if end+w == s.n || b[end+w] != closer {
			break
		}
		w++
	}
	j += w
	// A local part that ends in a quoted string (test."foo".bar@x) is
	// not taken in part (behaviour §2.9, revision 5).
	if j > 0 && j < i && b[j] == '.' && b[j-1] == '"' {
		return none
	}
	// Dots only between the atoms: a leading one is punctuation, a
	// doubled or trailing one makes it no dot-atom.
	for j < i && b[j] == '.' {
		j++
	}
	if j == i || b[i-1] == '.' || bytes.Contains(b[j:i], []byte("..")) {
		return none
	}
	d, _, opener := s.context(j)
	if d == DelimAngle && newsAttribution(b, opener) || s.messageIDLine(j) {
		return none // In article <id@host>, X wrote: a Message-ID
	}
	if end-j > s.maxLen {
		// Longer than the limit, like any other candidate (behaviour §1).
		s.startSkip(j, end, KindEmail, DelimNone, 0, 0)
		s.skip.active = false
		s.cand = Candidate{
			Kind: KindEmail, Offset: s.skip.start, End: s.base + int64(end),
			Line: s.skip.line, Column: s.skip.col, Flags: TooLong,
		}
		s.pos, s.floor = end, end
		return found
	}
	next := end + w
	if closer := closerOf(d); closer != 0 {
		if end < s.n && b[end] == closer {
			next = max(next, end+1)
		} else {
			d = DelimNone
		}
	}
	var flags Flags
	if seen&cEscape != 0 {
		flags = LocalEscape // a wrapper's opener may have set it: extract looks
	}
	s.emit(j, end, next, KindEmail, d, flags, b[j:end], nil)
	return found
}

// localRune reports whether the non-ASCII rune r may stand in the local
// part of an address: a letter or digit of any script (RFC 6531), or a
// combining mark, which belongs to the letter before it.
func localRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

// endsInLocal reports whether b ends with a character of a local part.
func endsInLocal(b []byte) bool {
	if c := b[len(b)-1]; c < utf8.RuneSelf {
		return asciiClass[c]&cLocal != 0
	}
	r, _ := utf8.DecodeLastRune(b)
	return localRune(r)
}

// scpPathByte reports whether c, right after "user@host:", starts a path
// or port (git@github.com:user/repo, host:22), not the text after a label.
func scpPathByte(c byte) bool {
	return asciiClass[c]&cDomain != 0 || c == '/' || c == '~' || c == '_' || c == '%' || c >= utf8.RuneSelf
}

// wrapperCloser gives the closer of markup that may wrap an address and
// whose opener is a character of a local part: quotes, Markdown's code and
// emphasis, braces, bars. 0 for any other byte.
func wrapperCloser(c byte) byte {
	switch c {
	case '\'', '`', '*', '_', '|', '~':
		return c
	case '{':
		return '}'
	}
	return 0
}

// newsAttribution reports whether the '<' at index o opens the Message-ID
// of a news attribution line, "In article <id@host>, X wrote:": "In
// article" (any case, blanks between) stands right before it.
func newsAttribution(b []byte, o int) bool {
	lo := max(0, o-maxGap)
	k := o
	for k > lo && (b[k-1] == ' ' || b[k-1] == '\t') {
		k--
	}
	const article = "article"
	if k-len(article) < lo || !bytes.EqualFold(b[k-len(article):k], []byte(article)) {
		return false
	}
	k -= len(article)
	m := k
	for k > lo && (b[k-1] == ' ' || b[k-1] == '\t') {
		k--
	}
	if k == m || k-2 < lo || !bytes.EqualFold(b[k-2:k], []byte("in")) {
		return false
	}
	k -= 2
	return k == 0 || !isAlpha(b[k-1])
}

// messageIDLine tells whether the address candidate starting at index j
// is the message id of an attribution line of news or mail, or of a
// quoted header field (behaviour §2.9, revision 5): on a line that starts
// (after a quote prefix and blanks) with "In <", "In article <", "From
// article <" and the id, or "In article " and the id with no brackets;
// or a quoted line "> Message-ID:", "> References:" or "> In-Reply-To:".
// It looks back at most maxGap bytes for the line's start.
func (s *Scanner) messageIDLine(j int) bool {
	b := s.buf[:s.n]
	// Every form has '<' or a blank right before the id: most addresses
	// are turned down here, without the look back for the line's start
	// (a run of "a@b.com " spent a third of its time in it).
	if j == 0 {
		return false
	}
	if c := b[j-1]; c != '<' && (c != ' ' && c != '\t' || j < 2 || b[j-2]|0x20 != 'e' && !isSpaceByte(b[j-2]) || !articleBefore(b, j-1)) {
		return false
	}
	lo := max(0, j-maxGap)
	ls := j
	for ls > lo && !isLineBreak(b[ls-1]) {
		ls--
	}
	if !(ls > 0 && isLineBreak(b[ls-1]) || ls == 0 && s.base == 0 && !s.cfg.StartsMidLine) {
		return false // the line starts too far back, or before the input
	}
	k := ls
	depth := 0
	for k < j && (b[k] == '>' || b[k] == ' ' || b[k] == '\t') {
		if b[k] == '>' {
			depth++
		}
		k++
	}
	head := b[k:j]
	if depth > 0 {
		for _, f := range [...]string{"message-id:", "references:", "in-reply-to:"} {
			if len(head) >= len(f) && bytes.EqualFold(head[:len(f)], []byte(f)) {
				return true
			}
		}
	}
	for _, form := range [...]string{"in article", "from article", "in"} {
		if len(head) <= len(form) || !bytes.EqualFold(head[:len(form)], []byte(form)) {
			continue
		}
		rest := head[len(form):]
		n := 0
		for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t') {
			n++
		}
		if n == 0 {
			continue
		}
		rest = rest[n:]
		if len(rest) == 0 {
			return form == "in article" // In article id@host, X wrote:
		}
		if len(rest) == 1 && rest[0] == '<' {
			return true
		}
	}
	return false
}

// articleBefore tells whether "article" and blanks stand before index k.
func articleBefore(b []byte, k int) bool {
	for k > 0 && (b[k-1] == ' ' || b[k-1] == '\t') {
		k--
	}
	const article = "article"
	return k >= len(article) && bytes.EqualFold(b[k-len(article):k], []byte(article))
}

// domainEnd reads a host name from index k: dot-separated labels of
// letters and digits of any script (U-labels) and hyphens, the last one a
// top-level domain of the IANA root zone. It returns the end, -1 when there
// is no such host, and ok == false when the buffered input does not tell.
func (s *Scanner) domainEnd(k int) (end int, ok bool) {
	b := s.buf[:s.n]
	const maxDomain = 253
	labelStart, dots, lastDot, ascii := k, 0, -1, true
	j := k
	lim := min(s.n, k+maxDomain+1)
	for j < lim {
		// The ASCII letters, digits and hyphens of a label, a run at a
		// time, in a loop of half the instructions.
		for j < lim && asciiClass[b[j]]&cDomain != 0 {
			j++
		}
		if j == lim {
			break
		}
		c := b[j]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && size <= 1 && !utf8.FullRune(b[j:]) && !s.eof {
				return 0, false
			}
			if !localRune(r) {
				break
			}
			ascii = false
			j += size
			continue
		}
		if c == '.' && j > labelStart {
			if b[labelStart] == '-' || b[j-1] == '-' {
				// A label neither starts nor ends with '-' (RFC 1035
				// 2.3.1): a@-foo.com is no address.
				return -1, true
			}
			if j+1 == s.n && !s.eof {
				return 0, false
			}
			if next, more := s.domainStart(j + 1); more {
				return 0, false
			} else if next {
				dots, lastDot, labelStart, ascii = dots+1, j, j+1, true
				j++
				continue
			}
		}
		break
	}
	if j == s.n && !s.eof {
		return 0, false
	}
	// A '-' after the last label is punctuation (a@example.com-).
	for j > labelStart && b[j-1] == '-' {
		j--
	}
	if dots == 0 || j-k > maxDomain || j == labelStart || b[labelStart] == '-' {
		return -1, true
	}
	tld := b[lastDot+1 : j]
	if !ascii {
		// A U-label: the root zone lists its A-label (xn--p1ai for рф).
		a, err := idna.Lookup.ToASCII(string(tld))
		if err != nil {
			return -1, true
		}
		tld = []byte(a)
	}
	if !isTopLevelDomain(tld) {
		if k := gluedLabel(tld); ascii && k > 0 {
			return lastDot + 1 + k, true // a@example.comAre: a glued word
		}
		return -1, true // image@2x.png, user@host.local
	}
	return j, true
}

// domainStart reports whether a label starts at index j; more is set when
// the buffered input does not tell.
func (s *Scanner) domainStart(j int) (ok, more bool) {
	b := s.buf[:s.n]
	if j >= s.n {
		return false, !s.eof
	}
	if c := b[j]; c < utf8.RuneSelf {
		return asciiClass[c]&cDomain != 0, false
	}
	r, size := utf8.DecodeRune(b[j:])
	if r == utf8.RuneError && size <= 1 && !utf8.FullRune(b[j:]) && !s.eof {
		return false, true
	}
	return localRune(r), false
}

//go:generate go run gen_tlds.go

// isTopLevelDomain reports whether label is in the IANA list of top-level
// domains, in any case, without allocating.
func isTopLevelDomain(label []byte) bool {
	var low [64]byte
	if len(label) < 2 || len(label) > len(low) {
		return false
	}
	h := uint32(tldHashSeed)
	for i, c := range label {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
		h = (h ^ uint32(c)) * tldHashPrime
	}
	name := low[:len(label)]
	for k := h & (tldSlots - 1); ; k = (k + 1) & (tldSlots - 1) {
		e := tldTable[k]
		if e == 0 {
			return false
		}
		// Comparing with string(name) does not allocate.
		if topLevelDomains[e-1] == string(name) {
			return true
		}
	}
}

// FNV-1a, 32 bits, over the lower-case bytes of a name, into tldSlots
// slots (a power of two).
const (
	tldHashSeed  = 2166136261
	tldHashPrime = 16777619
	tldSlots     = 1 << 12
)

// tldTable holds, at the hash of each top-level domain (open addressing,
// the next slot on a collision), its index in topLevelDomains plus one;
// 0 is an empty slot. A third full, a lookup compares with one name,
// most often: the binary search of every address's domain, over the
// names of its first two bytes, spent more than a tenth of the time of a
// run of "a@b.com ", comparing them (issue #17). A pass over the list at
// start-up makes it, in microseconds, with no allocation.
var tldTable = func() (t [tldSlots]uint16) {
	for i, name := range topLevelDomains {
		h := uint32(tldHashSeed)
		for j := 0; j < len(name); j++ {
			h = (h ^ uint32(name[j])) * tldHashPrime
		}
		k := h & (tldSlots - 1)
		for t[k] != 0 {
			k = (k + 1) & (tldSlots - 1)
		}
		t[k] = uint16(i + 1)
	}
	return t
}()

// closerOf gives the byte that closes the delimiter d, or 0 for DelimNone.
func closerOf(d Delim) byte {
	switch d {
	case DelimAngle:
		return '>'
	case DelimQuote:
		return '"'
	case delimSingle:
		return '\''
	}
	_, closer := brackets(d)
	return closer
}
