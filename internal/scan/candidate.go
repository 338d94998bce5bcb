package scan

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// context reads what stands before the candidate starting at st (behaviour §3):
// an optional "URL:" prefix, then an opening delimiter. It returns the
// delimiter, whether "URL:" was there, and the index of the opener.
func (s *Scanner) context(st int) (d Delim, urlPrefix bool, opener int) {
	b := s.buf
	k := st
	// "URL:", any case, with or without spaces after it.
	m := skipSpaceBack(b, k, max(s.floor, k-maxGap))
	if m-4 >= s.floor && bytes.EqualFold(b[m-4:m], []byte("URL:")) && (m-4 == 0 || !isSchemeByte(b[m-5])) {
		urlPrefix, k = true, m-4
	}
	// '<', with nothing but whitespace before the scheme or "URL:".
	if m := skipSpaceBack(b, k, max(s.floor, k-maxGap)); m > s.floor && b[m-1] == '<' {
		return DelimAngle, urlPrefix, m - 1
	}
	if k > s.floor {
		switch b[k-1] {
		case '"':
			return DelimQuote, urlPrefix, k - 1
		case '\'':
			return delimSingle, urlPrefix, k - 1
		case '[':
			return DelimBracket, urlPrefix, k - 1
		case '{':
			return DelimBrace, urlPrefix, k - 1
		case '(':
			return DelimParen, urlPrefix, k - 1
		}
	}
	return DelimNone, urlPrefix, -1
}

// skipSpaceBack steps back from k over ASCII whitespace, not below lo.
func skipSpaceBack(b []byte, k, lo int) int {
	for k > lo && isSpaceByte(b[k-1]) {
		k--
	}
	return k
}

// candidateAt reads the candidate that starts at index st; schemeLen is the
// length of its scheme (0 for www and e-mail candidates).
func (s *Scanner) candidateAt(st, schemeLen int, kind Kind) outcome {
	d, urlPrefix, opener := s.context(st)
	s.opener = opener
	if kind == KindScheme && d != DelimQuote && d != delimSingle && !noGlance && nothingAfter(s.buf[:s.n], st+schemeLen+1) &&
		!fileRoot(s.buf[st:s.n]) {
		return none
	}
	var flags Flags
	if urlPrefix {
		flags |= URLPrefix
	}
	if d == DelimAngle {
		switch out := s.angle(st, opener, schemeLen, kind, flags); out {
		case found, needMore:
			return out
		}
		// No '>' before a blank line, a control character, the end of
		// input or the length limit: the angle context is abandoned and
		// the text after '<' read as if whitespace-delimited (behaviour §3).
		d = DelimNone
	}
	return s.plain(st, schemeLen, kind, d, flags)
}

// nothingAfter tells whether the scheme whose ':' ends at index k has
// nothing usable after it (usable), whatever the context but "...": the
// slashes that may follow it end at '<', '>' or a control character, which
// end the angle context (angleStop, angleBuild) and every other one
// (plainRun). Inside "..." only a control character ends it (quotedRun):
// the caller asks for other contexts. A run of "<http://" or "<URL:" was
// read so, the angle context and then the plain one, to be thrown away
// (issue #17).
func nothingAfter(b []byte, k int) bool {
	for k < len(b) && b[k] == '/' {
		k++
	}
	if k == len(b) {
		return false // the input after it decides
	}
	c := b[k]
	return c == '<' || c == '>' || c == 0x7f || c < 0x20 && !isSpaceByte(c)
}

