package uri

import (
	"encoding/base64"
	"hash/maphash"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
)

// Facts are what a mail filter asks of a link (behaviour §10): the host
// the browser connects to, its registrable domain, and how the link is
// dressed.
type Facts struct {
	// HasHost: the URI has a non-empty host the browser accepts; Host
	// and Domain are set only then.
	HasHost bool
	Host    string // as BrowserHost gives it
	// Domain is the registrable domain of Host (RegistrableDomain), ""
	// for an IP address, a one-label host or a public suffix.
	Domain string
	// NumericHost: Host is an IP address, in any form (Host.Numeric).
	NumericHost bool
	// Userinfo: the authority holds a user part ("www.paypal.com@").
	Userinfo bool
	// EncodedHost: the host was written with percent-encoded bytes.
	EncodedHost bool
	// MixedScript: a host label mixes scripts (MixedScript).
	MixedScript bool
}

// FactsOf returns the facts of s, a URI or IRI (an IRI's host is mapped to
// A-labels). ok is false when s does not parse.
//
// The facts of a host are kept in a small cache (hostCache): hosts repeat
// in mail, and a host's facts cost ten times the look-up.
func FactsOf(s string) (f Facts, ok bool) { return factsOf(s, cachedHostFacts) }

// factsOfUncached is FactsOf without the cache, for the tests that check
// that the cache changes nothing.
func factsOfUncached(s string) (Facts, bool) { return factsOf(s, newHostFacts) }

func factsOf(s string, hostFactsOf func(special bool, host string) *hostFacts) (f Facts, ok bool) {
	var u URI
	if err := parse(s, KindIRI, &u); err != nil {
		return f, false
	}
	f.Userinfo = u.HasUserinfo
	if !u.HasAuthority || u.Host == "" {
		return f, true
	}
	f.setHost(hostFactsOf(isSpecialScheme(u.Scheme), u.Host))
	return f, true
}

// FactsOfValid is FactsOf for s known to be a valid IRI (Validate(s,
// KindIRI) gives nil, as for each valid extract.Match): it reads only the
// scheme and the authority, where FactsOf parses all of s (half the cost
// of the facts of a host cached). Of a string that is no valid IRI it
// returns some facts, and never panics.
func FactsOfValid(s string) Facts {
	var f Facts
	// In a valid IRI the scheme ends at the first ':' (RFC 3986 3.1), the
	// authority follows "//" and ends at the first '/', '?' or '#'
	// (3.2), and neither the user part nor a reg-name holds '@' (3.2.1),
	// nor a reg-name ':' (3.2.2): an IP literal ends at its ']'.
	colon := strings.IndexByte(s, ':')
	if colon < 1 || !strings.HasPrefix(s[colon+1:], "//") {
		return f
	}
	scheme, auth := s[:colon], s[colon+3:]
	// One pass over the authority (IndexAny cost as much as the cache's
	// look-up).
	at, port := -1, -1
	for i := 0; i < len(auth); i++ {
		switch auth[i] {
		case '/', '?', '#':
			auth = auth[:i]
		case '@':
			if at < 0 {
				at, port = i, -1
			}
			continue
		case ':':
			if port < 0 {
				port = i
			}
			continue
		default:
			continue
		}
		break
	}
	if at >= 0 {
		f.Userinfo = true
	}
	host := auth[at+1:]
	if strings.HasPrefix(host, "[") {
		if end := strings.IndexByte(host, ']'); end >= 0 {
			host = host[:end+1]
		}
	} else if port >= 0 {
		host = auth[at+1 : port]
	}
	if host == "" {
		return f
	}
	f.setHost(cachedHostFacts(isSpecialScheme(scheme), host))
	return f
}

// setHost sets the facts of f that are its host's.
func (f *Facts) setHost(h *hostFacts) {
	f.EncodedHost = h.encoded
	if !h.ok {
		return
	}
	f.HasHost, f.Host, f.NumericHost = true, h.name, h.numeric
	f.Domain, f.MixedScript = h.domain, h.mixed
}

// hostFacts are the facts of a host component as written (raw), in a URI
// of a special scheme or not: those of Facts that depend on the host
// alone.
type hostFacts struct {
	raw     string
	special bool
	ok      bool // BrowserHost takes the host; name and the rest are set only then
	name    string
	domain  string
	numeric bool
	encoded bool // the browser decoded %XX, or the host holds '%' it refused
	mixed   bool
}

// newHostFacts computes the facts of the host raw, of a URI of a special
// scheme (isSpecialScheme) or not.
func newHostFacts(special bool, raw string) *hostFacts {
	if isPlainName(raw) && !(special && endsInNumber(raw)) {
		// What browserHost, MixedScript and RegistrableDomain's own
		// checks give such a name, without their passes over it.
		return &hostFacts{raw: raw, special: special, ok: true, name: raw, domain: RegistrableDomain(raw)}
	}
	return fullHostFacts(special, raw)
}

