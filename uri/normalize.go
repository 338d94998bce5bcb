package uri

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Normalize returns the behaviour §6 normal form of s, which must be valid for
// kind k (RFC 3986 6.2.2 and 6.2.3), in this order:
//
//   - scheme and host lowercased (IPv6 hex digits too; an IPv6 zone ID keeps
//     its case, RFC 6874 section 2);
//   - percent-encoding hex digits uppercased;
//   - percent-encoded unreserved characters decoded (in the host, a decoded
//     letter is lowercased too, so that the result is normal itself);
//   - dot segments removed by RFC 3986 5.2.4, literally, also from rootless
//     paths ("foo:a/../b" gives "foo:/b"); relative-path references keep
//     theirs, since they only make sense against a base;
//   - for http, https, ws, wss and ftp a port equal to the default is
//     dropped; an empty port's ':' is dropped for every scheme; an empty
//     path with an authority becomes "/" for http, https, ws and wss.
//
// IRIs stay IRIs. Normalize is idempotent. When s is already normal it
// returns s itself without allocating; otherwise it allocates once.
func Normalize(s string, k Kind) (string, error) {
	switch simpleNormal(s) {
	case simpleAsIs:
		return s, nil
	case simpleSlash:
		return s + "/", nil
	}
	return normalizeParsed(s, k)
}

// AppendNormalize appends the normal form of s (see Normalize) to dst and
// returns the extended buffer; on error it returns dst as it was, and the
// error of Normalize. A caller that makes many strings into one buffer of
// its own (package extract) so spares an allocation for each.
func AppendNormalize(dst []byte, s string, k Kind) ([]byte, error) {
	switch simpleNormal(s) {
	case simpleAsIs:
		return append(dst, s...), nil
	case simpleSlash:
		return append(append(dst, s...), '/'), nil
	}
	var u URI
	if err := parse(s, k, &u); err != nil {
		return dst, err
	}
	if isNormal(&u, strings.IndexByte(s, '%') >= 0) {
		return append(dst, s...), nil
	}
	return appendNormalized(slices.Grow(dst, normalizedCap(&u)), &u), nil
}

// normalizeParsed is Normalize by the parse and isNormal.
func normalizeParsed(s string, k Kind) (string, error) {
	var u URI
	if err := parse(s, k, &u); err != nil {
		return "", err
	}
	if isNormal(&u, strings.IndexByte(s, '%') >= 0) {
		return s, nil
	}
	return normalized(&u), nil
}

// simpleNormal tells, in one pass, whether s is an absolute URI of the
// commonest shape, valid for every Kind and normal as it stands: a
// lower-case scheme, "//", a non-empty lower-case reg-name host (no
// userinfo, port or IP literal), a path that starts with '/' and has no
// "." or ".." segment, then maybe a query and a fragment; all ASCII, no
// '%'. Normalize gives such a URI back without the parse and isNormal,
// which cost a fifth of the time of each URI of hostile input packed
// with them (issue #17). With nothing after the host, s is normal as it
// stands, or with a '/' after it for the schemes of slashForEmptyPath
// (a bare www.host). Without "//" after the scheme, the rest may be a
// rootless path (simpleRootless). TestSimpleNormal holds it to the full
// reading.
func simpleNormal(s string) simpleShape {
	// Each loop asks one class bit of each byte: a comparison more for
	// the upper-case letters cost a tenth of the time of each URI of
	// hostile input packed with them.
	if len(s) == 0 || s[0] < 'a' || s[0] > 'z' {
		return notSimple
	}
	i := 1
	for i < len(s) && class[s[i]]&cLowScheme != 0 {
		i++
	}
	if i == len(s) || s[i] != ':' {
		return notSimple
	}
	if i+2 >= len(s) || s[i+1] != '/' || s[i+2] != '/' {
		return simpleRootless(s, i)
	}
	scheme := i
	i += 3
	host := i
	for i < len(s) && class[s[i]]&cLowRegName != 0 {
		i++
	}
	if i == host {
		return notSimple
	}
	if i == len(s) {
		// slashForEmptyPath of a lower-case scheme.
		switch s[:scheme] {
		case "http", "https", "ws", "wss":
			return simpleSlash
		}
		return simpleAsIs
	}
	if s[i] != '/' {
		return notSimple
	}
	return simplePath(s, i+1)
}

// simpleRootless is simpleNormal past the ':' at index colon of a scheme
// not followed by "//": a rootless path of pchars with no "." or ".."
// segment, then maybe a query and a fragment, as "mailto:user@host" (a
// bare address made a URI) and "urn:isbn:0451450523" are. The parse
// and isNormal cost a third of the time of each "a@b.com" of hostile
// input packed with them (issue #17). A scheme that needs a host is
// invalid so, and an empty or absolute path is left to the parse.
func simpleRootless(s string, colon int) simpleShape {
	i := colon + 1
	if i == len(s) || class[s[i]]&cPchar == 0 || needsHost(s[:colon]) {
		return notSimple
	}
	return simplePath(s, i)
}