// plain reads a candidate delimited by whitespace, quotes or brackets.
func (s *Scanner) plain(st, schemeLen int, kind Kind, d Delim, flags Flags) outcome {
	b := s.buf[:s.n]
	limit := min(s.n, st+s.maxLen+utf8.UTFMax)
	open, closer := brackets(d)
	var end, depth int
	var partial bool
	if d == DelimNone {
		end, partial = bareRun(b[:limit], st)
	} else {
		end, depth, partial = plainRun(b[:limit], st, open, closer, 0)
	}
	if end-st > s.maxLen {
		s.startSkip(st, end, kind, d, depth, flags)
		return none
	}
	if partial && !s.eof {
		return needMore
	}
	// The tests below are made at each candidate: each is asked first
	// of the byte that ended the run, here, without a call (most runs
	// end at a space, and "http://a/b " repeated spent half as much
	// again in the calls).
	stop := byte(' ')
	if end < s.n {
		stop = b[end]
	}
	if !isSpaceByte(stop) && stop != '"' && stop != '<' && stop != '>' {
		if e, cutter, more := s.wholeAuthority(st, schemeLen, end, kind, d, depth); more {
			return needMore
		} else if cutter {
			end, flags = e, flags|Unusable
			if end-st > s.maxLen {
				// The whole run, taken so as not to cut it to another
				// host, is over the limit: skipped as any other
				// (behaviour §1; FuzzExtract found it).
				s.startSkip(st, end, kind, d, depth, flags)
				return none
			}
		}
	}
	quoted := d == DelimQuote || d == delimSingle
	if d == delimSingle {
		// '...': the next ' on the line ends it, unless whitespace
		// comes first (xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>).
		if q := bytes.IndexByte(b[st:end], '\''); q >= 0 {
			end = st + q
		}
	}
	if d == DelimParen || d == DelimBrace {
		end = unbalancedBracket(b, st, end) // bareRun's rule, in these contexts
	}
	cut := end // where a character that cannot be in a URI cut the run
	if quoted && end < limit && wrappedBad(b[end]) {
		// Inside "..." the candidate is the whole text up to the closing
		// quote: a character that cannot be in a URI makes it invalid,
		// it does not cut it to a valid prefix (behaviour §3).
		q, partial := quotedRun(b[:limit], end, quoteCloser(d))
		switch {
		case partial && limit == s.n && !s.eof:
			return needMore
		case partial:
			// No closer within the length limit: cut as before.
		case b[q] == quoteCloser(d) || b[q] == '\\' || isLineBreak(b[q]) && d == DelimQuote:
			end = q
		}
	}
	text := b[st:end]
	rawEnd, next := end, end
	var hyph []int
	brk := none
	if end < s.n && (b[end] == '\\' || isLineBreak(b[end]) && (d == DelimQuote || d == DelimParen || b[end-1] == '\\')) {
		brk = s.breakAt(st, end, d)
	}
	switch brk {
	case needMore:
		return needMore
	case found:
		t, ok := s.rejoin(st, end, depth, d, d == DelimQuote || d == DelimParen)
		if ok && t == 0 && s.foldAt(st, end) {
			// No closer after the break: an RFC 8792 fold is still one.
			t, ok = s.rejoin(st, end, depth, d, false)
		}
		switch {
		case !ok:
			return needMore
		case t == 0 && cut != end:
			// Not rejoined: the run over the bad character did not reach
			// the closer after all.
			end = cut
			text, rawEnd, next = b[st:end], end, end
		case t > 0:
			text, rawEnd, next = s.text, t, t
			flags |= Rejoined
			if len(s.hyph) > 0 {
				hyph = s.hyph
				flags |= HyphenBreak
			}
		}
	}
	n := s.trimEmph(text)
	if len(text) > n && rawEnd != end {
		// Punctuation trimmed from the continuation of a rejoined URI.
		rawEnd -= len(text) - n
		if rawEnd <= s.contStart {
			// Nothing of the continuation is left: not rejoined after all.
			end = cut
			text, rawEnd, hyph = b[st:end], end, nil
			flags &^= Rejoined | HyphenBreak
			n = s.trimEmph(text)
		}
	}
	if rawEnd == end {
		rawEnd = st + n
	}
	text = text[:n]
	if d != DelimQuote && d != delimSingle && flags&Rejoined == 0 {
		if k := gluedWordAt(text, schemeLen, kind); k > 0 {
			text, rawEnd = text[:k], st+k
		}
	}
	if !usable(text, schemeLen, kind) {
		return none
	}
	joinedEnd := -1
	if d == DelimNone && end < s.n && isLineBreak(b[end]) && bareBreakAfter(b[end-1]) && kind != KindEmail && flags&(Rejoined|Unusable) == 0 {
		e, more := s.bareBreak(st, end)
		if more {
			return needMore
		}
		if e > 0 {
			joinedEnd, next = e, e
			flags |= BareBreak
		}
	}
	s.emit(st, rawEnd, next, kind, d, flags, text, hyph)
	if joinedEnd >= 0 {
		c := &s.cand
		je := joinedEnd - s.bareTrim
		c.Joined, c.JoinedRaw, c.JoinedEnd = s.bareText, s.buf[st:je], s.base+int64(je)
	}
	return found
}

// bareBreakAfter tells the characters after which a bare URI that ends a
// line may be broken (behaviour §3.8): / ? & = # .
func bareBreakAfter(c byte) bool {
	return c == '/' || c == '?' || c == '&' || c == '=' || c == '#' || c == '.'
}

