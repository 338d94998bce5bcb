package scan

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Byte classes of ASCII, one bit each, looked up in asciiClass.
const (
	cScheme = 1 << iota // ALPHA / DIGIT / "+" / "-" / "." (RFC 3986 3.1)
	cAlpha              // ALPHA
	cURI                // may stand inside a whitespace-delimited URI (behaviour §3)
	cSpace              // ASCII whitespace: tab, LF, VT, FF, CR, space
	cTrail              // sentence punctuation trimmed at the end (behaviour §3)
	cLocal              // RFC 5322 atext or '.': may stand in the local part of a bare e-mail address
	cDomain             // may stand in a host name: ALPHA / DIGIT / "-"
	cKeep               // ASCII never trimmed from the end of a URI (trimEnd): not cTrail, no closing bracket
	cBare               // cURI but ']', which bareRun looks at (behaviour §3.7)
	cEscape             // percent-encoded in the local part of a mailto: address (RFC 6068 2)
)

var asciiClass = func() (t [256]uint16) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= cScheme | cAlpha | cLocal | cDomain
		t[c-'a'+'A'] |= cScheme | cAlpha | cLocal | cDomain
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= cScheme | cLocal | cDomain
	}
	for _, c := range "+-." {
		t[c] |= cScheme
	}
	// Printable ASCII but for the characters that RFC 2396 2.4.3 calls
	// "unwise" or delimiters and that never stand unencoded in a URI: a
	// reader takes them for the end of the URI (behaviour §3).
	for c := '!'; c <= '~'; c++ {
		t[c] |= cURI
	}
	for _, c := range "<>\"`{}|\\^" {
		t[c] &^= cURI
	}
	for _, c := range "%/?#[]{}|^`" {
		t[c] |= cEscape
	}
	for c := range t {
		if t[c]&cURI != 0 && c != ']' {
			t[c] |= cBare
		}
	}
	for _, c := range "\t\n\v\f\r " {
		t[c] |= cSpace
	}
	for _, c := range ".,;:!?'\"" {
		t[c] |= cTrail
	}
	for _, c := range ".!#$%&'*+-/=?^_`{|}~" {
		t[c] |= cLocal
	}
	t['-'] |= cDomain
	for c := 0; c < utf8.RuneSelf; c++ {
		if t[c]&cTrail == 0 && c != ')' && c != ']' && c != '}' {
			t[c] |= cKeep
		}
	}
	return t
}()

func isSchemeByte(c byte) bool { return asciiClass[c]&cScheme != 0 }
func isAlpha(c byte) bool      { return asciiClass[c]&cAlpha != 0 }
func isSpaceByte(c byte) bool  { return asciiClass[c]&cSpace != 0 }
func isLineBreak(c byte) bool  { return c == '\n' || c == '\r' }

// runeEndsURI reports whether the non-ASCII rune r ends a URI (behaviour §4):
// Unicode whitespace, controls, format characters, quotation marks,
// brackets, the CJK and fullwidth sentence marks, and anything RFC 3987
// allows nowhere (outside ucschar and iprivate).
func runeEndsURI(r rune) bool {
	switch r {
	case '、', '。', '，', '．', '：', '；', '！', '？':
		// CJK and fullwidth sentence marks: the text, not the IRI,
		// goes on after them (http://例え.テスト/パス。).
		return true
	case '＜', '＞', '＂', '｀', '｛', '｝', '｜', '＼', '＾':
		// The fullwidth forms of the ASCII delimiters of behaviour §3:
		// CJK text writes them where ASCII text writes '|' (revision 5).
		return true
	}
	if unicode.IsSpace(r) || !inUCSOrPrivate(r) {
		return true
	}
	return unicode.In(r, unicode.Pi, unicode.Pf, unicode.Ps, unicode.Pe, unicode.Cf)
}

// joinerContinues tells whether the ZWNJ or ZWJ (U+200C, U+200D) at
// index j of b, after the start of a URI, continues it: when a letter, a
// mark or a symbol stands right before it. Scripts such as Malayalam and
// Persian, and emoji sequences, need them inside a word (RFC 3987 bars
// only the bidi controls; behaviour §4, revision 5): the chillu of
// "പോലൊരാള്" + ZWJ + ".html".
func joinerContinues(b []byte, j int) bool {
	if j < 3 || b[j] != 0xE2 || j+2 >= len(b) || b[j+1] != 0x80 || b[j+2] != 0x8C && b[j+2] != 0x8D {
		return false
	}
	r, _ := utf8.DecodeLastRune(b[:j])
	return r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsSymbol(r)) ||
		r < utf8.RuneSelf && isAlpha(byte(r))
}

// isJoiner tells ZWNJ and ZWJ.
func isJoiner(r rune) bool { return r == 0x200C || r == 0x200D }

// inUCSOrPrivate reports whether r is in RFC 3987's ucschar or iprivate.
func inUCSOrPrivate(r rune) bool {
	switch {
	case r < 0xA0:
		return false // C0, ASCII and C1 controls
	case r <= 0xD7FF:
		return true
	case r < 0xE000:
		return false // surrogates
	case r <= 0xF8FF:
		return true // iprivate
	case r <= 0xFDCF:
		return true
	case r < 0xFDF0:
		return false // noncharacters
	case r <= 0xFFEF:
		return true
	case r < 0x10000:
		return false // specials, U+FFFE, U+FFFF
	}
	// Planes 1 to 16, less the two noncharacters at the end of each
	// (ucschar for planes 1 to 14, iprivate for 15 and 16).
	return r&0xFFFE != 0xFFFE && r <= utf8.MaxRune
}

// runeTrimmed reports whether the non-ASCII rune r, when it ends a URI, is
// sentence punctuation rather than part of it (behaviour §4: dashes, '…', '・').
func runeTrimmed(r rune) bool { return unicode.IsPunct(r) || isJoiner(r) }

// badASCII marks the ASCII bytes that BadAt stops at: a table, since
// BadAt reads every byte of every HTML attribute value.
var badASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c <= ' ' || c == 0x7F || strings.IndexByte("<>\"`{}|\\^", byte(c)) >= 0
	}
	return t
}()

// BadAt returns the byte offset in s of the first character that can never
// stand in a URI or IRI, whatever the context (behaviour §1, §3.8, §4.2):
// ASCII whitespace and controls, DEL, '<', '>', '"', '`', '{', '}', '|',
// '\', '^', invalid UTF-8, and the non-ASCII characters that always end a
// URI (Unicode whitespace such as NBSP, format characters, quotation marks,
// brackets, CJK sentence marks). It returns -1 when s has none: the test
// of a wrapper's whole text (an HTML attribute value) that must be one
// candidate, valid or not as a whole.
func BadAt(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if badASCII[c] {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || runeEndsURI(r) && !(isJoiner(r) && i > 0 && joinerContinues([]byte(s[i-min(i, utf8.UTFMax):i+n]), min(i, utf8.UTFMax))) {
			return i
		}
		i += n
	}
	return -1
}
