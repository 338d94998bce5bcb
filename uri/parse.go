package uri

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// parser walks one string once, left to right, filling a URI with substrings
// of it. It never allocates unless it reports an error.
type parser struct {
	s string
	k Kind
}

func (p *parser) fail(off int, reason string) *Error {
	return &Error{Input: p.s, Offset: off, Reason: reason}
}

// parse checks s against kind k (RFC 3986 section 3 and 4.1, RFC 3987 2.2)
// and the behaviour §5 scheme rule, filling u.
func parse(s string, k Kind, u *URI) *Error {
	if err := parseGrammar(s, k, u); err != nil {
		return err
	}
	// The host first: it is there in nearly every URI, and the scheme
	// comparison cost a tenth of the parse of a short one.
	if u.Host == "" && needsHost(u.Scheme) {
		off := len(u.Scheme) + 1
		if u.HasAuthority {
			off += 2
			if u.HasUserinfo {
				off += len(u.Userinfo) + 1
			}
		}
		return &Error{Input: s, Offset: off, Reason: strings.ToLower(u.Scheme) + " URI without a host"}
	}
	return nil
}

// parseGrammar is parse without the behaviour §5 scheme rule: the grammar alone.
// Resolution uses it, since RFC 3986 5.4.2 resolves "http:g" to "http:g".
func parseGrammar(s string, k Kind, u *URI) *Error {
	p := parser{s: s, k: k}
	*u = URI{}
	i := 0
	if end := schemeEnd(s); end > 0 {
		u.Scheme = s[:end]
		i = end + 1
	} else if !k.isRef() {
		return p.missingScheme()
	}
	i, err := p.hierPart(i, u)
	if err != nil {
		return err
	}
	if i < len(s) && s[i] == '?' {
		if i, err = p.query(i+1, u); err != nil {
			return err
		}
	}
	if i < len(s) && s[i] == '#' {
		u.HasFragment = true
		j, err := p.span(i+1, cQuery, pctOK)
		if err != nil {
			return err
		}
		if j < len(s) {
			return p.unexpected(j, "fragment")
		}
		u.Fragment = s[i+1:]
	}
	return nil
}

// schemeEnd returns the index of the ':' ending a scheme at the start of s
// (scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), RFC 3986 3.1), or -1.
func schemeEnd(s string) int {
	if s == "" || !isAlpha(s[0]) {
		return -1
	}
	for i := 1; i < len(s); i++ {
		if s[i] == ':' {
			return i
		}
		if class[s[i]]&cScheme == 0 {
			return -1
		}
	}
	return -1
}

// missingScheme explains why s, required to be absolute, has no scheme.
func (p *parser) missingScheme() *Error {
	s := p.s
	colon := strings.IndexAny(s, ":/?#")
	if colon <= 0 || s[colon] != ':' {
		return p.fail(0, "missing scheme: a relative reference, not an absolute "+p.k.String())
	}
	if !isAlpha(s[0]) {
		return p.fail(0, "scheme must start with a letter")
	}
	for i := 1; i < colon; i++ {
		if class[s[i]]&cScheme == 0 {
			return p.unexpected(i, "scheme")
		}
	}
	return p.fail(0, "missing scheme") // not reached: schemeEnd would have found it
}

// hierPart parses hier-part (RFC 3986 3) or relative-part (4.2) starting at
// i and returns where it ends.
func (p *parser) hierPart(i int, u *URI) (int, *Error) {
	s := p.s
	if strings.HasPrefix(s[i:], "//") {
		u.HasAuthority = true
		var err *Error
		if i, err = p.authority(i+2, u); err != nil {
			return i, err
		}
	}
	start := i
	j, err := p.span(i, cPath, pctOK)
	if err != nil {
		return j, err
	}
	if j < len(s) && s[j] == '[' && !u.HasAuthority && isSIP(u.Scheme) {
		if j, err = p.sipIPv6(start, j); err != nil {
			return j, err
		}
	}
	if j < len(s) && s[j] != '?' && s[j] != '#' {
		return j, p.unexpected(j, "path")
	}
	u.Path = s[start:j]
	// path-noscheme: a relative path's first segment holds no ':', or it
	// would read as a scheme (RFC 3986 4.2).
	if u.Scheme == "" && !u.HasAuthority {
		seg := u.Path
		if k := strings.IndexByte(seg, '/'); k >= 0 {
			seg = seg[:k]
		}
		if k := strings.IndexByte(seg, ':'); k >= 0 {
			return start + k, p.fail(start+k, "':' in the first segment of a relative path")
		}
	}
	return j, nil
}