// bareBreak looks at a bare candidate from st whose run ends at index
// end (behaviour §3.8, revision 5): when it ends there at a line break
// right after one of / ? & = # . and the whole next line, after the same
// quote prefix and its indentation, is one run of URI characters that
// does not start with a scheme behaviour §2 finds, the URI may go on
// there (…/ndss/99/ + "   proceedings/papers/wu.pdf."). It builds the
// joined form, trimmed, in s.bareText and returns where the next line's
// run ends; 0 when there is no such break, more when the buffered input
// does not tell.
func (s *Scanner) bareBreak(st, end int) (e int, more bool) {
	b := s.buf[:s.n]
	if end >= s.n || !isLineBreak(b[end]) || end == st {
		return 0, end >= s.n && !s.eof
	}
	switch b[end-1] {
	case '/', '?', '&', '=', '#', '.':
	default:
		return 0, false
	}
	limit := min(s.n, st+s.maxLen+utf8.UTFMax)
	k := lineAfter(b, end)
	if k >= limit || b[end] == '\r' && k == s.n {
		return 0, limit == s.n && !s.eof
	}
	// The same quote prefix, then the indentation.
	for want := s.quote.depthAt(s, st); want > 0; {
		for k < limit && (b[k] == ' ' || b[k] == '\t') {
			k++
		}
		if k == limit {
			return 0, limit == s.n && !s.eof
		}
		if b[k] != '>' {
			return 0, false
		}
		k++
		want--
	}
	for k < limit && (b[k] == ' ' || b[k] == '\t') {
		k++
	}
	if k == limit {
		return 0, limit == s.n && !s.eof
	}
	switch s.schemeStarts(k, limit) {
	case needMore:
		return 0, true
	case found:
		return 0, false
	}
	e, _, partial := plainRun(b[:limit], k, 0, 0, 0)
	if partial && limit == s.n && !s.eof {
		return 0, true
	}
	if e == k || e < s.n && !isLineBreak(b[e]) {
		return 0, false // not the whole line
	}
	joined := append(append(s.bareText[:0], b[st:end]...), b[k:e]...)
	n := trimEnd(joined)
	s.bareText, s.bareTrim = joined[:n], len(joined)-n
	return e, false
}

// gluedWordAt returns the length of text without a word glued after the
// top-level domain that ends its host, or 0 (behaviour §2, revision 5):
// when the host runs to the end of the candidate and its last label is
// no top-level domain but starts with one in lower case followed by an
// upper-case letter (www.newlinepubs.comGlenn, MyInput@AEOpublishing.comAre,
// text that lost its line breaks in a conversion), the URI ends after
// that top-level domain. The host is that of an authority (http://), of a
// mailto: address, of a bare www. host or address.
func gluedWordAt(text []byte, schemeLen int, kind Kind) int {
	// The glued word ends the last label in letters, one of them upper
	// case: a look back over the letters of the end first.
	upper := false
	k := len(text)
	for k > 0 && isAlpha(text[k-1]) {
		upper = upper || text[k-1] < 'a'
		k--
	}
	if !upper || k == 0 || text[k-1] != '.' {
		return 0
	}
	hostStart := 0
	switch kind {
	case KindScheme:
		if len(text) <= schemeLen+1 {
			return 0 // nothing usable after the scheme: usable says so
		}
		rest := text[schemeLen+1:]
		switch {
		case len(rest) > 2 && rest[0] == '/' && rest[1] == '/':
			hostStart = schemeLen + 3
			if hasAuthorityEnd(text[hostStart:]) {
				return 0
			}
			if at := bytes.LastIndexByte(text[hostStart:], '@'); at >= 0 {
				hostStart += at + 1
			}
		case schemeLen == len("mailto") && bytes.EqualFold(text[:schemeLen], []byte("mailto")):
			at := bytes.LastIndexByte(text, '@')
			if at < 0 || bytes.ContainsAny(text[at:], "?#") {
				return 0
			}
			hostStart = at + 1
		default:
			return 0
		}
	case KindEmail:
		hostStart = bytes.LastIndexByte(text, '@') + 1
	}
	host := text[hostStart:]
	dot := bytes.LastIndexByte(host, '.')
	if dot < 1 {
		return 0
	}
	if k := gluedLabel(host[dot+1:]); k > 0 {
		return hostStart + dot + 1 + k
	}
	return 0
}

// gluedLabel returns the length of the top-level domain that starts the
// label, in lower case and followed by an upper-case letter, when the
// label itself is no top-level domain; 0 otherwise.
func gluedLabel(label []byte) int {
	u := 0
	for u < len(label) && 'a' <= label[u] && label[u] <= 'z' {
		u++
	}
	if u < 2 || u == len(label) || label[u] < 'A' || label[u] > 'Z' {
		return 0
	}
	for _, c := range label[u:] {
		if !isAlpha(c) {
			return 0
		}
	}
	if isTopLevelDomain(label) || !isTopLevelDomain(label[:u]) {
		return 0
	}
	return u
}