// isPlainName tells a host that is its own browser form and shows one
// script: lower-case ASCII letters, digits, '-', '_' and '.' only (no
// '%' to decode, no upper case to map, no forbidden byte), and no A-label
// ("xn--", which IDNA checks and MixedScript reads). Most hosts are.
func isPlainName(raw string) bool {
	label := 0 // where the label starts
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '.':
			label = i + 1
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_':
		case c == '-':
			if i == label+3 && raw[label:i+1] == "xn--" {
				return false
			}
		default:
			return false
		}
	}
	return raw != ""
}

// fullHostFacts is newHostFacts by the rules for any host.
func fullHostFacts(special bool, raw string) *hostFacts {
	hf := &hostFacts{raw: raw, special: special}
	h, ok := browserHost(special, raw)
	hf.encoded = h.Encoded || strings.IndexByte(raw, '%') >= 0
	if !ok {
		return hf
	}
	hf.ok, hf.name, hf.numeric = true, h.Name, h.Numeric
	if !h.Numeric {
		hf.domain = RegistrableDomain(h.Name)
		hf.mixed = MixedScript(h.Name)
	}
	return hf
}

// The host cache: a direct-mapped table of the facts of hosts seen last,
// shared by all goroutines without a lock (each slot is an atomic pointer
// to facts never changed once made). A host that takes the slot of
// another replaces it; hosts longer than hostCacheMaxLen are not kept.
// Memory is bounded: hostCacheSize slots, each holding at most the facts
// of one host of at most hostCacheMaxLen bytes. On mail (bench/README,
// session 16), nine look-ups in ten or more hit.
const (
	hostCacheSize   = 4096 // a power of two
	hostCacheMaxLen = 255  // the longest DNS name
)

var (
	hostCache     [hostCacheSize]atomic.Pointer[hostFacts]
	hostCacheSeed = maphash.MakeSeed()
)

// cachedHostFacts is newHostFacts through the host cache.
func cachedHostFacts(special bool, raw string) *hostFacts {
	if len(raw) > hostCacheMaxLen {
		return newHostFacts(special, raw)
	}
	slot := &hostCache[hostCacheSlot(special, raw)]
	if hf := slot.Load(); hf != nil && hf.raw == raw && hf.special == special {
		return hf
	}
	// raw is most often a slice of a long URI: the copy kept does not
	// keep the URI alive.
	hf := newHostFacts(special, strings.Clone(raw))
	slot.Store(hf)
	return hf
}

func hostCacheSlot(special bool, raw string) uint64 {
	h := maphash.String(hostCacheSeed, raw)
	if special {
		h = ^h
	}
	return h & (hostCacheSize - 1)
}

// DisplayMismatch reports whether text, the visible text of a link to
// href, shows a URL or a host name whose registrable domain is not href's
// (behaviour §10): "www.paypal.com" or "https://paypal.com/login" shown on
// a link to evil.example. The same site in another form is no mismatch
// (www.paypal.com shown, https://paypal.com/ linked). A host shown is
// taken when written with a scheme ("https://...") or as a name whose
// last label is a top-level domain of the ICANN section of the public
// suffix list ("paypal.com", not "invoice.txt"); text that shows none
// ("Click here") never mismatches. Hosts without a registrable domain (IP
// addresses) are compared whole.
func DisplayMismatch(text, href string) bool {
	hf, ok := FactsOf(href)
	if !ok {
		return false
	}
	return hf.DisplayMismatch(text)
}

// DisplayMismatch is DisplayMismatch(text, href) for the facts f of href.
func (f *Facts) DisplayMismatch(text string) bool { return f.displayMismatch(text, cachedHostFacts) }

// displayMismatch is DisplayMismatch with the facts of a host shown from
// hostFactsOf.
func (f *Facts) displayMismatch(text string, hostFactsOf func(special bool, host string) *hostFacts) bool {
	if !f.HasHost || strings.IndexByte(text, '.') < 0 && !strings.Contains(text, "://") {
		return false // a host shown has a dot or a scheme: most anchor texts have neither
	}
	want := siteOf(f.Host, f.Domain)
	// Each word of the text in turn; the hosts shown go through the host
	// cache as those of links do (a newsletter shows its own site on
	// many links).
	for word := range strings.FieldsFuncSeq(text, unicode.IsSpace) {
		word = strings.TrimFunc(word, isWordWrapper)
		if word == "" {
			continue
		}
		if shown, ok := shownHost(word, hostFactsOf); ok && siteOf(shown.name, shown.domain) != want {
			return true
		}
	}
	return false
}

// siteOf is what two hosts are compared by: the registrable domain, or
// the host itself when it has none.
func siteOf(host, domain string) string {
	if domain != "" {
		return domain
	}
	return host
}

// isWordWrapper tells the characters around a host or URL in prose:
// brackets, quotes and sentence punctuation.
func isWordWrapper(r rune) bool {
	switch r {
	case '<', '>', '(', ')', '[', ']', '{', '}', '"', '\'', '.', ',', ';', ':', '!', '?', '«', '»', '“', '”', '‘', '’':
		return true
	}
	return false
}

