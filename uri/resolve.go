package uri

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Resolve returns the target of reference ref against base by RFC 3986 5.2,
// with remove_dot_segments (5.2.4) applied literally and the strict parser
// of 5.2.2 ("http:g" against an http base stays "http:g"). base must be an
// absolute URI or IRI (its fragment is ignored, 5.1); ref a URI or IRI
// reference. Both are checked by the grammar alone: the behaviour §5 scheme rule
// is a rule for found URIs, and 5.4.2 resolves "http:g".
func Resolve(base, ref string) (string, error) {
	var b, r URI
	if err := parseGrammar(base, KindIRI, &b); err != nil {
		return "", err
	}
	if err := parseGrammar(ref, KindIRIRef, &r); err != nil {
		return "", err
	}
	return b.ResolveReference(&r).String(), nil
}

// ResolveReference returns the target of ref against u (RFC 3986 5.2.2) as a
// new value. u should be absolute; its fragment is ignored.
func (u *URI) ResolveReference(ref *URI) *URI {
	t := new(URI)
	switch {
	case ref.Scheme != "":
		*t = *ref
		t.Path = removeDots(ref.Path)
	case ref.HasAuthority:
		*t = *ref
		t.Scheme = u.Scheme
		t.Path = removeDots(ref.Path)
	default:
		t.Scheme = u.Scheme
		copyAuthority(t, u)
		switch {
		case ref.Path == "":
			t.Path = u.Path
			t.Query, t.HasQuery = u.Query, u.HasQuery
			if ref.HasQuery {
				t.Query, t.HasQuery = ref.Query, true
			}
		case strings.HasPrefix(ref.Path, "/"):
			t.Path = removeDots(ref.Path)
			t.Query, t.HasQuery = ref.Query, ref.HasQuery
		default:
			t.Path = removeDots(merge(u, ref.Path))
			t.Query, t.HasQuery = ref.Query, ref.HasQuery
		}
	}
	t.Fragment, t.HasFragment = ref.Fragment, ref.HasFragment
	if !t.HasAuthority && strings.HasPrefix(t.Path, "//") {
		t.Path = "/." + t.Path // see guardPath
	}
	return t
}

func copyAuthority(t, u *URI) {
	t.HasAuthority = u.HasAuthority
	t.Userinfo, t.HasUserinfo = u.Userinfo, u.HasUserinfo
	t.Host = u.Host
	t.Port, t.HasPort = u.Port, u.HasPort
}

// merge merges a relative-path reference with the base path (RFC 3986 5.2.3).
func merge(base *URI, path string) string {
	if base.HasAuthority && base.Path == "" {
		return "/" + path
	}
	i := strings.LastIndexByte(base.Path, '/')
	return base.Path[:i+1] + path
}

// removeDots is remove_dot_segments (RFC 3986 5.2.4) on a string.
func removeDots(path string) string {
	if !strings.Contains(path, ".") {
		return path
	}
	b := []byte(path)
	return string(b[:removeDotSegments(b)])
}

// Equivalent reports whether a and b (URIs, IRIs or references) have the same
// normal form (behaviour §6), fragment included. It fails when either is
// invalid. An IRI is compared in its URI form (RFC 3987 5.3): the IRI
// http://例え.テスト/ and the URI http://xn--r8jz45g.xn--zckzah/ are
// equivalent. When an IRI has no URI form (a host that IDNA refuses), the
// IRIs are compared as they are.
func Equivalent(a, b string) (bool, error) {
	na, err := Normalize(a, KindIRIRef)
	if err != nil {
		return false, err
	}
	nb, err := Normalize(b, KindIRIRef)
	if err != nil {
		return false, err
	}
	// Normal forms recompose their components unambiguously, so comparing
	// the strings compares the components.
	if na == nb || (isASCII(na) && isASCII(nb)) {
		return na == nb, nil
	}
	aa, errA := asciiNormal(na)
	ab, errB := asciiNormal(nb)
	if errA != nil || errB != nil {
		return false, nil
	}
	return aa == ab, nil
}

// asciiNormal is the normal form of the URI form of the normal IRI n.
func asciiNormal(n string) (string, error) {
	if isASCII(n) {
		return n, nil
	}
	a, err := ToASCII(n)
	if err != nil {
		return "", err
	}
	return Normalize(a, KindIRIRef)
}

// ToASCII maps an IRI (or IRI reference) to a URI by RFC 3987 3.1: every
// non-ASCII character is percent-encoded as UTF-8, except in a host, which is
// converted to IDNA A-labels with the UTS #46 non-transitional lookup
// profile. A host that cannot be converted is an error.
func ToASCII(s string) (string, error) {
	var u URI
	if err := parse(s, KindIRIRef, &u); err != nil {
		return "", err
	}
	if isASCII(s) {
		return s, nil
	}
	host := u.Host
	if !isASCII(host) {
		h, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return "", &Error{Input: s, Offset: hostOffset(&u), Reason: "host cannot be converted to ASCII: " + err.Error()}
		}
		host = h
	}
	t := URI{
		Scheme:       u.Scheme,
		HasAuthority: u.HasAuthority,
		Userinfo:     pctEncodeNonASCII(u.Userinfo), HasUserinfo: u.HasUserinfo,
		Host: host,
		Port: u.Port, HasPort: u.HasPort,
		Path:  pctEncodeNonASCII(u.Path),
		Query: pctEncodeNonASCII(u.Query), HasQuery: u.HasQuery,
		Fragment: pctEncodeNonASCII(u.Fragment), HasFragment: u.HasFragment,
	}
	out := t.String()
	// IDNA output that is no reg-name (a lookup can map to characters such
	// as '%') is a host that cannot be converted.
	if e := parse(out, KindRef, &u); e != nil {
		return "", &Error{Input: s, Offset: hostOffset(&t), Reason: "host cannot be converted to ASCII: " + e.Reason}
	}
	return out, nil
}

// hostOffset is the byte offset of the host in the string u recomposes to.
func hostOffset(u *URI) int {
	off := 0
	if u.Scheme != "" {
		off = len(u.Scheme) + 1
	}
	off += 2
	if u.HasUserinfo {
		off += len(u.Userinfo) + 1
	}
	return off
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// pctEncodeNonASCII percent-encodes the UTF-8 bytes of non-ASCII characters
// (RFC 3987 3.1 step 2).
func pctEncodeNonASCII(s string) string {
	if isASCII(s) {
		return s
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) * 3)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