// wholeAuthority looks at the character at index end where the run of a
// candidate from st stopped: when it stands in the authority (no '/',
// '?' or '#' before it) and is one that cuts a host in two (cutterAt),
// and the text after it goes on with the letters, digits, '-' or '.' of
// a host name, the candidate is the whole run and it is invalid
// (behaviour §2, revision 5: http://exa U+200B mple.com/x is not
// http://exa, a URI of another host). Not so, outside a wrapper, when
// the host before it is complete (its last label a top-level domain)
// and the text after it does not start with '.' (http://example.jp。2024年).
// It returns the new end, whether it took the run whole, and more when
// the buffered input does not tell.
func (s *Scanner) wholeAuthority(st, schemeLen, end int, kind Kind, d Delim, depth int) (e int, cutter, more bool) {
	b := s.buf[:s.n]
	auth := st
	switch kind {
	case KindEmail:
		return end, false, false
	case KindScheme:
		auth = st + schemeLen + 3
		if auth > end || b[auth-2] != '/' || b[auth-1] != '/' {
			return end, false, false
		}
	}
	limit := min(s.n, st+s.maxLen+utf8.UTFMax)
	open, closer := brackets(d)
	wrapper := d == DelimQuote || d == delimSingle
	for end < limit {
		// Most runs end at whitespace: that test first.
		if c := b[end]; c < utf8.RuneSelf && (isSpaceByte(c) || asciiClass[c]&cURI != 0 || c == '"' || c == '<' || c == '>') ||
			end == auth || hasAuthorityEnd(b[auth:end]) {
			break
		}
		size, ok := cutterAt(b, end)
		if size == 0 {
			return end, false, !s.eof // a character cut by the read
		}
		if !ok {
			break
		}
		k := end + size
		if k >= s.n {
			if !s.eof {
				return end, false, true
			}
			break
		}
		if c := b[k]; asciiClass[c]&cDomain == 0 && c != '.' {
			break
		}
		if !wrapper && !cutter && b[k] != '.' && completeHost(b[auth:end]) {
			break
		}
		cutter = true
		var partial bool
		end, depth, partial = plainRun(b[:limit], k, open, closer, depth)
		if partial && !s.eof && limit == s.n {
			return end, false, true
		}
	}
	return end, cutter, false
}

// hasAuthorityEnd tells whether b holds a '/', '?' or '#', which end an
// authority (a loop: bytes.ContainsAny cost more on these short runs).
func hasAuthorityEnd(b []byte) bool {
	for _, c := range b {
		if c == '/' || c == '?' || c == '#' {
			return true
		}
	}
	return false
}

// cutterAt tells whether the character at index j cuts a host in two
// (behaviour §2, revision 5): an ASCII control other than whitespace,
// DEL, an invalid UTF-8 byte, a format character (Cf), U+3002 or U+FF0E.
// size is its length, 0 when the buffer ends inside it.
func cutterAt(b []byte, j int) (size int, ok bool) {
	c := b[j]
	if c < utf8.RuneSelf {
		return 1, c < 0x20 && !isSpaceByte(c) || c == 0x7f
	}
	r, n := utf8.DecodeRune(b[j:])
	if r == utf8.RuneError && n <= 1 {
		if !utf8.FullRune(b[j:]) {
			return 0, false
		}
		return 1, true
	}
	return n, r == '。' || r == '．' || unicode.Is(unicode.Cf, r)
}

// completeHost tells whether the authority text a (userinfo and port
// left off) ends in a host whose last label is a top-level domain.
func completeHost(a []byte) bool {
	if at := bytes.LastIndexByte(a, '@'); at >= 0 {
		a = a[at+1:]
	}
	dot := bytes.LastIndexByte(a, '.')
	return dot >= 0 && isTopLevelDomain(a[dot+1:])
}

// quoteCloser is the closing quote of a quoted context.
func quoteCloser(d Delim) byte {
	if d == delimSingle {
		return '\''
	}
	return '"'
}

