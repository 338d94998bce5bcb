package scan

import (
	"bytes"

	"github.com/urix-dev/urix/uri"
)

func isRegistered(name []byte) bool {
	_, ok := uri.LookupSchemeBytes(name)
	return ok
}

// anchorCache remembers where the next optional anchor ('@', "www.")
// stands, so that looking for it from every ':' costs linear time.
type anchorCache struct {
	at, www searchCache
}

type searchCache struct {
	next     int64 // absolute offset of the next match, or -1
	searched int64 // input before this offset has been searched
}

func (c *anchorCache) reset() {
	c.at = searchCache{next: -1}
	c.www = searchCache{next: -1}
}

// find returns the index in b (which starts at offset base) of the first
// match at or after from, or -1. patLen is the longest match length, so a
// match straddling the end of b is found after the next read.
func (c *searchCache) find(b []byte, base int64, from, patLen int, search func([]byte) int) int {
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
	if k := search(b[start:]); k >= 0 {
		c.next = base + int64(start+k)
		return start + k
	}
	c.next = -1
	return -1
}

func indexAt(b []byte) int { return bytes.IndexByte(b, '@') }

func indexWWW(b []byte) int {
	lo := bytes.Index(b, []byte("www."))
	hi := bytes.Index(b, []byte("WWW."))
	if lo < 0 || (hi >= 0 && hi < lo) {
		return hi
	}
	return lo
}

// nextAnchor finds the first anchor at or after s.pos: a ':' that may end a
// scheme, and, when asked for, a '@' or "www.".
func (s *Scanner) nextAnchor() (int, Kind) {
	b := s.buf[:s.n]
	i, kind := s.nextColon(b), KindScheme
	if s.cfg.Email {
		if k := s.anchors.at.find(b, s.base, s.pos, 1, indexAt); k >= 0 && (i < 0 || k < i) {
			i, kind = k, KindEmail
		}
	}
	if s.cfg.WWW {
		if k := s.anchors.www.find(b, s.base, s.pos, 4, indexWWW); k >= 0 && (i < 0 || k < i) {
			i, kind = k, KindWWW
		}
	}
	return i, kind
}

// nextColon finds the next ':' at or after s.pos that may end a scheme.
// Text holds a ':' every hundred bytes or so ("Note: ", "10:30"), and most
// of them can be turned down at a glance, here, without leaving the loop:
// with the default schemes, a ':' with no "//" after it ends a scheme only
// when the letter before it ends one of the schemes written without "//".
func (s *Scanner) nextColon(b []byte) int {
	glance := !s.cfg.AnyScheme && len(s.schemes) == 0
	for from := s.pos; ; {
		k := bytes.IndexByte(b[from:], ':')
		if k < 0 {
			return -1
		}
		i := from + k
		if !glance || i+2 >= len(b) || i == 0 || b[i+1] == '/' && b[i+2] == '/' ||
			endsNoAuthorityScheme[b[i-1]] || wrapsAfter(b, i) {
			return i
		}
		from = i + 1
	}
}

// endsNoAuthorityScheme marks the last letters of the schemes that
// isNoAuthorityScheme accepts, in either case.
var endsNoAuthorityScheme = func() (t [256]bool) {
	for _, c := range "osnlxpatd" {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

func (s *Scanner) try(i int, kind Kind) outcome {
	switch kind {
	case KindEmail:
		return s.tryEmail(i)
	case KindWWW:
		return s.tryWWW(i)
	}
	return s.tryScheme(i)
}

// tryScheme looks at the ':' at index i: is there a scheme before it that
// SPEC 2 accepts, and then a candidate?
func (s *Scanner) tryScheme(i int) outcome {
	b := s.buf[:s.n]
	if i+2 >= s.n && !s.eof {
		return needMore // is "//" next?
	}
	// Breaks that only the angle context rejoins (behaviour §3).
	if out, ok := s.tryWrapped(i); ok {
		return out
	}
	slashes := i+2 < s.n && b[i+1] == '/' && b[i+2] == '/'
	if !slashes && !s.cfg.AnyScheme && i+1 < s.n && b[i+1] == ':' {
		// "Data::Dumper", "Geo::IP", "std::vector": a scope operator, not
		// a scheme written without "//" (none of them has an empty first
		// part: RFC 2397, 6068, 8141, 3966, 5870...).
		return none
	}
	// Step 1: R is the run of scheme characters before ':'.
	lo := max(s.floor, i-maxSchemeRun)
	j := i
	for j > lo && isSchemeByte(b[j-1]) {
		j--
	}
	truncated := j == i-maxSchemeRun && j > s.floor && isSchemeByte(b[j-1])
	// Leading '-', '+' and '.' are punctuation, not scheme (--http://x).
	for j < i && !isAlpha(b[j]) && (b[j] == '-' || b[j] == '+' || b[j] == '.') {
		j++
	}
	k := s.schemeIn(b[j:i], slashes, truncated)
	if k < 0 {
		return none
	}
	return s.candidateAt(j+k, i-j-k, KindScheme)
}

// schemeIn applies steps 2 and 3 of SPEC 2 to the run r: it returns the
// index in r where the scheme starts, or -1 when there is none.
func (s *Scanner) schemeIn(r []byte, slashes, truncated bool) int {
	minLen := 2 // never a one-letter scheme: C:\Windows
	if len(s.schemes) > 0 {
		minLen = 1
	}
	if !truncated && len(r) >= minLen && isAlpha(r[0]) && s.acceptWhole(r, slashes) {
		return 0
	}
	if s.cfg.AnyScheme || !slashes {
		return -1
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

// acceptWhole is step 2 of SPEC 2 for a run r that starts with a letter.
func (s *Scanner) acceptWhole(r []byte, slashes bool) bool {
	switch {
	case s.cfg.AnyScheme:
		// "URL:" is the prefix of RFC 2396 Appendix E, not a scheme.
		return !bytes.EqualFold(r, []byte("url"))
	case len(s.schemes) > 0:
		return s.inList(r)
	case slashes:
		// svn+ssh://, s3://, postgres://: unregistered but plainly a
		// scheme; a dotted run must be registered (iris.beep://).
		return bytes.IndexByte(r, '.') < 0 || s.cfg.IsRegistered(r)
	}
	return isNoAuthorityScheme(r)
}

func (s *Scanner) known(name []byte) bool {
	if len(s.schemes) > 0 {
		return s.inList(name)
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

// isNoAuthorityScheme tells the schemes people write without "//" (SPEC 2).
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
