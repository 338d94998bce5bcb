package uri

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// Host is the host a browser connects to for the host component of a URI,
// and how that component was written (behaviour §10).
type Host struct {
	// Name is the host as the WHATWG URL Standard serializes it: an IPv4
	// address as its dotted quad, an IPv6 address in brackets in its
	// shortest form, a domain name lower case with its IDN labels as
	// A-labels.
	Name string
	// Numeric: the host is an IP address (IPv4 in any of the forms the
	// WHATWG parser takes: 1 to 4 parts, each decimal, octal or hex; or
	// an IPv6 literal).
	Numeric bool
	// Encoded: the component held percent-encoded bytes, which the
	// browser decodes before it reads the host.
	Encoded bool
}

// BrowserHost returns the host a browser connects to for host, the host
// component of a URI of the given scheme as written (an IP literal with
// its brackets, an IRI's host in Unicode), by the host parser of the WHATWG
// URL Standard (3.5 "host parsing"): percent-decoding, UTS #46 mapping to
// A-labels, and, for the special schemes (http, https, ftp, ws, wss,
// file), the IPv4 parser that reads 1071396130, 0x3f.0xdc.0x35.0x22 and
// 0177.1 as addresses. ok is false when the browser refuses the host (a
// forbidden character, an IDNA error, an IPv4 number out of range) or it
// is empty.
func BrowserHost(scheme, host string) (h Host, ok bool) {
	return browserHost(isSpecialScheme(scheme), host)
}

// browserHost is BrowserHost for a URI of a special scheme or not.
func browserHost(special bool, host string) (h Host, ok bool) {
	if host == "" {
		return h, false
	}
	if host[0] == '[' {
		return ipLiteralHost(host)
	}
	h.Encoded = strings.IndexByte(host, '%') >= 0
	decoded := host
	if h.Encoded {
		decoded = percentDecode(host)
	}
	if !utf8.ValidString(decoded) {
		// The browser decodes as UTF-8 with replacement; U+FFFD is
		// disallowed by UTS #46: the host fails.
		return h, false
	}
	ascii, ok := domainToASCII(decoded)
	if !ok {
		return h, false
	}
	if special && endsInNumber(ascii) {
		ip, ok := parseIPv4(ascii)
		if !ok {
			return h, false
		}
		h.Name, h.Numeric = formatIPv4(ip), true
		return h, true
	}
	h.Name = ascii
	return h, true
}

// isSpecialScheme tells the special schemes of the WHATWG URL Standard
// (4.1), the only ones whose hosts the IPv4 parser reads.
func isSpecialScheme(scheme string) bool {
	// By length first: it is asked of every link.
	switch len(scheme) {
	case 2:
		return strings.EqualFold(scheme, "ws")
	case 3:
		return strings.EqualFold(scheme, "ftp") || strings.EqualFold(scheme, "wss")
	case 4:
		return strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "file")
	case 5:
		return strings.EqualFold(scheme, "https")
	}
	return false
}

// browserIDNA is the UTS #46 processing of the WHATWG "domain to ASCII"
// (3.3) with beStrict false: no STD3 rules, no hyphen checks, no DNS
// length limits; Bidi and ContextJ rules checked; non-transitional.
var browserIDNA = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(false),
)

// domainToASCII maps a decoded domain to its ASCII form and checks the
// forbidden domain code points (WHATWG URL 3.5 steps 5-8).
func domainToASCII(d string) (string, bool) {
	ascii := d
	if !isASCII(d) || hasPunycodeLabel(d) {
		a, err := browserIDNA.ToASCII(d)
		if err != nil {
			return "", false
		}
		ascii = a
	} else {
		ascii = strings.ToLower(d)
	}
	if ascii == "" {
		return "", false
	}
	for i := 0; i < len(ascii); i++ {
		if forbiddenDomainByte(ascii[i]) {
			return "", false
		}
	}
	return ascii, true
}

// hasPunycodeLabel tells whether an ASCII domain has an "xn--" label,
// which UTS #46 checks (an invalid one fails the host).
func hasPunycodeLabel(d string) bool {
	for label := range strings.SplitSeq(d, ".") {
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			return true
		}
	}
	return false
}

// forbiddenDomainByte is the forbidden domain code point set of the WHATWG
// URL Standard (3.1) in ASCII: C0 controls, space, # % / : < > ? @ [ \ ] ^
// | and DEL.
func forbiddenDomainByte(c byte) bool { return forbiddenDomain[c] }

var forbiddenDomain = func() (t [256]bool) {
	for c := 0; c <= ' '; c++ {
		t[c] = true
	}
	t[0x7f] = true
	for _, c := range []byte("#%/:<>?@[\\]^|") {
		t[c] = true
	}
	return t
}()