// breakAt tells whether the run of a candidate from st, which ends at
// index end, may go on past a line break (behaviour §3): an RFC 8792 fold
// in any context, a line break inside "..." or (...) (not inside the
// value of a schemaLocation attribute, a list). It returns found when it
// may, none when not, needMore when the buffered input does not tell.
func (s *Scanner) breakAt(st, end int, d Delim) outcome {
	b := s.buf[:s.n]
	if end >= s.n {
		return none
	}
	if b[end] == '\\' {
		switch {
		case end+1 == s.n && !s.eof:
			return needMore
		case s.foldAt(st, end):
			return found
		}
		return none
	}
	if !isLineBreak(b[end]) {
		return none
	}
	if s.foldAt(st, end) || d == DelimParen || d == DelimQuote && !s.listValue() {
		return found
	}
	return none
}

// foldAt tells whether the run of a candidate from st ends at index end
// with an RFC 8792 fold marker: a '\' that ends its line (at end, or
// right before the line break at end, inside "..."), right after a URI
// character.
func (s *Scanner) foldAt(st, end int) bool {
	b := s.buf[:s.n]
	if end >= s.n {
		return false
	}
	if b[end] == '\\' {
		return end+1 < s.n && isLineBreak(b[end+1]) && end > st && uriByte(b[end-1])
	}
	return isLineBreak(b[end]) && end-1 > st && b[end-1] == '\\' && uriByte(b[end-2])
}

// uriByte tells the bytes that may stand in a URI: cURI and non-ASCII.
func uriByte(c byte) bool { return c >= utf8.RuneSelf || asciiClass[c]&cURI != 0 }

// listValue tells whether the "..." candidate being read is the value of
// an XML attribute named schemaLocation (xsi:schemaLocation, any prefix):
// a whitespace-separated list, nothing in it rejoined (behaviour §3.6,
// revision 5).
func (s *Scanner) listValue() bool {
	b := s.buf[:s.n]
	o := s.opener
	if o < 0 || o >= s.n || b[o] != '"' {
		return false
	}
	k := skipSpaceBack(b, o, max(0, o-maxGap))
	if k == 0 || b[k-1] != '=' {
		return false
	}
	k = skipSpaceBack(b, k-1, max(0, k-1-maxGap))
	const name = "schemalocation"
	if k < len(name) || !bytes.EqualFold(b[k-len(name):k], []byte(name)) {
		return false
	}
	// xsi:schemaLocation holds pairs, a namespace name and a location;
	// the schemaLocation of xs:import and xs:include, unprefixed, is one
	// URI, which may be wrapped (its value does not start with a
	// namespace URN).
	k -= len(name)
	return k > 0 && b[k-1] == ':' || o+5 <= s.n && bytes.EqualFold(b[o+1:o+5], []byte("urn:"))
}

// rejoin follows a candidate from st whose run ends at index end, at a
// line break or a fold marker, across line breaks (behaviour §3): each
// continuation line, after its indentation, must go on with the URI's
// run. Inside a wrapper ("..." and (...), wrapper set) the run must reach
// the closer on a later line, with no blank line and no whitespace but
// the line breaks and indentation between, and no continuation line may
// start with a scheme that behaviour §2 finds there on its own unless
// the part before the break ends with '/'; an RFC 8792 fold ('\' at the
// end of the line) is rejoined in every context, its marker dropped, and
// a '\' that starts the next line too. It builds the text in s.text,
// the hyphens before plain line breaks in s.hyph, and returns the index
// where the rejoined run ends (the closer of a wrapper), 0 when there is
// no rejoining, and ok == false when the buffered input does not tell.
func (s *Scanner) rejoin(st, end, depth int, d Delim, wrapper bool) (t int, ok bool) {
	b := s.buf[:s.n]
	limit := min(s.n, st+s.maxLen+1)
	text, hyph := append(s.text[:0], b[st:end]...), s.hyph[:0]
	defer func() { s.text, s.hyph = text, hyph }()
	open, closer := brackets(d)
	j := end
	for {
		fold := s.foldAt(st, j)
		if fold && b[j] == '\\' {
			j++
		} else if fold {
			text = text[:len(text)-1] // the marker, read by quotedRun
		}
		if !fold && !wrapper {
			return 0, true
		}
		prev := text[len(text)-1]
		// The line break, the indentation, a fold's second '\'.
		if b[j] == '\r' && j+1 < s.n && b[j+1] == '\n' {
			j++
		}
		j++
		for j < limit && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j < limit && fold && b[j] == '\\' {
			j++
		}
		if j >= limit {
			return 0, limit < s.n || s.eof
		}
		if isSpaceByte(b[j]) {
			return 0, true // a blank line
		}
		if !fold {
			if prev != '/' {
				switch s.schemeStarts(j, limit) {
				case needMore:
					return 0, false
				case found:
					return 0, true // schemaLocation="urn:a:b" + "  http://x/b.xsd"
				}
			}
			if prev == '-' {
				hyph = append(hyph, len(text)-1)
			}
		}
		var e int
		var partial bool
		if d == DelimQuote {
			e, partial = quotedRun(b[:limit], j, '"')
		} else {
			e, depth, partial = plainRun(b[:limit], j, open, closer, depth)
		}
		if partial && limit == s.n && !s.eof {
			return 0, false
		}
		if e == j || partial {
			return 0, true // nothing of a URI there, or the length limit
		}
		text = append(text, b[j:e]...)
		s.contStart = j
		switch c := b[e]; {
		case c == '\\' && e+1 == s.n && !s.eof:
			return 0, false
		case s.foldAt(st, e):
		case wrapper && isLineBreak(c):
		case wrapper && d == DelimQuote && (c == '"' || c == '\\' && e+1 < s.n && b[e+1] == '"'):
			return e, true
		case wrapper && d == DelimParen && c == ')':
			return e, true
		case !wrapper:
			return e, true // a fold's continuation ends as a run does
		default:
			return 0, true
		}
		j = e
	}
}

