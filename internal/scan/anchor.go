package scan

import (
	"bytes"
	"unicode/utf8"

	"github.com/urix-dev/urix/uri"
)

func isRegistered(name []byte) bool {
	// http and https, most of the schemes found by far, without the
	// lookup (c|0x20 is the lower case of these letters, and of nothing
	// else).
	if n := len(name); (n == 4 || n == 5 && name[4]|0x20 == 's') &&
		name[0]|0x20 == 'h' && name[1]|0x20 == 't' && name[2]|0x20 == 't' && name[3]|0x20 == 'p' {
		return true
	}
	_, ok := uri.LookupSchemeBytes(name)
	return ok
}

// anchorCache remembers where the next anchor of each kind (a ':' that may
// end a scheme, '@', "www.", "WWW.") stands, so that looking for all of
// them from every anchor costs linear time: over 10 MB of '@' and no ':',
// looking for the next ':' afresh from each '@' took quadratic time
// (0.4 MB/s; issue #17).
type anchorCache struct {
	colon, at, www, wwwUpper searchCache
}

type searchCache struct {
	next     int64 // absolute offset of the next match, or -1
	searched int64 // input before this offset has been searched
}

func (c *anchorCache) reset() {
	c.colon = searchCache{next: -1}
	c.at = searchCache{next: -1}
	c.www = searchCache{next: -1}
	c.wwwUpper = searchCache{next: -1}
}

// known tells whether c knows, without a search, its next match at or
// after offset abs in the input read up to offset end: c.next.
func (c *searchCache) known(abs, end int64) bool {
	return c.next >= abs || c.next < 0 && c.searched >= end
}

// find returns the index in b (which starts at offset base) of the first
// match at or after from, or -1. patLen is the longest match length, so a
// match straddling the end of b is found after the next read. search(b, k)
// returns the index of the first match at or after k, or -1.
func (c *searchCache) find(b []byte, base int64, from, patLen int, search func([]byte, int) int) int {
	abs := base + int64(from)
	if c.next >= abs {
		return int(c.next - base)
	}
	end := base + int64(len(b))
	if c.next < 0 && c.searched >= end {
		return -1
	}
	start := from
	if c.next < 0 && c.searched > abs {
		start = max(from, int(c.searched-base)-patLen+1)
	}
	c.searched = end
	if k := search(b, start); k >= 0 {
		c.next = base + int64(k)
		return k
	}
	c.next = -1
	return -1
}

// indexAt finds the next '@' at or after from that may join an address:
// one with a local-part character before it, and after it a host name's
// first label followed by a dot (or a non-ASCII character, for domainEnd
// to judge). The others (a run of "@@@@", "@ ", " @", "a@a@a@") are turned
// down here without leaving the loop, as tryEmail would turn them down
// (domainEnd finds no host). A '@' too near either end of b to tell is
// returned: the caller decides.
func indexAt(b []byte, from int) int {
	for {
		i := indexNear(b, from, '@')
		if i < 0 {
			return -1
		}
		if i == 0 || i+1 >= len(b) {
			return i
		}
		if c, d := b[i-1], b[i+1]; (c >= utf8.RuneSelf || asciiClass[c]&cLocal != 0) &&
			(d >= utf8.RuneSelf || asciiClass[d]&cDomain != 0 && (noGlance || dottedLabel(b, i+1))) {
			return i
		}
		from = i + 1
	}
}

// noGlance, set by tests only, turns off the glances that decide about a
// candidate before its full reading would (dottedLabel, nothingAfter,
// noAngle, and uriRun in angle), to check that they change no result.
var noGlance bool

// dottedLabel tells whether the run of host characters (cDomain) at index
// k, which holds one, may be the first label of a host name: a dot or a
// non-ASCII character follows it, or the run is too long or b ends first
// to tell.
func dottedLabel(b []byte, k int) bool {
	const maxDomain = 253 // as in domainEnd
	j := k
	for j < len(b) && j-k <= maxDomain && asciiClass[b[j]]&cDomain != 0 {
		j++
	}
	return j == len(b) || j-k > maxDomain || b[j] == '.' || b[j] >= utf8.RuneSelf
}

// indexNear is indexFrom for a byte that may come in runs ("@@@@",
// "a@a@"): the next few bytes are looked at in a loop before the
// vectorized search, whose call cost more than the look at each '@'.
func indexNear(b []byte, from int, c byte) int {
	for j := from; j < len(b) && j < from+8; j++ {
		if b[j] == c {
			return j
		}
	}
	return indexFrom(b, min(from+8, len(b)), c)
}

