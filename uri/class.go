package uri

// Byte classes of RFC 3986 section 2 and Appendix A. Every ASCII byte gets
// a set of bits (a [256]uint16) saying which productions it may appear in; the parser and the
// validator test a byte with a single table load and a mask.
const (
	cAlpha      uint16 = 1 << iota // ALPHA
	cDigit                         // DIGIT
	cHex                           // HEXDIG
	cUnreserved                    // unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
	cSubDelim                      // sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
	cScheme                        // ALPHA / DIGIT / "+" / "-" / "." after the first scheme byte
	cUserinfo                      // unreserved / sub-delims / ":" (userinfo, and IPvFuture's tail)
	cPchar                         // pchar without pct-encoded: unreserved / sub-delims / ":" / "@"
	cPath                          // pchar / "/"
	cQuery                         // query and fragment without pct-encoded: pchar / "/" / "?"
	cLowScheme                     // cScheme but the upper-case letters (simpleNormal)
	cLowRegName                    // cRegName but the upper-case letters (simpleNormal)
)

// reg-name = *( unreserved / pct-encoded / sub-delims ), RFC 3986 3.2.2.
const cRegName = cUnreserved | cSubDelim

var class = func() (t [256]uint16) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= cAlpha | cUnreserved | cScheme
		t[c-'a'+'A'] |= cAlpha | cUnreserved | cScheme
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= cDigit | cHex | cUnreserved | cScheme
	}
	for _, c := range "abcdefABCDEF" {
		t[c] |= cHex
	}
	for _, c := range "-._~" {
		t[c] |= cUnreserved
	}
	for _, c := range "!$&'()*+,;=" {
		t[c] |= cSubDelim
	}
	for _, c := range "+-." {
		t[c] |= cScheme
	}
	for c := range t {
		if t[c]&(cUnreserved|cSubDelim) != 0 || c == ':' {
			t[c] |= cUserinfo
		}
		if t[c]&cUserinfo != 0 || c == '@' {
			t[c] |= cPchar | cPath | cQuery
		}
	}
	t['/'] |= cPath | cQuery
	t['?'] |= cQuery
	for c := range t {
		if c < 'A' || c > 'Z' {
			if t[c]&cScheme != 0 {
				t[c] |= cLowScheme
			}
			if t[c]&cRegName != 0 {
				t[c] |= cLowRegName
			}
		}
	}
	return t
}()

func isAlpha(c byte) bool      { return class[c]&cAlpha != 0 }
func isDigit(c byte) bool      { return class[c]&cDigit != 0 }
func isHex(c byte) bool        { return class[c]&cHex != 0 }
func isUnreserved(c byte) bool { return class[c]&cUnreserved != 0 }

// unhex returns the value of a HEXDIG.
func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isUcschar reports whether r is an RFC 3987 ucschar (section 2.2).
func isUcschar(r rune) bool {
	switch {
	case r < 0xA0:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xF900:
		return false
	case r <= 0xFDCF:
		return true
	case r < 0xFDF0:
		return false
	case r <= 0xFFEF:
		return true
	case r < 0x10000 || r > 0xEFFFD:
		return false
	}
	// %x10000-1FFFD / %x20000-2FFFD / ... / %xE1000-EFFFD: every plane but
	// its last two code points; plane 14 starts at E1000.
	if r&0xFFFF >= 0xFFFE {
		return false
	}
	return r >= 0xE1000 || r < 0xE0000
}

// isIprivate reports whether r is an RFC 3987 iprivate (section 2.2), allowed
// only in the query.
func isIprivate(r rune) bool {
	return (0xE000 <= r && r <= 0xF8FF) || (0xF0000 <= r && r <= 0xFFFFD) ||
		(0x100000 <= r && r <= 0x10FFFD)
}