// isSIP reports whether scheme is sip or sips, whose URIs follow RFC 3261
// rather than the generic path grammar (behaviour §5).
func isSIP(scheme string) bool {
	return len(scheme) >= 3 && len(scheme) <= 4 && strings.EqualFold(scheme[:3], "sip") &&
		(len(scheme) == 3 || scheme[3] == 's' || scheme[3] == 'S')
}

// sipIPv6 reads on from the '[' at j in the path of a sip or sips URI
// that starts at start. RFC 3261 19.1.1 writes such a URI as
// "sip:" [ userinfo "@" ] hostport ..., whose host may be an
// IPv6reference, "[" IPv6address "]": "sip:alice@[2001:db8::1]:5060". A
// '[' there (at the start, or right after the '@' of the userinfo) opens
// one; anywhere else it is the usual error. It returns where the path ends.
func (p *parser) sipIPv6(start, j int) (int, *Error) {
	s := p.s
	if j != start && (s[j-1] != '@' || strings.IndexByte(s[start:j], '@') != j-1-start) {
		return j, nil // not where the host stands: the caller reports the '['
	}
	close := strings.IndexByte(s[j:], ']')
	if close < 0 {
		return j, p.fail(j, "'[' without a closing ']'")
	}
	close += j
	if pct := strings.IndexByte(s[j:close], '%'); pct >= 0 {
		return j + pct, p.fail(j+pct, "a zone ID is not allowed in a SIP host (RFC 3261 has none)")
	}
	if err := p.ipv6(j+1, close); err != nil {
		return j, err
	}
	k := close + 1
	if k < len(s) && s[k] != ':' && s[k] != ';' && s[k] != '?' && s[k] != '#' {
		return k, p.unexpected(k, "host")
	}
	return p.span(k, cPath, pctOK)
}

// authority parses authority = [ userinfo "@" ] host [ ":" port ]
// (RFC 3986 3.2) starting at i, just after "//".
func (p *parser) authority(i int, u *URI) (int, *Error) {
	s := p.s
	// One pass finds the end of the authority and its first '@'.
	end, at := i, -1
	for ; end < len(s) && s[end] != '/' && s[end] != '?' && s[end] != '#'; end++ {
		if s[end] == '@' && at < 0 {
			at = end - i
		}
	}
	if at >= 0 {
		u.HasUserinfo = true
		j, err := p.span(i, cUserinfo, pctOK)
		if err != nil {
			return j, err
		}
		if j != i+at {
			return j, p.unexpected(j, "userinfo")
		}
		u.Userinfo = s[i:j]
		i = j + 1
	}
	j, err := p.host(i, end)
	if err != nil {
		return j, err
	}
	u.Host = s[i:j]
	if j < end { // s[j] == ':'
		u.HasPort = true
		for k := j + 1; k < end; k++ {
			if s[k] == ';' && isAAA(u.Scheme) {
				// The parameters stay with the port, which keeps them
				// in the normal form.
				if err := p.aaaParams(k, end); err != nil {
					return err.Offset, err
				}
				break
			}
			if !isDigit(s[k]) {
				return k, p.fail(k, "port is not a number")
			}
		}
		u.Port = s[j+1 : end]
	}
	return end, nil
}

// isAAA reports whether scheme is aaa or aaas, whose URIs carry
// parameters after the port (RFC 6733 4.3.1, behaviour §5):
// "aaa://host.example.com:6666;transport=tcp;protocol=diameter".
func isAAA(scheme string) bool {
	return len(scheme) >= 3 && len(scheme) <= 4 && strings.EqualFold(scheme[:3], "aaa") &&
		(len(scheme) == 3 || scheme[3] == 's' || scheme[3] == 'S')
}

// aaaParams checks the parameters of an aaa or aaas URI in s[i:end], each
// ";" name "=" value of RFC 6733 4.3.1 (transport, protocol, and any
// other of the same shape: letters, digits and the unreserved marks).
func (p *parser) aaaParams(i, end int) *Error {
	s := p.s
	for i < end {
		// s[i] == ';'
		k := i + 1
		for k < end && class[s[k]]&cUnreserved != 0 {
			k++
		}
		if k == i+1 || k == end || s[k] != '=' {
			return p.fail(k, "malformed aaa parameter (RFC 6733 4.3.1)")
		}
		v := k + 1
		for v < end && (class[s[v]]&cUnreserved != 0 || s[v] == '+') {
			v++
		}
		if v == k+1 || v < end && s[v] != ';' {
			return p.fail(v, "malformed aaa parameter (RFC 6733 4.3.1)")
		}
		i = v
	}
	return nil
}