func indexFrom(b []byte, from int, c byte) int {
	if k := bytes.IndexByte(b[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

// "www." and "WWW." are looked for apart: one search for both ran to the
// end of the buffer for the case that was not there, at every www (prose
// with --www: 47 MB/s against 283 without).
func indexWWW(b []byte, from int) int      { return indexStr(b, from, wwwLower) }
func indexWWWUpper(b []byte, from int) int { return indexStr(b, from, wwwUpper) }

// The patterns as byte slices, made once: a conversion at each search
// copied them.
var wwwLower, wwwUpper = []byte("www."), []byte("WWW.")

func indexStr(b []byte, from int, pat []byte) int {
	// The next few places are looked at in a loop before the vectorized
	// search, whose call cost more than the look at each of them when the
	// pattern comes every few bytes ("www.a.com www.a.com").
	near := min(from+16, len(b))
	for j := from; j+len(pat) <= len(b) && j < near; j++ {
		if b[j] == pat[0] && bytes.Equal(b[j:j+len(pat)], pat) {
			return j
		}
	}
	if k := bytes.Index(b[near:], pat); k >= 0 {
		return near + k
	}
	return -1
}

// nextAnchor finds the first anchor at or after s.pos: a ':' that may end a
// scheme, and, when asked for, a '@' or "www.".
func (s *Scanner) nextAnchor() (int, Kind) {
	b := s.buf[:s.n]
	a := &s.anchors
	abs, end := s.base+int64(s.pos), s.base+int64(s.n)
	// A cache is searched only when it does not know its answer: the
	// scan asks every cache at every anchor, and most of them know (the
	// calls cost a tenth of the time of a short candidate).
	if !a.colon.known(abs, end) {
		search := colonGlance
		if s.cfg.AnyScheme || len(s.schemes) > 0 {
			search = indexColon
		}
		a.colon.find(b, s.base, s.pos, 1, search)
	}
	next, kind := a.colon.next, KindScheme
	if s.cfg.Email {
		if !a.at.known(abs, end) {
			a.at.find(b, s.base, s.pos, 1, indexAt)
		}
		if k := a.at.next; k >= 0 && (next < 0 || k < next) {
			next, kind = k, KindEmail
		}
	}
	if s.cfg.WWW {
		if !a.www.known(abs, end) {
			a.www.find(b, s.base, s.pos, 4, indexWWW)
		}
		if k := a.www.next; k >= 0 && (next < 0 || k < next) {
			next, kind = k, KindWWW
		}
		if !a.wwwUpper.known(abs, end) {
			a.wwwUpper.find(b, s.base, s.pos, 4, indexWWWUpper)
		}
		if k := a.wwwUpper.next; k >= 0 && (next < 0 || k < next) {
			next, kind = k, KindWWW
		}
	}
	if next < 0 {
		return -1, kind
	}
	return int(next - s.base), kind
}

func indexColon(b []byte, from int) int { return indexFrom(b, from, ':') }

// colonGlance is indexColonGlance, the search with the default schemes;
// a test puts the glance of revision 5 as it was first written in its
// place, to compare the candidates (the call is made through a func value
// in any case).
var colonGlance = indexColonGlance

// indexColonGlance finds the next ':' at or after from that may end a
// scheme. Text holds a ':' every hundred bytes or so ("Note: ", "10:30",
// "Closes: #1"), and most of them can be turned down at a glance, here,
// without leaving the loop: with the default schemes, a ':' with no "//"
// after it ends a scheme only when the three letters before it end one of
// the schemes written without "//" (behaviour §2), when the word before it
// may be the second part of a scheme broken across lines, or when a line
// break and "//" follow it (behaviour §3, the angle context). A ':' too
// near either end of b to tell is returned: the caller decides.
//
// Each test is one that tryScheme makes before it finds anything, so a
// ':' turned down here is one it would turn down. A third of the ':' of
// ordinary text end in a letter that ends such a scheme ("Closes:",
// "Subject:"); the three letters turn down nearly all of them (text.txt of
// the corpus: of 341,000 ':' in 32 MB, 99,000 reached tryScheme, now 8,400, 2,700
// of them before "//").
func indexColonGlance(b []byte, from int) int {
	// lt is the last '<' met since the last ':' but that of "URL:", with
	// no '>' after it, or -1: only the first such ':' after a '<' may end
	// a scheme run that it opens (angleBefore), and only with no '>'
	// between them. Before from nothing was met: a '<' may stand there.
	lt := from - 1
	for {
		var i, l int
		switch {
		case from+1 < len(b) && (b[from] == ':' || b[from+1] == ':' && b[from] != '<' && b[from] != '>'):
			// A ':' right after the last one turned down ("a:a:",
			// "::"): looked at here, as the search's call cost more
			// (Adversarial/colon, 10 MB of "a:": CPU time of 11 runs
			// 0.91 s -> 0.43; f374437, with bytes.IndexByte, 0.68).
			i, l = from, -1
			if b[from] != ':' {
				i = from + 1
			}
		case colonLtVector && len(b)-from >= 32:
			// It passes over a ':' at i when 3 <= i < len(b)-2, no
			// '<' is open (lt would be -1 there), b[i-1] ends no name
			// of noAuthoritySchemes, and b[i+1] is neither whitespace
			// nor '/', or is ' ' or '\t' with none of " \t/\n\r" after
			// it: each test below then turns it down (mayWrapAfter
			// stops at b[i+2]), and nothing changes. They are 70 % of
			// the ':' of text-32m.txt ("10:30", "Note: this"); each
			// cost a call and the tests (urix -c text.txt, 10 runs:
			// this loop 2,070 -> 750 samples, the search 3,370 ->
			// 4,100).
			i, l = indexColonSkipAVX2(b, from, lt >= 0)
		default:
			i, l = indexColonOpenLtAt(b, from)
		}
		if i < 0 {
			return -1
		}
		if l >= 0 {
			lt = l
		}
		from = i + 1
		if i+2 >= len(b) || i < 3 || b[i+1] == '/' && b[i+2] == '/' {
			return i
		}
		// The part of a scheme broken across lines that stands before
		// the ':' is the end of a name of noAuthoritySchemes: of three
		// letters or more, its last three pass endsNoAuthorityName; of
		// one or two, whitespace stands before it.
		if endsNoAuthorityScheme[b[i-1]] && (endsNoAuthorityName(b, i) ||
			(isSpaceByte(b[i-2]) || isSpaceByte(b[i-3])) && mayEndWrappedScheme(b, i)) {
			return i
		}
		if isSpaceByte(b[i+1]) && mayWrapAfter(b, i) && gapThenSlashes(b, i) {
			return i
		}
		if lt >= 0 {
			// Any permanent scheme inside <...> (behaviour §2.3): of two
			// characters or more.
			url := b[i-1]|0x20 == 'l' && b[i-2]|0x20 == 'r' && b[i-3]|0x20 == 'u'
			if i-lt <= angleReach && isSchemeByte(b[i-1]) && isSchemeByte(b[i-2]) && !url && angleBefore(b, i) {
				return i
			}
			if !url {
				lt = -1
			}
		}
	}
}

// indexColonOpenLtAt is the index of the first ':' of b at or after from,
// or -1, and that of the last '<' before it (or before the end of b) from
// from on when no '>' follows that '<' before the ':' (the end), or -1:
// the search of indexColonGlance, which so knows at each ':' whether a '<'
// came since the ':' before that may open a scheme run ending there
// (angleBefore): of the 54,600 '<' of text-32m.txt, 45,900 stand before a
// ':' within angleReach, and all but 1,300 of them are closed by a '>'
// before it ("<name@host>"). indexColonSkipAVX2 is its vector loop.
//
// Revision 5 (any permanent scheme inside <...>) first walked back over
// the scheme run before each ':' (angleBefore), then searched for '<'
// ahead of the ':' asked about (ltTrack, session 16): urix -c -j 1 on
// text.txt of the benchmark corpus took 21 % more CPU time than dd697fe,
// before it. Meeting the '<' in the search of ':' itself (one vector
// pass) and walking back only at the ':' after an open '<', 7 % more;
// passing over the ':' the glance turns down too, 4 % (session 17).
func indexColonOpenLtAt(b []byte, from int) (colon, lt int) {
	c := b[from:]
	colon = bytes.IndexByte(c, ':')
	if colon >= 0 {
		c = c[:colon]
		colon += from
	}
	lt = bytes.LastIndexByte(c, '<')
	if lt >= 0 {
		if bytes.IndexByte(c[lt:], '>') >= 0 {
			return colon, -1
		}
		lt += from
	}
	return colon, lt
}

// colonSkip holds the tables of indexColonSkipAVX2, built from the
// glance's own tests: the 0x0f mask; the tables of the low and high
// nibbles of a byte that ends a name of noAuthoritySchemes
// (endsNoAuthorityScheme); those of the classes of the byte after a
// ':' (colonSkipBlank, colonSkipStop, colonSkipWrap); each class's bits.
// A byte is in a class when the entries of its two nibbles share a bit
// of it; VPSHUFB gives 0 for a nibble of 8 or more: no non-ASCII byte
// is in one.
var colonSkip = func() (t [8][32]byte) {
	classes := []func(c byte) bool{
		// "x:y" and "x:\ty": mayWrapAfter looks on over ' ' and '\t'
		colonSkipBlank,
		// another whitespace or '/': the wrap and "//" tests look on
		colonSkipStop,
		// after ' ' or '\t', what mayWrapAfter stops at or looks on over
		colonSkipWrap,
	}
	fill := func(lo, hi, bits *[32]byte, classes []func(byte) bool) {
		bit := 0
		for n, in := range classes {
			var mask byte
			for h := 0; h < 8; h++ {
				var b byte
				for l := 0; l < 16; l++ {
					if in(byte(h<<4 | l)) {
						if b == 0 {
							b = 1 << bit
							bit++
						}
						lo[l] |= b
					}
				}
				hi[h] |= b
				mask |= b
			}
			if bits != nil {
				bits[n] = mask
			}
		}
		if bit > 8 {
			panic("colonSkip: more than 8 bits")
		}
		copy(lo[16:], lo[:16])
		copy(hi[16:], hi[:16])
	}
	for k := range t[0] {
		t[0][k] = 0x0f
	}
	fill(&t[1], &t[2], nil, []func(byte) bool{func(c byte) bool { return endsNoAuthorityScheme[c] }})
	var bits [32]byte
	fill(&t[3], &t[4], &bits, classes)
	for k := range t[5] {
		t[5][k] = bits[0] | bits[1] // after: blank or stop
		t[6][k] = bits[0]           // after: blank
		t[7][k] = bits[2]           // two after: wrap
	}
	return t
}()

func colonSkipBlank(c byte) bool { return c == ' ' || c == '\t' }
func colonSkipStop(c byte) bool  { return isSpaceByte(c) && !colonSkipBlank(c) || c == '/' }
func colonSkipWrap(c byte) bool {
	return c == ' ' || c == '\t' || c == '/' || c == '\n' || c == '\r'
}

// angleReach is how far before a ':' at i the '<' that angleBefore looks
// for may stand: the run of scheme characters (maxSchemeRun+1), whitespace
// (maxGap), "URL:", whitespace again (maxGap), the '<' itself.
const angleReach = maxSchemeRun + 1 + maxGap + len("URL:") + maxGap + 1

// noAuthoritySchemes are the schemes people write without "//" (behaviour
// §2), lower-case: isNoAuthorityScheme accepts exactly these.
var noAuthoritySchemes = [...]string{"mailto", "news", "urn", "tel", "fax", "sip", "sips", "xmpp", "sms",
	"data", "geo", "magnet", "cid", "mid"}

// endsNoAuthorityScheme marks the last letters of noAuthoritySchemes, in
// either case.
var endsNoAuthorityScheme = func() (t [256]bool) {
	for _, name := range noAuthoritySchemes {
		c := name[len(name)-1]
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

// tailHash hashes the three bytes before index i into noAuthorityTails:
// five bits of each, which tell the ASCII letters apart in either case.
func tailHash(b []byte, i int) uint32 {
	return uint32(b[i-3]&31)<<10 | uint32(b[i-2]&31)<<5 | uint32(b[i-1]&31)
}

// noAuthorityTails is the set of tailHash of the last three letters of
// noAuthoritySchemes (a bit set of 4 KiB): bytes that end one of them, in
// any case, are in it; a few others are too.
var noAuthorityTails = func() (t [1 << 15 / 64]uint64) {
	for _, name := range noAuthoritySchemes {
		h := tailHash([]byte(name), len(name))
		t[h/64] |= 1 << (h % 64)
	}
	return t
}()

// endsNoAuthorityName tells whether the three bytes before the ':' at
// index i (i >= 3) may end one of noAuthoritySchemes, in any case.
func endsNoAuthorityName(b []byte, i int) bool {
	h := tailHash(b, i)
	return noAuthorityTails[h/64]&(1<<(h%64)) != 0
}

// mayEndWrappedScheme is the glance at the scheme broken inside itself
// that tryWrapped joins when no "//" follows the ':' at i ("<mai" + newline
// + "  lto:a@b>"; joinedScheme): the run of scheme characters before the
// ':' has fewer than six of them and starts a line, after its indentation
// and a quote prefix; before that line break and its whitespace stands the
// first part, which starts after whitespace, ':' ("URL:") or '<', and the
// two parts have three to six characters, as noAuthoritySchemes have.
// Each test is one that tryWrapped and joinedScheme make; made without
// the scanner's floor, they pass all that those accept, and a few more.
func mayEndWrappedScheme(b []byte, i int) bool {
	j := i
	for j > 0 && i-j < 6 && isSchemeByte(b[j-1]) {
		j--
	}
	if i-j >= 6 || j == 0 || !isSpaceByte(b[j-1]) || !mayWrapBefore(b, j, 0) {
		return false
	}
	g, ok := skipSchemeGapBack(b, j, max(0, j-maxSchemeGap))
	if !ok {
		return false
	}
	r := g
	for r > 0 && g-r+i-j <= 6 && isSchemeByte(b[r-1]) {
		r--
	}
	n := g - r + i - j
	return r > 0 && 3 <= n && n <= 6 && (isSpaceByte(b[r-1]) || b[r-1] == '<' || b[r-1] == ':')
}

func (s *Scanner) try(i int, kind Kind) outcome {
	s.emph = 0
	switch kind {
	case KindEmail:
		return s.tryEmail(i)
	case KindWWW:
		return s.tryWWW(i)
	}
	return s.tryScheme(i)
}

// tryScheme looks at the ':' at index i: is there a scheme before it that
// behaviour §2 accepts, and then a candidate?
func (s *Scanner) tryScheme(i int) outcome {
	b := s.buf[:s.n]
	if i+2 >= s.n && !s.eof {
		return needMore // is "//" next?
	}
	// Step 1: R is the run of scheme characters before ':'.
	lo := max(s.floor, i-maxSchemeRun)
	j := i
	for j > lo && isSchemeByte(b[j-1]) {
		j--
	}
	// Breaks that only the angle context rejoins (behaviour §3): they
	// need whitespace right after the ':' or right before the run.
	if i+1 < s.n && isSpaceByte(b[i+1]) && mayWrapAfter(b, i) ||
		j > s.floor && isSpaceByte(b[j-1]) && mayWrapBefore(b, j, s.floor) {
		if out, ok := s.tryWrapped(i, j); ok {
			return out
		}
	}
	slashes := i+2 < s.n && b[i+1] == '/' && b[i+2] == '/'
	if !slashes && !s.cfg.AnyScheme && i+1 < s.n && b[i+1] == ':' {
		// "Data::Dumper", "Geo::IP", "std::vector": a scope operator, not
		// a scheme written without "//" (none of them has an empty first
		// part: RFC 2397, 6068, 8141, 3966, 5870...).
		return none
	}
	truncated := j == i-maxSchemeRun && j > s.floor && isSchemeByte(b[j-1])
	// Leading '-', '+' and '.' are punctuation, not scheme (--http://x).
	for j < i && (b[j] == '-' || b[j] == '+' || b[j] == '.') {
		j++
	}
	// R right after '_' is the tail of a word, in every mode: READ_DATA:ALLOW,
	// x_http://a (behaviour §2 step 1). The byte before R is always in the
	// buffer: the scanner keeps a look-back before each anchor.
	// But a '_' or '*' that itself follows whitespace or the start of the
	// text is emphasis, as Usenet and mail write it: the URI is found, and
	// a matching '_' or '*' at its end is trimmed (_http://a.example/b_;
	// revision 5).
	if j > 0 && (b[j-1] == '_' || b[j-1] == '*') {
		if s.emphasisAt(j - 1) {
			s.emph = b[j-1]
		} else if b[j-1] == '_' {
			return none
		}
	}
	k := s.schemeIn(b[j:i], slashes, truncated)
	if k < 0 && !slashes && s.permanentInAngle(b[j:i], j, truncated) {
		return s.angleOnly(j, i)
	}
	if k < 0 {
		return none
	}
	if slashes && !s.cfg.AnyScheme {
		// SLP's service:printer:lpr://host/queue (RFC 2609) is one URI:
		// its head is not a word before lpr://.
		if h := serviceHead(b, j+k, s.floor); h >= 0 {
			return s.candidateAt(h, len("service"), KindScheme)
		}
	}
	st, n := j+k, i-j-k
	if slashes || s.cfg.AnyScheme || !needsShape(b[st:i]) {
		return s.candidateAt(st, n, KindScheme)
	}
	// mid:, cid:, tel:, fax:, urn:, data:, geo:, sms: must show their
	// shape in the candidate as a reader takes it (rejoined in <...>), or
	// nothing is found here.
	pos, floor := s.pos, s.floor
	out := s.candidateAt(st, n, KindScheme)
	if out == found && s.cand.Flags&TooLong == 0 && !hasShape(b[st:i], s.cand.Text[n+1:]) {
		s.pos, s.floor = pos, floor
		return none
	}
	return out
}

// emphasisAt tells whether the '_' or '*' at index k opens emphasis:
// whitespace or the start of the text stands before it.
func (s *Scanner) emphasisAt(k int) bool {
	if k == 0 {
		return s.base == 0 && !s.cfg.StartsMidLine
	}
	return isSpaceByte(s.buf[k-1])
}

// schemeIn applies steps 2 and 3 of behaviour §2 to the run r: it returns
// the index in r where the scheme starts, or -1 when there is none.
func (s *Scanner) schemeIn(r []byte, slashes, truncated bool) int {
	minLen := 2 // never a one-letter scheme: C:\Windows
	if len(s.schemes) > 0 {
		minLen = 1
	}
	whole := !truncated && len(r) >= minLen && isAlpha(r[0])
	switch {
	case s.cfg.AnyScheme:
		// R as it stands; "URL:" is the prefix of RFC 2396 Appendix E,
		// not a scheme.
		if whole && !bytes.EqualFold(r, []byte("url")) {
			return 0
		}
		return -1
	case !slashes:
		if whole && (len(s.schemes) > 0 && s.inList(r) || len(s.schemes) == 0 && isNoAuthorityScheme(r)) {
			return 0
		}
		return -1
	}
	if whole && s.known(r) {
		return 0
	}
	// A word glued to http, https or ftp (fromhttp://x, pagehttps://x) is
	// not part of the scheme: spam and bad conversions of mail to text
	// glue them so.
	if k := gluedScheme(r); k > 0 && s.known(r[k:]) {
		return k
	}
	// svn+ssh://, s3://, postgres://: unregistered but plainly a scheme; a
	// dotted run must be registered (iris.beep://), or be read by step 3.
	if whole && len(s.schemes) == 0 && bytes.IndexByte(r, '.') < 0 {
		return 0
	}
	// Step 3: the longest known scheme that ends r right after a dot
	// (e.g.http://x, Download...http://x, 1.http://x).
	for d, c := range r {
		if c != '.' {
			continue
		}
		suffix := r[d+1:]
		if len(suffix) >= minLen && isAlpha(suffix[0]) && s.known(suffix) {
			return d + 1
		}
	}
	return -1
}

// gluedScheme returns the index in r of an ending "https", "http" or "ftp"
// (any case) that stands right after an ASCII letter, or -1.
func gluedScheme(r []byte) int {
	for _, end := range [...]string{"https", "http", "ftp"} {
		k := len(r) - len(end)
		if k > 0 && isAlpha(r[k-1]) && bytes.EqualFold(r[k:], []byte(end)) {
			return k
		}
	}
	return -1
}

func (s *Scanner) known(name []byte) bool {
	if len(s.schemes) > 0 {
		return s.inList(name)
	}
	if s.cfg.IsRegistered == nil {
		return isRegistered(name) // a direct call, on the hot path
	}
	return s.cfg.IsRegistered(name)
}

func (s *Scanner) inList(name []byte) bool {
	for _, sc := range s.schemes {
		if bytes.EqualFold(name, sc) {
			return true
		}
	}
	return false
}

// isNoAuthorityScheme tells the schemes people write without "//" (behaviour §2):
// those of noAuthoritySchemes, whose glance (indexColonGlance) is built
// from that list (TestNoAuthoritySchemes keeps the two in step).
func isNoAuthorityScheme(r []byte) bool {
	// Most ':' in text follow a word ("Note:", "Re:"): this is on the hot
	// path, so lower-case into a small array and let the compiler's string
	// switch compare, with no allocation.
	if len(r) < 3 || len(r) > 6 {
		return false
	}
	var low [6]byte
	for i, c := range r {
		low[i] = c | 0x20 // ASCII letters only matter: the others fail below
	}
	switch string(low[:len(r)]) {
	case "mailto", "news", "urn", "tel", "fax", "sip", "sips", "xmpp", "sms",
		"data", "geo", "magnet", "cid", "mid":
		return true
	}
	return false
}

// permanentInAngle tells whether the run r = b[j:i] before a ':' with no
// "//" after it is a scheme of the registry's permanent list standing
// right inside <...> (behaviour §2.3, revision 5): the brackets say "this
// is a URI" (<im:pooh@100akerwood.com>, <pres:a@example.com>), while
// <content:encoded>, an RSS element, is not (content is provisional).
// Only by default: --scheme and --any-scheme say what they find.
func (s *Scanner) permanentInAngle(r []byte, j int, truncated bool) bool {
	if s.cfg.AnyScheme || len(s.schemes) > 0 || truncated || len(r) < 2 || !isAlpha(r[0]) {
		return false
	}
	if s.cfg.IsRegistered != nil && !s.cfg.IsRegistered(r) {
		return false
	}
	sc, ok := uri.LookupSchemeBytes(r)
	if !ok || sc.Status != uri.StatusPermanent {
		return false
	}
	d, _, _ := s.context(j)
	return d == DelimAngle
}

// angleOnly reads the candidate of a permanent scheme found only because
// <...> wraps it (permanentInAngle), starting at st, its ':' at i. XML
// elements whose prefix is a scheme's name (<info:uri>, <DAV:href/>,
// <xcon:entry attr="v">) are not URIs: the candidate must be the angle
// context's whole text as it stands, with no whitespace or character
// that cannot be in a URI, and not end in '/'; and a name alone after
// the ':' (an XML name) followed by another tag ('<' next, or "</" on
// its line) is an element.
func (s *Scanner) angleOnly(st, i int) outcome {
	pos, floor := s.pos, s.floor
	_, _, opener := s.context(st)
	out := s.candidateAt(st, i-st, KindScheme)
	if out != found || s.cand.Flags&TooLong != 0 {
		return out
	}
	c := &s.cand
	text := c.Text
	ok := c.Delim == DelimAngle && c.Flags&Rejoined == 0 && uriRun(text) &&
		text[len(text)-1] != '/'
	if ok && xmlName(text[i-st+1:]) {
		tagged, more := s.tagAfter(int(c.End - s.base + 1))
		if more {
			s.pos, s.floor = pos, floor
			return needMore
		}
		ok = !tagged && !mixedCase(text) && !s.startsLine(opener)
	}
	if !ok {
		s.pos, s.floor = pos, floor
		return none
	}
	return found
}

// xmlName tells whether b holds only the characters of an XML name (as
// ASCII): letters, digits, '-', '_', '.'.
func xmlName(b []byte) bool {
	for _, c := range b {
		if asciiClass[c]&cDomain == 0 && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// startsLine tells whether only whitespace, or the tag of a protocol
// trace ("S:", "C:"), stands before index o on its line: where XML puts
// an element, one to a line (<info:uri> in an XCON example). Lines are
// short: it looks back at most maxGap bytes, and says no beyond.
func (s *Scanner) startsLine(o int) bool {
	b := s.buf[:s.n]
	lo := max(0, o-maxGap)
	k := o
	for k > lo && (b[k-1] == ' ' || b[k-1] == '\t') {
		k--
	}
	if k >= 2 && b[k-1] == ':' && isAlpha(b[k-2]) {
		m := k - 2
		if m > 0 && isAlpha(b[m-1]) {
			m--
		}
		for m > lo && (b[m-1] == ' ' || b[m-1] == '\t') {
			m--
		}
		if m == 0 && s.base == 0 || m > lo && isLineBreak(b[m-1]) {
			return true
		}
	}
	return k == 0 && s.base == 0 || k > lo && isLineBreak(b[k-1])
}

// mixedCase tells whether b holds both an upper-case and a lower-case
// ASCII letter: the camelCase of XML names (<iris:seeAlso>,
// <DAV:error>), not the lower case of URIs written without "//"
// (<about:blank>, <opaquelocktoken:f81d4fae-7dec-11d0>).
func mixedCase(b []byte) bool {
	upper, lower := false, false
	for _, c := range b {
		upper = upper || 'A' <= c && c <= 'Z'
		lower = lower || 'a' <= c && c <= 'z'
	}
	return upper && lower
}

// maxTagLook bounds how far after an angle candidate tagAfter looks.
const maxTagLook = 256

// tagAfter tells whether markup follows index k (right after a '>'):
// '<' after whitespace, or "</" later on the same line. more is set when
// the buffered input does not tell.
func (s *Scanner) tagAfter(k int) (tagged, more bool) {
	b := s.buf[:s.n]
	lim := min(s.n, k+maxTagLook)
	j := k
	for j < lim && isSpaceByte(b[j]) {
		j++
	}
	if j == lim && lim < k+maxTagLook && !s.eof {
		return false, true
	}
	if j < lim && b[j] == '<' {
		return true, false
	}
	for j = k; j < lim && (b[j] == ' ' || b[j] == '\t'); j++ {
	}
	// "the <iris:answer> element", "<info:uri> elements"
	if lim-j >= len("element") && bytes.EqualFold(b[j:j+len("element")], []byte("element")) {
		return true, false
	}
	for j = k; j < lim && !isLineBreak(b[j]); j++ {
		if b[j] == '<' && j+1 < lim && b[j+1] == '/' {
			return true, false
		}
	}
	return false, j == lim && lim < k+maxTagLook && !s.eof
}

// angleBefore is the glance of indexColonGlance at a ':' that ends a run
// of scheme characters standing right after '<' (and whitespace, or
// "URL:"): permanentInAngle may take it.
func angleBefore(b []byte, i int) bool {
	k := i
	for k > 0 && i-k <= maxSchemeRun && isSchemeByte(b[k-1]) {
		k--
	}
	if k == i || k == 0 {
		return false
	}
	if i-k == 3 && b[k]|0x20 == 'u' && b[k+1]|0x20 == 'r' && b[k+2]|0x20 == 'l' {
		return false // "<URL:" is the prefix, not a scheme
	}
	if c := b[k-1]; c != '<' && c != ' ' && c != ':' {
		return false // most ':' of text and code: "\tName:", "(x:"
	}
	for n := 0; n < 2; n++ {
		// '<', whitespace, "URL:" (any case), whitespace, in turn, back
		// from the run.
		k = skipSpaceBack(b, k, max(0, k-maxGap))
		switch {
		case k == 0:
			return false
		case b[k-1] == '<':
			return true
		case n == 0 && k >= 4 && b[k-1] == ':' && b[k-2]|0x20 == 'l' && b[k-3]|0x20 == 'r' && b[k-4]|0x20 == 'u':
			k -= 4
		default:
			return false
		}
	}
	return false
}

// serviceHead looks before the scheme run starting at st (followed by
// "://") for the head of an SLP service URL (RFC 2609): "service:" and
// one or two ':'-separated type names, as in
// service:printer:lpr://host/queue. It returns where "service" starts,
// or -1.
func serviceHead(b []byte, st, floor int) int {
	k := st
	for names := 0; names < 2; names++ {
		if k-1 <= floor || b[k-1] != ':' {
			return -1
		}
		e := k - 1
		m := e
		for m > floor && e-m < maxSchemeRun && isSchemeByte(b[m-1]) {
			m--
		}
		if m == e {
			return -1
		}
		const service = "service"
		if m+len(service) <= e && bytes.EqualFold(b[e-len(service):e], []byte(service)) {
			h := e - len(service)
			if h == m && (h == floor || h == 0 || !isSchemeByte(b[h-1])) {
				return h
			}
		}
		k = m
	}
	return -1
}

// needsShape tells the schemes written without "//" that must show their
// own shape to be found (behaviour §2): mid, cid, tel, fax, urn, geo,
// sms, data.
func needsShape(name []byte) bool {
	if len(name) != 3 && len(name) != 4 {
		return false
	}
	var low [4]byte
	for i, c := range name {
		low[i] = c | 0x20
	}
	switch string(low[:len(name)]) {
	case "mid", "cid", "tel", "fax", "urn", "geo", "sms", "data":
		return true
	}
	return false
}

// hasShape tells whether rest, what follows "name:" in a candidate, has
// the shape of the scheme name (one that needsShape):
//   - mid: and cid: hold an '@' (RFC 2392: a message or content id), so
//     the SDP media ids a=mid:1 and a=mid:audio are not URIs;
//   - tel: and fax: hold a global number, '+' then at least 7 digits with
//     '-', '.', '(' and ')' allowed between, or a local number with
//     ";phone-context=" (RFC 3966), so the signature labels Tel:0123 and
//     Fax:+49 (of "Fax:+49 89 1234") are not URIs.
//   - urn: holds a namespace id and a specific string, NID:NSS (RFC 8141
//     5.1: the NID of 2 to 32 letters, digits and '-', starting and ending
//     with a letter or digit), so URN:NBNs and <urn:spppAddRequest> are
//     not URNs;
//   - data: holds a ',' (RFC 2397), so the label Data:Secret is none;
//   - geo: starts with two numbers separated by ',' (RFC 5870 3.3), so
//     the vCard property of GEO:geo:37.3,-122.0 is none;
//   - sms: holds a number first, '+' or a digit (RFC 5724 2.2), so the
//     enumservice names sms:tel and sms:mailto are none.
func hasShape(name, rest []byte) bool {
	switch name[0] | 0x20 {
	case 'm', 'c':
		return bytes.IndexByte(rest, '@') >= 0
	case 'u':
		return urnShape(rest)
	case 'd':
		return bytes.IndexByte(rest, ',') >= 0
	case 'g':
		return geoShape(rest)
	case 's':
		return len(rest) > 0 && (rest[0] == '+' || '0' <= rest[0] && rest[0] <= '9')
	}
	if len(rest) > 0 && rest[0] == '+' {
		digits := 0
		for _, c := range rest[1:] {
			if '0' <= c && c <= '9' {
				digits++
			} else if c != '-' && c != '.' && c != '(' && c != ')' {
				break
			}
		}
		return digits >= 7
	}
	// A local number: phone digits, hex digits, '*' and '#', then its
	// parameters, one of them the context that makes it global.
	semi := bytes.IndexByte(rest, ';')
	if semi <= 0 {
		return false
	}
	for _, c := range rest[:semi] {
		switch {
		case isHexDigit(c), c == '*', c == '#', c == '-', c == '.', c == '(', c == ')':
		default:
			return false
		}
	}
	return containsFold(rest[semi:], ";phone-context=")
}

// urnShape tells whether rest, what follows "urn:", is NID ":" NSS
// (RFC 8141 2).
func urnShape(rest []byte) bool {
	colon := bytes.IndexByte(rest, ':')
	if colon < 2 || colon > 32 || colon+1 == len(rest) {
		return false
	}
	nid := rest[:colon]
	for _, c := range nid {
		if asciiClass[c]&cDomain == 0 {
			return false
		}
	}
	return nid[0] != '-' && nid[len(nid)-1] != '-'
}

// geoShape tells whether rest, what follows "geo:", starts with two
// numbers separated by ',' (RFC 5870 3.3: coord-a "," coord-b).
func geoShape(rest []byte) bool {
	k := geoNumber(rest, 0)
	if k < 0 || k == len(rest) || rest[k] != ',' {
		return false
	}
	return geoNumber(rest, k+1) >= 0
}

// geoNumber reads [ "-" ] 1*DIGIT [ "." 1*DIGIT ] at index k of b; it
// returns where it ends, or -1.
func geoNumber(b []byte, k int) int {
	if k < len(b) && b[k] == '-' {
		k++
	}
	d := k
	for k < len(b) && '0' <= b[k] && b[k] <= '9' {
		k++
	}
	if k == d {
		return -1
	}
	if k < len(b) && b[k] == '.' {
		k++
		f := k
		for k < len(b) && '0' <= b[k] && b[k] <= '9' {
			k++
		}
		if k == f {
			return -1
		}
	}
	return k
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// containsFold reports whether b holds the lower-case ASCII pat in any case.
func containsFold(b []byte, pat string) bool {
	for k := 0; k+len(pat) <= len(b); k++ {
		if bytes.EqualFold(b[k:k+len(pat)], []byte(pat)) {
			return true
		}
	}
	return false
}