// simplePath is simpleNormal from index seg, the start of a path segment
// (after a '/', or the first of a rootless path): segments of pchars, no
// "." or "..", then maybe a query and a fragment with no '%' and no
// character outside them.
func simplePath(s string, seg int) simpleShape {
	i := seg
	for ; i < len(s); i++ {
		c := s[i]
		if class[c]&cPchar != 0 {
			continue
		}
		if c != '/' {
			break
		}
		if dotSegment(s[seg:i]) {
			return notSimple
		}
		seg = i + 1
	}
	if dotSegment(s[seg:i]) {
		return notSimple
	}
	if i < len(s) && s[i] == '?' {
		for i++; i < len(s) && s[i] != '#'; i++ {
			if class[s[i]]&cQuery == 0 {
				return notSimple
			}
		}
	}
	if i == len(s) {
		return simpleAsIs
	}
	if s[i] != '#' {
		return notSimple
	}
	for i++; i < len(s); i++ {
		if class[s[i]]&cQuery == 0 {
			return notSimple
		}
	}
	return simpleAsIs
}

// simpleShape is what simpleNormal tells of a URI.
type simpleShape uint8

const (
	notSimple   simpleShape = iota // not of the simple shape: parse it
	simpleAsIs                     // valid and normal as it stands
	simpleSlash                    // valid, and normal with a '/' after it
)

func dotSegment(seg string) bool { return seg == "." || seg == ".." }

// Normalize returns the normal form of u as a new value (see Normalize),
// component by component; u is expected to be valid, as Parse returns it.
func (u *URI) Normalize() *URI {
	n := *u
	n.Scheme = strings.ToLower(u.Scheme)
	if u.HasAuthority {
		n.Userinfo = string(appendPct(nil, u.Userinfo))
		n.Host = string(appendHost(nil, u.Host))
		if u.HasPort && (u.Port == "" || isDefaultPort(n.Scheme, u.Port)) {
			n.Port, n.HasPort = "", false
		}
	}
	n.Path = string(appendPath(nil, u, n.Scheme))
	n.Query = string(appendPct(nil, u.Query))
	n.Fragment = string(appendPct(nil, u.Fragment))
	return &n
}

// defaultPort returns the port behaviour §6 drops for scheme (any case).
func defaultPort(scheme string) string {
	switch {
	case schemeIs(scheme, "http"), schemeIs(scheme, "ws"):
		return "80"
	case schemeIs(scheme, "https"), schemeIs(scheme, "wss"):
		return "443"
	case schemeIs(scheme, "ftp"):
		return "21"
	}
	return ""
}

// slashForEmptyPath reports whether an empty path with an authority becomes
// "/" for scheme (any case), RFC 3986 6.2.3.
func slashForEmptyPath(scheme string) bool {
	return needsHost(scheme) && !schemeIs(scheme, "ftp")
}

// isDefaultPort reports whether the numeric value of port (all digits) is
// the default port of scheme ("080" is 80).
func isDefaultPort(scheme, port string) bool {
	def := defaultPort(scheme)
	if def == "" {
		return false
	}
	return strings.TrimLeft(port, "0") == def
}

// removesDots reports whether the path of u goes through remove_dot_segments
// in normalization: always, except for relative-path references.
func removesDots(u *URI) bool {
	return u.Scheme != "" || u.HasAuthority || strings.HasPrefix(u.Path, "/")
}