// host parses host = IP-literal / IPv4address / reg-name (RFC 3986 3.2.2)
// in s[i:end] and returns where it ends: end, or the ':' before a port.
// An IPv4address is also a reg-name, so only IP literals need their own
// grammar here ("256.256.256.256" is a valid reg-name).
func (p *parser) host(i, end int) (int, *Error) {
	s := p.s
	if i < end && s[i] == '[' {
		close := strings.IndexByte(s[i:end], ']')
		if close < 0 {
			return i, p.fail(i, "'[' without a closing ']'")
		}
		close += i
		if err := p.ipLiteral(i+1, close); err != nil {
			return i, err
		}
		if close+1 < end && s[close+1] != ':' {
			return close + 1, p.unexpected(close+1, "host")
		}
		return close + 1, nil
	}
	j, err := p.span(i, cRegName, pctOK)
	if err != nil {
		return j, err
	}
	if j < end && s[j] != ':' {
		return j, p.unexpected(j, "host")
	}
	return j, nil
}

// query parses the query (RFC 3986 3.4, RFC 3987 iquery: iprivate is allowed
// here only) from i, just after '?'.
func (p *parser) query(i int, u *URI) (int, *Error) {
	u.HasQuery = true
	j, err := p.span(i, cQuery, pctOK|privateOK)
	if err != nil {
		return j, err
	}
	if j < len(p.s) && p.s[j] != '#' {
		return j, p.unexpected(j, "query")
	}
	u.Query = p.s[i:j]
	return j, nil
}

type spanFlags uint8

const (
	pctOK     spanFlags = 1 << iota // pct-encoded triplets allowed
	privateOK                       // RFC 3987 iprivate allowed (iquery)
)

// span returns the end of the run starting at i of bytes in mask,
// pct-encoded triplets (when allowed) and, for IRIs, ucschar (and iprivate
// when allowed). It stops at the first ASCII byte outside mask; a malformed
// triplet or a non-ASCII character that does not belong is an error.
func (p *parser) span(i int, mask uint16, f spanFlags) (int, *Error) {
	s := p.s
	for i < len(s) {
		c := s[i]
		switch {
		case class[c]&mask != 0:
			i++
		case c == '%' && f&pctOK != 0:
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return i, p.badPercent(i)
			}
			i += 3
		case c < utf8.RuneSelf:
			return i, nil
		default:
			n, err := p.nonASCII(i, f)
			if err != nil {
				return i, err
			}
			i += n
		}
	}
	return i, nil
}

// nonASCII checks the character starting with the non-ASCII byte at i and
// returns its length.
func (p *parser) nonASCII(i int, f spanFlags) (int, *Error) {
	r, n := utf8.DecodeRuneInString(p.s[i:])
	switch {
	case r == utf8.RuneError && n == 1:
		return 0, p.fail(i, fmt.Sprintf("invalid UTF-8 byte 0x%02X", p.s[i]))
	case !p.k.isIRI():
		return 0, p.fail(i, "non-ASCII character: an IRI, not a URI")
	case isUcschar(r):
		return n, nil
	case isIprivate(r):
		if f&privateOK != 0 {
			return n, nil
		}
		return 0, p.fail(i, fmt.Sprintf("private-use character %U is allowed only in the query", r))
	}
	return 0, p.fail(i, fmt.Sprintf("character %U is not allowed in an IRI", r))
}

func (p *parser) badPercent(i int) *Error {
	end := min(i+3, len(p.s))
	// Show whole characters only.
	for end > i+1 && !utf8.ValidString(p.s[i:end]) {
		end--
	}
	return p.fail(i, fmt.Sprintf("bad percent-encoding %s", p.s[i:end]))
}

// unexpected explains why the byte at i cannot stand in component comp.
func (p *parser) unexpected(i int, comp string) *Error {
	c := p.s[i]
	switch {
	case c == ' ':
		return p.fail(i, "space is not allowed")
	case c < ' ' || c == 0x7F:
		return p.fail(i, fmt.Sprintf("control character 0x%02X is not allowed", c))
	case c == '[' || c == ']':
		return p.fail(i, fmt.Sprintf("'%c' outside an IP literal", c))
	case c == '%':
		return p.badPercent(i)
	case c >= utf8.RuneSelf:
		if _, err := p.nonASCII(i, 0); err != nil {
			return err
		}
	}
	return p.fail(i, fmt.Sprintf("'%c' is not allowed in the %s", c, comp))
}
