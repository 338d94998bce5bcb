// Package uri parses, validates, normalizes, resolves and compares URIs and
// IRIs by the complete grammars of RFC 3986 (Appendix A), RFC 3987 (section
// 2.2) and RFC 6874 (IPv6 zone IDs), with the project rules of behaviour §5 and §6.
package uri

import (
	"strconv"
	"strings"
)

// Kind selects the grammar a string is checked against.
type Kind uint8

const (
	KindURI    Kind = iota // RFC 3986 "URI" (scheme required, fragment allowed)
	KindRef                // RFC 3986 URI-reference
	KindIRI                // RFC 3987 IRI
	KindIRIRef             // RFC 3987 IRI-reference
)

func (k Kind) String() string {
	switch k {
	case KindURI:
		return "URI"
	case KindRef:
		return "URI-reference"
	case KindIRI:
		return "IRI"
	case KindIRIRef:
		return "IRI-reference"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// isIRI reports whether k admits RFC 3987 ucschar and iprivate.
func (k Kind) isIRI() bool { return k == KindIRI || k == KindIRIRef }

// isRef reports whether k admits relative references.
func (k Kind) isRef() bool { return k == KindRef || k == KindIRIRef }

// URI holds the components exactly as written (not decoded), like net/url but
// with present/absent told apart. Host of an IP literal keeps its brackets.
type URI struct {
	Scheme       string // without ":"; "" for a relative reference
	HasAuthority bool
	Userinfo     string
	HasUserinfo  bool
	Host         string
	Port         string
	HasPort      bool
	Path         string // always present, may be empty
	Query        string
	HasQuery     bool
	Fragment     string
	HasFragment  bool
}

// Error tells where and why a string is not a URI of the kind asked for.
type Error struct {
	Input  string
	Offset int    // byte offset in Input where the fault is
	Reason string // what is wrong, in words a person understands
}

func (e *Error) Error() string {
	return e.Reason + " at byte " + strconv.Itoa(e.Offset)
}

// Parse checks s against the grammar of kind k and the behaviour §5 scheme rule and
// returns its components. On failure the error is an *Error.
func Parse(s string, k Kind) (*URI, error) {
	u := new(URI)
	if err := parse(s, k, u); err != nil {
		return nil, err
	}
	return u, nil
}

// MustParse is Parse for values known to be valid (tests, constants); it
// panics on an invalid s.
func MustParse(s string, k Kind) *URI {
	u, err := Parse(s, k)
	if err != nil {
		panic(err)
	}
	return u
}

// Validate checks s against kind k and the behaviour §5 scheme rule: an http,
// https, ws, wss or ftp URI without a non-empty host is invalid. It allocates
// nothing when s is valid and runs in time linear in len(s).
func Validate(s string, k Kind) error {
	var u URI
	if err := parse(s, k, &u); err != nil {
		return err
	}
	return nil
}

// ValidateBytes is Validate for a byte slice; it does not copy b.
func ValidateBytes(b []byte, k Kind) error {
	var u URI
	// The string shares b's memory only for the duration of the check; an
	// error copies what it keeps.
	if err := parse(unsafeString(b), k, &u); err != nil {
		err.Input = string(b)
		return err
	}
	return nil
}

// IsAbs reports whether u has a scheme (RFC 3986 4.3).
func (u *URI) IsAbs() bool { return u.Scheme != "" }

// String recomposes u (RFC 3986 5.3). For a parsed value it gives back exactly
// the string that was parsed.
func (u *URI) String() string {
	var b strings.Builder
	b.Grow(len(u.Scheme) + len(u.Userinfo) + len(u.Host) + len(u.Port) +
		len(u.Path) + len(u.Query) + len(u.Fragment) + 8)
	if u.Scheme != "" {
		b.WriteString(u.Scheme)
		b.WriteByte(':')
	}
	if u.HasAuthority {
		b.WriteString("//")
		if u.HasUserinfo {
			b.WriteString(u.Userinfo)
			b.WriteByte('@')
		}
		b.WriteString(u.Host)
		if u.HasPort {
			b.WriteByte(':')
			b.WriteString(u.Port)
		}
	}
	b.WriteString(u.Path)
	if u.HasQuery {
		b.WriteByte('?')
		b.WriteString(u.Query)
	}
	if u.HasFragment {
		b.WriteByte('#')
		b.WriteString(u.Fragment)
	}
	return b.String()
}

// needsHost reports whether scheme is one of those behaviour §5 requires a
// non-empty host for.
func needsHost(scheme string) bool {
	switch len(scheme) {
	case 2:
		return schemeIs(scheme, "ws")
	case 3:
		return schemeIs(scheme, "wss") || schemeIs(scheme, "ftp")
	case 4:
		return schemeIs(scheme, "http")
	case 5:
		return schemeIs(scheme, "https")
	}
	return false
}

// schemeIs is strings.EqualFold(scheme, name) for a scheme (ASCII letters,
// digits, '+', '-', '.') and a lower-case name of letters: c|0x20 lowers
// the letters and leaves the others as they are, so a byte matches only
// its letter, in either case. It is asked several times of every URI
// normalized, where EqualFold's generality cost a few percent.
func schemeIs(scheme, name string) bool {
	if len(scheme) != len(name) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if scheme[i]|0x20 != name[i] {
			return false
		}
	}
	return true
}