// schemeStarts tells whether the line continuing a wrapped candidate
// starts, at index k, with a scheme that behaviour §2's default rules find
// there on their own (http://x, urn:a:b; not hdrext:, uuid:): found, none,
// or needMore when the buffered input does not tell.
func (s *Scanner) schemeStarts(k, limit int) outcome {
	b := s.buf[:s.n]
	r := k
	for r < limit && r-k <= maxSchemeRun && isSchemeByte(b[r]) {
		r++
	}
	if r+3 > s.n && !s.eof {
		return needMore
	}
	if r == k || r >= s.n || b[r] != ':' || !isAlpha(b[k]) {
		return none
	}
	name := b[k:r]
	if r+2 < s.n && b[r+1] == '/' && b[r+2] == '/' {
		if s.schemeIn(name, true, false) >= 0 {
			return found
		}
		return none
	}
	if !s.cfg.AnyScheme && len(s.schemes) == 0 && !isNoAuthorityScheme(name) ||
		len(s.schemes) > 0 && !s.inList(name) {
		return none
	}
	if s.cfg.AnyScheme || !needsShape(name) {
		return found
	}
	e := r + 1
	for e < limit && uriByte(b[e]) && b[e] != '"' {
		e++
	}
	if e == limit && limit == s.n && !s.eof {
		return needMore
	}
	if hasShape(name, b[r+1:e]) {
		return found
	}
	return none
}

// trimEmph is trimEnd, and then the '_' or '*' that closes the emphasis
// opened before the candidate (behaviour §2.1), and the punctuation
// before it (*http://a/b.*).
func (s *Scanner) trimEmph(text []byte) int {
	n := trimEnd(text)
	if s.emph == 0 {
		return n
	}
	if n > 0 && text[n-1] == s.emph {
		n = trimEnd(text[:n-1])
	}
	return n
}