// shownHost reads one word of a link's text as a URL with a scheme and an
// authority, or as a host name with a known top-level domain, optionally
// followed by a path.
func shownHost(word string, hostFactsOf func(special bool, host string) *hostFacts) (*hostFacts, bool) {
	if i := strings.Index(word, "://"); i > 0 {
		j := i
		for j > 0 && isSchemeChar(word[j-1]) {
			j--
		}
		scheme := word[j:i]
		rest := word[i+3:]
		auth := rest[:indexByteOf(rest, "/?#\\")]
		auth = auth[strings.LastIndexByte(auth, '@')+1:]
		if c := strings.LastIndexByte(auth, ':'); c >= 0 && !strings.HasSuffix(auth, "]") {
			auth = auth[:c]
		}
		h := hostFactsOf(isSpecialScheme(scheme), auth)
		return h, h.ok
	}
	name := word[:indexByteOf(word, "/?#")]
	if indexByteOf(name, "@:%") < len(name) || strings.IndexByte(name, '.') < 0 {
		return nil, false // an address, a time, a ratio: not a host
	}
	h := hostFactsOf(true, name) // as the browser reads http://name
	if !h.ok {
		return nil, false
	}
	if h.numeric {
		// Only a dotted quad reads as an address in prose ("1.5" is a
		// number).
		return h, strings.Count(name, ".") == 3 && strings.Trim(name, "0123456789.") == ""
	}
	tld := h.name[strings.LastIndexByte(h.name, '.')+1:]
	if _, icann := publicsuffix.PublicSuffix(tld); !icann || tld == "" {
		return nil, false
	}
	return h, true
}

// indexByteOf is the index of the first byte of s that is one of set (all
// ASCII), len(s) when none is: strings.IndexAny makes a set each call,
// which cost a fifth of the mismatch check.
func indexByteOf(s, set string) int {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) >= 0 {
			return i
		}
	}
	return len(s)
}

func isSchemeChar(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// Embedded returns the URIs that stand inside s's query or path (behaviour
// §10): after "=" in a query, or at the start of a path segment, an
// http(s) URL written as it is or percent-encoded once
// (https://www.google.com/url?q=http%3A%2F%2Fevil.example%2F), each
// percent-decoded once and ending where its query value ends (at '&' or
// the end of the query), or, in a path, where the segment ends when it is
// encoded (Yahoo's /RU=http%3a%2f%2f.../RK=0) and at the end of the path
// when it is not (a tracker's /click/https://evil.example/x). Bing's
// redirector (bing.com/ck/a?...&u=a1 and the URL in base64url) is read
// too. Only those that are valid URIs with a host are returned, in the
// order they stand.
func Embedded(s string) []string {
	var u URI
	if err := parse(s, KindIRI, &u); err != nil {
		return nil
	}
	var out []string
	add := func(v string) {
		// Decoded once, as the redirector decodes its parameter; a plain
		// URL whose own %XX would then break it is taken as written.
		for _, c := range [...]string{percentDecode(v), v} {
			if f, ok := FactsOf(c); ok && f.HasHost {
				out = append(out, c)
				return
			}
		}
	}
	// The path: an embedded URL starts a segment or follows "=" in one.
	path := u.Path
	for i := 0; i < len(path); i++ {
		if i > 0 && path[i-1] != '/' && path[i-1] != '=' {
			continue
		}
		encoded, ok := urlStart(path[i:])
		if !ok {
			continue
		}
		end := len(path)
		if encoded {
			if j := strings.IndexByte(path[i:], '/'); j >= 0 {
				end = i + j
			}
		} else if u.HasQuery {
			// A plain URL in the path takes the query with it.
			add(path[i:] + "?" + u.Query)
			break
		}
		add(path[i:end])
		i = end
	}
	if !u.HasQuery {
		return out
	}
	bing := isBing(u.Host)
	for field := range strings.SplitSeq(u.Query, "&") {
		_, v, ok := strings.Cut(field, "=")
		if !ok {
			continue
		}
		if bing && strings.HasPrefix(v, "a1") {
			if b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(v[2:], "=")); err == nil && utf8.Valid(b) {
				if _, ok := urlStart(string(b)); ok {
					add(string(b))
					continue
				}
			}
		}
		if _, ok := urlStart(v); ok {
			add(v)
		}
	}
	return out
}

// urlStart tells whether s starts with "http://" or "https://", as written
// (encoded false) or with ":" and "/" percent-encoded ("http%3A%2F%2F").
func urlStart(s string) (encoded, ok bool) {
	if len(s) < 7 || !strings.EqualFold(s[:4], "http") {
		return false, false
	}
	s = s[4:]
	if s[0] == 's' || s[0] == 'S' {
		s = s[1:]
	}
	switch {
	case strings.HasPrefix(s, "://"):
		return false, true
	case len(s) >= 9 && strings.EqualFold(s[:9], "%3A%2F%2F"):
		return true, true
	}
	return false, false
}

// isBing tells Bing's hosts, whose redirector (/ck/a) carries the target
// in base64url after "a1" in its u parameter.
func isBing(host string) bool {
	host = strings.ToLower(host)
	return host == "bing.com" || strings.HasSuffix(host, ".bing.com")
}