// isNormal reports whether normalized(u) == u.String(), without allocating.
// pct tells whether u holds a '%' at all: most URIs have none, and a
// search of each component for one cost as much as the parse of a short
// URI.
func isNormal(u *URI, pct bool) bool {
	if hasUpper(u.Scheme) || !hostIsNormal(u.Host, pct) {
		return false
	}
	if pct && (!pctIsNormal(u.Userinfo) || !pctIsNormal(u.Path) ||
		!pctIsNormal(u.Query) || !pctIsNormal(u.Fragment)) {
		return false
	}
	if removesDots(u) && !dotsRemoved(u) {
		return false
	}
	if u.HasPort && (u.Port == "" || isDefaultPort(u.Scheme, u.Port)) {
		return false
	}
	return !(u.HasAuthority && u.Path == "" && slashForEmptyPath(u.Scheme))
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// pctIsNormal reports whether every triplet in s has uppercase hex digits
// and encodes a character outside unreserved.
func pctIsNormal(s string) bool {
	for i := strings.IndexByte(s, '%'); i >= 0; {
		if isTriplet(s[i:]) && !pctTripletIsNormal(s[i:]) {
			return false
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return true
}

// pctTripletIsNormal reports whether the triplet t[:3] is in normal form.
func pctTripletIsNormal(t string) bool {
	if 'a' <= t[1] || 'a' <= t[2] {
		return false
	}
	return !isUnreserved(unhex(t[1])<<4 | unhex(t[2]))
}

// hostIsNormal reports whether host is lowercase with normal triplets. An
// IPv6 zone ID keeps its case.
func hostIsNormal(host string, pct bool) bool {
	if plainLowerHost(host) {
		return true
	}
	addr := host
	if pct {
		var zone string
		if addr, zone = splitZone(host); !pctIsNormal(zone) {
			return false
		}
	}
	for i := 0; i < len(addr); {
		c := addr[i]
		switch {
		case 'A' <= c && c <= 'Z':
			return false
		case isTriplet(addr[i:]):
			if !pctTripletIsNormal(addr[i:]) {
				return false
			}
			i += 3
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(addr[i:])
			if lowerRune(r) != r {
				return false
			}
			i += n
		default:
			i++
		}
	}
	return true
}

// plainLowerHost tells the commonest host, normal as it stands and
// copied as it is: ASCII, no upper-case letter, no '%' (no triplet, no
// zone ID). The byte-by-byte reading of hostIsNormal and appendHost cost
// a sixth of the time of each "www.a.com" of hostile input.
func plainLowerHost(host string) bool {
	for i := 0; i < len(host); i++ {
		if c := host[i]; c >= utf8.RuneSelf || c == '%' || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// splitZone splits an IP literal with an RFC 6874 zone ID into the address
// part (with "[") and the zone part (from "%25", with "]").
func splitZone(host string) (addr, zone string) {
	if strings.HasPrefix(host, "[") {
		if i := strings.IndexByte(host, '%'); i >= 0 {
			return host[:i], host[i:]
		}
	}
	return host, ""
}

// lowerRune lowercases a non-ASCII host character by Unicode's simple case
// mapping, keeping it when the lowercase form could not stand in an IRI host.
func lowerRune(r rune) rune {
	l := unicode.ToLower(r)
	if l == r || (l < utf8.RuneSelf && !isUnreserved(byte(l))) || (l >= utf8.RuneSelf && !isUcschar(l)) {
		return r
	}
	return l
}

// dotsRemoved reports whether remove_dot_segments leaves the path of u as it
// is (including the "/." guard normalization adds, see guardPath).
func dotsRemoved(u *URI) bool {
	path := u.Path
	if strings.IndexByte(path, '.') < 0 {
		return true // no dot segment, and no "/.//" guard
	}
	if !u.HasAuthority && strings.HasPrefix(path, "/.//") {
		path = path[2:]
	}
	for path != "" {
		seg := path
		if i := strings.IndexByte(path, '/'); i >= 0 {
			seg, path = path[:i], path[i+1:]
		} else {
			path = ""
		}
		// An encoded dot ("%2E") is not normal already (pctIsNormal).
		if seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// normalized builds the normal form of u in one buffer.
func normalized(u *URI) string {
	return unsafeString(appendNormalized(make([]byte, 0, normalizedCap(u)), u))
}

// appendNormalized appends the normal form of u to buf, which has room
// for it (normalizedCap) when it is to grow no more.
func appendNormalized(buf []byte, u *URI) []byte {
	start := len(buf)
	for i := 0; i < len(u.Scheme); i++ {
		buf = append(buf, lowerASCII(u.Scheme[i]))
	}
	// The lowercase scheme, viewed in buf (whose bytes do not change again)
	// so that it costs no allocation of its own.
	scheme := unsafeString(buf[start:])
	if u.Scheme != "" {
		buf = append(buf, ':')
	}
	if u.HasAuthority {
		buf = append(buf, "//"...)
		if u.HasUserinfo {
			buf = appendPct(buf, u.Userinfo)
			buf = append(buf, '@')
		}
		buf = appendHost(buf, u.Host)
		if u.HasPort && u.Port != "" && !isDefaultPort(scheme, u.Port) {
			buf = append(buf, ':')
			buf = append(buf, u.Port...)
		}
	}
	buf = appendPath(buf, u, scheme)
	if u.HasQuery {
		buf = append(buf, '?')
		buf = appendPct(buf, u.Query)
	}
	if u.HasFragment {
		buf = append(buf, '#')
		buf = appendPct(buf, u.Fragment)
	}
	return buf
}

// normalizedCap bounds the length of the normal form: only the "/" of an
// empty path, the "/." guard and host lowercasing can grow it (a lowercase
// rune takes at most one byte more than its uppercase, per the Unicode
// tables; we allow for a doubled host).
func normalizedCap(u *URI) int {
	return len(u.Scheme) + len(u.Userinfo) + 2*len(u.Host) + len(u.Port) +
		len(u.Path) + len(u.Query) + len(u.Fragment) + 10
}

func appendPath(buf []byte, u *URI, scheme string) []byte {
	if u.HasAuthority && u.Path == "" && slashForEmptyPath(scheme) {
		return append(buf, '/')
	}
	if !removesDots(u) {
		return appendPct(buf, u.Path)
	}
	start := len(buf)
	buf = appendPct(buf, u.Path)
	n := removeDotSegments(buf[start:])
	buf = buf[:start+n]
	return guardPath(buf, start, u.HasAuthority)
}

// guardPath keeps a path without an authority from starting with "//",
// which would read as an authority: "foo:/.//x" removes to "foo://x", so it
// is written "foo:/.//x" (as WHATWG URL does). RFC 3986 5.2.4 leaves this
// case open.
func guardPath(buf []byte, start int, hasAuthority bool) []byte {
	if hasAuthority || !strings.HasPrefix(unsafeString(buf[start:]), "//") {
		return buf
	}
	buf = append(buf, "/."...)
	copy(buf[start+2:], buf[start:len(buf)-2])
	buf[start], buf[start+1] = '/', '.'
	return buf
}

// appendPct appends s with triplet hex uppercased and unreserved decoded.
// A '%' that starts no triplet (only in a URI value not made by Parse) is
// copied as it is.
func appendPct(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !isTriplet(s[i:]) {
			buf = append(buf, s[i])
			continue
		}
		buf = appendTriplet(buf, s[i+1], s[i+2], false)
		i += 2
	}
	return buf
}

// isTriplet reports whether s starts with pct-encoded (RFC 3986 2.1).
func isTriplet(s string) bool {
	return len(s) >= 3 && s[0] == '%' && isHex(s[1]) && isHex(s[2])
}

// appendTriplet appends the normal form of the triplet %hl; lower says a
// decoded letter is lowercased (in a host).
func appendTriplet(buf []byte, h, l byte, lower bool) []byte {
	c := unhex(h)<<4 | unhex(l)
	if isUnreserved(c) {
		if lower {
			c = lowerASCII(c)
		}
		return append(buf, c)
	}
	const hex = "0123456789ABCDEF"
	return append(buf, '%', hex[c>>4], hex[c&15])
}

// appendHost appends host lowercased, with normal triplets; the zone ID of an
// IPv6 literal keeps its case.
func appendHost(buf []byte, host string) []byte {
	if plainLowerHost(host) {
		return append(buf, host...)
	}
	addr, zone := splitZone(host)
	for i := 0; i < len(addr); {
		c := addr[i]
		switch {
		case isTriplet(addr[i:]):
			buf = appendTriplet(buf, addr[i+1], addr[i+2], true)
			i += 3
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(addr[i:])
			buf = utf8.AppendRune(buf, lowerRune(r))
			i += n
		default:
			buf = append(buf, lowerASCII(c))
			i++
		}
	}
	return appendPct(buf, zone)
}

// removeDotSegments applies RFC 3986 5.2.4 to the path in b, in place, and
// returns the length of the result. The output never outruns the input, so
// the output buffer is the front of b; where the algorithm replaces a prefix
// of the input with "/", the '/' is written over the last byte replaced.
func removeDotSegments(b []byte) int {
	r, w := 0, 0 // read position (input buffer), end of output buffer
	for r < len(b) {
		in := unsafeString(b[r:])
		switch {
		// A: remove a prefix "../" or "./".
		case strings.HasPrefix(in, "../"):
			r += 3
		case strings.HasPrefix(in, "./"):
			r += 2
		// B: replace a prefix "/./" or "/." (complete segment) with "/".
		case strings.HasPrefix(in, "/./"):
			r += 2
		case in == "/.":
			r++
			b[r] = '/'
		// C: replace "/../" or "/.." with "/" and remove the last segment
		// and its preceding "/" (if any) from the output.
		case strings.HasPrefix(in, "/../"):
			r += 3
			w = lastSlash(b[:w])
		case in == "/..":
			r += 2
			b[r] = '/'
			w = lastSlash(b[:w])
		// D: remove "." or "..".
		case in == "." || in == "..":
			r = len(b)
		// E: move the first segment, with its initial "/" if any, to the
		// output.
		default:
			j := r
			if b[j] == '/' {
				j++
			}
			for j < len(b) && b[j] != '/' {
				j++
			}
			w += copy(b[w:], b[r:j])
			r = j
		}
	}
	return w
}

func lastSlash(out []byte) int {
	for i := len(out) - 1; i >= 0; i-- {
		if out[i] == '/' {
			return i
		}
	}
	return 0
}
