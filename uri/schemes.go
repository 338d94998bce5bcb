package uri

//go:generate go run gen_schemes.go

// Status is the registration status of a scheme in the IANA registry
// (RFC 7595 section 3).
type Status uint8

const (
	StatusPermanent Status = iota
	StatusProvisional
	StatusHistorical
)

func (s Status) String() string {
	switch s {
	case StatusPermanent:
		return "permanent"
	case StatusProvisional:
		return "provisional"
	case StatusHistorical:
		return "historical"
	}
	return "unknown"
}

// Scheme is a registered URI scheme; Name is lowercase.
type Scheme struct {
	Name   string
	Status Status
}

// LookupScheme finds name in the IANA URI schemes registry, ignoring case
// (RFC 3986 3.1). It does not allocate.
func LookupScheme(name string) (Scheme, bool) {
	if len(name) == 0 || len(name) > maxSchemeLen {
		return Scheme{}, false
	}
	var buf [maxSchemeLen]byte
	for i := 0; i < len(name); i++ {
		buf[i] = lowerASCII(name[i])
	}
	return lookupLower(buf[:len(name)])
}

// LookupSchemeBytes is LookupScheme for a byte slice. It does not allocate.
func LookupSchemeBytes(name []byte) (Scheme, bool) {
	if len(name) == 0 || len(name) > maxSchemeLen {
		return Scheme{}, false
	}
	var buf [maxSchemeLen]byte
	for i, c := range name {
		buf[i] = lowerASCII(c)
	}
	return lookupLower(buf[:len(name)])
}

// lookupLower searches the bucket of names sharing name's first letter and
// length (see schemeBucket).
func lookupLower(name []byte) (Scheme, bool) {
	first := name[0]
	if first < 'a' || first > 'z' {
		return Scheme{}, false
	}
	k := int(first-'a')*(maxSchemeLen+1) + len(name)
	for _, s := range schemes[schemeBucket[k]:schemeBucket[k+1]] {
		if s.Name == string(name) {
			return s, true
		}
	}
	return Scheme{}, false
}