// percentDecode decodes the %XX triplets of s; a '%' not followed by two
// hex digits stays as it is (WHATWG URL 1.3 "percent-decode").
func percentDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// PercentDecode decodes each %XX triplet of s once; a '%' not followed by
// two hex digits stays as it is.
func PercentDecode(s string) string { return percentDecode(s) }

// endsInNumber is the WHATWG "ends in a number checker" (3.5): the last
// label (after one trailing dot) is all ASCII digits, or parses as an
// IPv4 number (0x1F).
func endsInNumber(d string) bool {
	d = strings.TrimSuffix(d, ".") // "1.2.3.4." ends in 4
	last := d[strings.LastIndexByte(d, '.')+1:]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4 is the WHATWG IPv4 parser (3.5): one to four parts, each
// decimal, octal (a leading 0) or hex (0x); all parts but the last at most
// 255, the last filling the bytes left.
func parseIPv4(d string) (uint32, bool) {
	parts := strings.Split(d, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1] // "1.2.3.4." is 1.2.3.4
	}
	if len(parts) > 4 {
		return 0, false
	}
	var ip uint64
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return 0, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return 0, false
			}
			ip |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return 0, false
		}
		ip += n
	}
	return uint32(ip), true
}

// parseIPv4Number reads one part of an IPv4 address: "0x" or "0X" starts
// hex (nothing after it is 0), a leading "0" octal, else decimal. Values
// past 2^32 are capped there: they fail the address either way.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
	case len(s) >= 2 && s[0] == '0':
		base, s = 8, s[1:]
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case base == 16 && (c|0x20) >= 'a' && (c|0x20) <= 'f':
			d = uint64(c|0x20-'a') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		n = min(n*base+d, 1<<32)
	}
	return n, true
}

func formatIPv4(ip uint32) string {
	b := make([]byte, 0, 15)
	for i := 3; i >= 0; i-- {
		b = strconv.AppendUint(b, uint64(ip>>(8*i)&0xff), 10)
		if i > 0 {
			b = append(b, '.')
		}
	}
	return string(b)
}

// ipLiteralHost reads "[...]": an IPv6 address in the WHATWG serialization
// (3.7: lower-case hex, the first longest run of two or more zero pieces
// compressed, never a dotted quad); IPvFuture and zone IDs, which browsers
// refuse, fail.
func ipLiteralHost(host string) (Host, bool) {
	if len(host) < 2 || host[len(host)-1] != ']' {
		return Host{}, false
	}
	a, err := netip.ParseAddr(host[1 : len(host)-1])
	if err != nil || a.Zone() != "" || !a.Is6() {
		return Host{}, false
	}
	return Host{Name: "[" + formatIPv6(a.As16()) + "]", Numeric: true}, true
}

func formatIPv6(b [16]byte) string {
	var pieces [8]uint16
	for i := range pieces {
		pieces[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	// The first longest run of zero pieces, when longer than one.
	best, bestLen := -1, 1
	for i := 0; i < 8; {
		if pieces[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && pieces[j] == 0 {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	var s []byte
	for i := 0; i < 8; i++ {
		if i == best {
			s = append(s, "::"...)
			i += bestLen - 1
			continue
		}
		if len(s) > 0 && s[len(s)-1] != ':' {
			s = append(s, ':')
		}
		s = strconv.AppendUint(s, uint64(pieces[i]), 16)
	}
	return string(s)
}

// RegistrableDomain returns the registrable domain of host: its public
// suffix (golang.org/x/net/publicsuffix, ICANN and private sections) and
// one label more, in the form host is written in (an IDN host in Unicode
// gives its Unicode labels, one of A-labels its A-labels; an ASCII host
// lower case). It
// is "" for an IP address, a public suffix itself (co.uk, github.io), a
// one-label host, and a host that is no domain name. news.bbc.co.uk gives
// bbc.co.uk.
func RegistrableDomain(host string) string {
	host = strings.TrimSuffix(host, ".") // the root's dot: example.com. is example.com
	if host == "" || host[0] == '[' || strings.ContainsRune(host, '%') || !strings.Contains(host, ".") {
		return ""
	}
	last := host[strings.LastIndexByte(host, '.')+1:]
	if strings.Trim(last, "0123456789") == "" {
		return "" // an IPv4 address; no top-level domain is all digits
	}
	ascii := host
	if !isASCII(host) {
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return ""
		}
		ascii = a
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(strings.ToLower(ascii))
	if err != nil {
		return ""
	}
	if ascii == host {
		return d
	}
	// The same labels of the Unicode host, when they map one to one.
	n := strings.Count(d, ".") + 1
	labels := strings.Split(host, ".")
	if len(labels) != strings.Count(ascii, ".")+1 || n > len(labels) {
		return d
	}
	return strings.Join(labels[len(labels)-n:], ".")
}