// unbalancedBracket returns the index of the first ']' in b[st:end] that
// closes no '[' of the URI, or end: outside an IP literal a URI cannot
// hold ']', so such a one ends it ("[IMG: http://x.example/a.jpg][2]"
// gives http://x.example/a.jpg; behaviour §3.7, revision 5).
func unbalancedBracket(b []byte, st, end int) int {
	if bytes.IndexByte(b[st:end], ']') < 0 {
		return end
	}
	depth := 0
	for j := st; j < end; j++ {
		switch b[j] {
		case '[':
			depth++
		case ']':
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return end
}

// brackets gives the pair of a bracket context, whose unbalanced closer ends
// the candidate (behaviour §3).
func brackets(d Delim) (open, closer byte) {
	switch d {
	case DelimBracket:
		return '[', ']'
	case DelimParen:
		return '(', ')'
	case DelimBrace:
		return '{', '}'
	}
	return 0, 0
}

// plainRun scans b from j to the first byte that ends a whitespace-delimited
// URI (behaviour §3 and §4), or to the closer of the context at depth 0. partial
// reports that it ran off the end of b, possibly inside a character.
func plainRun(b []byte, j int, open, closer byte, depth int) (end, d int, partial bool) {
	for j < len(b) {
		if open == 0 {
			// Outside brackets, the ASCII bytes of the URI a run at a
			// time, in a loop of half the instructions, four bytes a
			// turn while it lasts (the loop's overhead, at each byte,
			// was a twentieth of the time of a short URI).
			for ; j+4 <= len(b); j += 4 {
				w := b[j : j+4]
				if asciiClass[w[0]]&asciiClass[w[1]]&asciiClass[w[2]]&asciiClass[w[3]]&cURI == 0 {
					break
				}
			}
			for j < len(b) && asciiClass[b[j]]&cURI != 0 {
				j++
			}
			if j == len(b) {
				break
			}
		}
		c := b[j]
		if c < utf8.RuneSelf {
			if asciiClass[c]&cURI == 0 {
				return j, depth, false
			}
			if open != 0 {
				// [http://[::1]/] and (http://a/Foo_(bar)): brackets that
				// balance inside stay; the unbalanced closer ends it.
				if c == open {
					depth++
				} else if c == closer {
					if depth == 0 {
						return j, depth, false
					}
					depth--
				}
			}
			j++
			continue
		}
		r, size := utf8.DecodeRune(b[j:])
		if r == utf8.RuneError && size <= 1 {
			if !utf8.FullRune(b[j:]) {
				return j, depth, true // the rest of it may come
			}
			return j, depth, false // invalid UTF-8 ends a URI (behaviour §1)
		}
		if runeEndsURI(r) && !(isJoiner(r) && joinerContinues(b, j)) {
			return j, depth, false
		}
		j += size
	}
	return j, depth, true
}

// bareRun is plainRun outside any wrapper, with one more rule: a ']'
// that closes no '[' of the URI ends it (behaviour §3.7, revision 5:
// "[IMG: http://x.example/a.jpg][2]"; outside an IP literal a URI cannot
// hold ']'). The brackets are counted only when a ']' comes, from where
// the last count stopped, so a run costs linear time.
func bareRun(b []byte, j int) (end int, partial bool) {
	open, counted := 0, j
	for j < len(b) {
		for ; j+4 <= len(b); j += 4 {
			w := b[j : j+4]
			if asciiClass[w[0]]&asciiClass[w[1]]&asciiClass[w[2]]&asciiClass[w[3]]&cBare == 0 {
				break
			}
		}
		for j < len(b) && asciiClass[b[j]]&cBare != 0 {
			j++
		}
		if j == len(b) {
			break
		}
		c := b[j]
		if c == ']' {
			for ; counted < j; counted++ {
				switch b[counted] {
				case '[':
					open++
				case ']':
					open--
				}
			}
			if open <= 0 {
				return j, false
			}
			open--
			counted++
			j++
			continue
		}
		if c < utf8.RuneSelf {
			return j, false // not cURI
		}
		r, size := utf8.DecodeRune(b[j:])
		if r == utf8.RuneError && size <= 1 {
			if !utf8.FullRune(b[j:]) {
				return j, true // the rest of it may come
			}
			return j, false // invalid UTF-8 ends a URI (behaviour §1)
		}
		if runeEndsURI(r) && !(isJoiner(r) && joinerContinues(b, j)) {
			return j, false
		}
		j += size
	}
	return j, true
}

// wrappedBad tells the ASCII characters that cannot be in a URI but do not
// end one inside a wrapper: '<', '>', '{', '}', '|', '\', '^', '`'.
func wrappedBad(c byte) bool {
	return c > ' ' && c < utf8.RuneSelf && c != '"' && asciiClass[c]&cURI == 0
}

// quotedRun scans b from j to the first byte that ends a URI inside
// "...": whitespace, the closing quote, a control character, invalid UTF-8
// or a character that always ends a URI (behaviour §4). Unlike plainRun it goes
// on over the other characters that cannot be in a URI ('<', '>', '{',
// '}', '|', '\', '^', '`'): inside the wrapper they make the candidate
// invalid, they do not end it (behaviour §3). Beyond the letter of that
// rule, a '\' that starts an escape of a string literal ('\n', '\"', ...)
// ends it: the text is a string in a program, a log line or JSON, and the
// escape is the string's, not the URI's ("https://go.dev/issue/new\n",
// \"http://example.com/a\"). partial reports that it ran off the end of b.
func quotedRun(b []byte, j int, closer byte) (end int, partial bool) {
	for j < len(b) {
		c := b[j]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '"' || c == closer || c == 0x7f {
				return j, false
			}
			if c == '\\' {
				if j+1 == len(b) {
					return j, true
				}
				if stringEscape(b[j+1]) {
					return j, false
				}
			}
			j++
			continue
		}
		r, size := utf8.DecodeRune(b[j:])
		if r == utf8.RuneError && size <= 1 {
			return j, !utf8.FullRune(b[j:])
		}
		if runeEndsURI(r) && !(isJoiner(r) && joinerContinues(b, j)) {
			return j, false
		}
		j += size
	}
	return j, true
}

// stringEscape tells the characters that follow '\' in the escapes of
// string literals (C, Go, JSON, shell): \n, \t, \", \\, \u00e9, \x41,
// \0... Not '~' (<https://launchpad.net/\~user> is invalid).
func stringEscape(c byte) bool {
	switch c {
	case 'a', 'b', 'f', 'n', 'r', 't', 'v', '\\', '\'', '"', '?', 'x', 'u', 'U', '/',
		'0', '1', '2', '3', '4', '5', '6', '7':
		return true
	}
	return false
}

// trimEnd returns the length of t without the trailing sentence punctuation
// that behaviour §3 says is not part of a URI: . , ; : ! ? ' " and non-ASCII
// punctuation, and closing brackets with no opener inside, repeatedly
// ("(see http://a/b)." gives http://a/b).
func trimEnd(t []byte) int {
	// Most candidates end in a letter, a digit or '/', which stay.
	n := len(t)
	if n == 0 || asciiClass[t[n-1]]&cKeep == 0 {
		n = trimEndSlow(t)
	}
	return n
}

func trimEndSlow(t []byte) int {
	// The brackets of t are counted only when a closing one ends it: most
	// candidates end in a letter, a digit or '/', and a count over each
	// cost a tenth of the scan of a short URI.
	var opens, closes [3]int
	counted := false
	e := len(t)
	for e > 0 {
		c := t[e-1]
		if c < utf8.RuneSelf {
			if c == '\'' && bytes.Count(t[:e-1], quote)%2 == 1 {
				// A ' that closes one opened inside the URI stays, as a
				// balanced bracket does: .../wiki/a'b' (revision 5).
				return e
			}
			if asciiClass[c]&cTrail != 0 {
				e--
				continue
			}
			k := bracketKind(c)
			if k < 0 || c != ')' && c != ']' && c != '}' {
				return e
			}
			if !counted {
				opens, closes = countBrackets(t)
				counted = true
			}
			if closes[k] > opens[k] {
				closes[k]--
				e--
				continue
			}
			return e
		}
		r, size := utf8.DecodeLastRune(t[:e])
		if r == utf8.RuneError || !runeTrimmed(r) {
			return e
		}
		e -= size
	}
	return e
}

var quote = []byte{'\''}

// countBrackets counts the opening and closing brackets of t, by kind.
func countBrackets(t []byte) (opens, closes [3]int) {
	for _, c := range t {
		if k := bracketKind(c); k >= 0 {
			if c == '(' || c == '[' || c == '{' {
				opens[k]++
			} else {
				closes[k]++
			}
		}
	}
	return opens, closes
}

func bracketKind(c byte) int {
	switch c {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	case '{', '}':
		return 2
	}
	return -1
}

// fileRoot tells whether b starts with "file:///" (any case), which names
// the root of the file system whatever follows (RFC 8089 2).
func fileRoot(b []byte) bool {
	return len(b) >= len("file:///") && bytes.EqualFold(b[:len("file:///")], []byte("file:///"))
}

// usable rejects a scheme with nothing usable after it: "http://",
// "mailto:" (behaviour §2).
func usable(text []byte, schemeLen int, kind Kind) bool {
	switch kind {
	case KindWWW:
		return wwwHost(text)
	case KindEmail:
		return len(text) > 0
	}
	rest := text[min(len(text), schemeLen+1):]
	for len(rest) > 0 && rest[0] == '/' {
		rest = rest[1:]
	}
	// file:/// names the root of the local file system (RFC 8089 2).
	return len(rest) > 0 || len(text) == len("file:///") && fileRoot(text)
}

// emit sets the current candidate; scanning resumes at index next.
func (s *Scanner) emit(st, end, next int, kind Kind, d Delim, flags Flags, text []byte, hyph []int) {
	var line, col int64
	if !s.cfg.NoLines {
		line, col = s.position(s.base + int64(st))
	}
	// Every field, one by one: a composite literal was built on the stack
	// and copied, its narrow stores read back by wide loads, which stalled
	// (a tenth of the scan of a short URI). Hyphens, mostly nil, is stored
	// only when it changes: while the collector marks, each pointer stored
	// costs a write barrier.
	c := &s.cand
	if d == delimSingle {
		d = DelimQuote // '...' is reported as a quote (behaviour §3.6)
	}
	c.Kind, c.Delim, c.Flags = kind, d, flags
	c.Text, c.Raw = text, s.buf[st:end]
	if c.Hyphens != nil || hyph != nil {
		c.Hyphens = hyph
	}
	c.Offset, c.End = s.base+int64(st), s.base+int64(end)
	c.Line, c.Column = line, col
	s.pos, s.floor = next, next
}
