package extract

import "github.com/urix-dev/urix/uri"

// ResolveBase returns the base URI that ref sets for the HTML around it
// (behaviour §9.5), read against base, the base so far: ref resolved
// against base by RFC 3986 5.2 (ref itself when base is ""), when that is
// an absolute URI or IRI; else "" (a relative ref with no base, a value
// that is not a valid URI). ref is a <base href> (stripped as the browser
// strips it), a part's Content-Base or Content-Location (against the
// message's), or a WARC record's target URI.
//
// It is the rule package mail's Options.ResolveBase asks for: the mail
// walker reads the HTML, this package judges the URIs.
func ResolveBase(base, ref string) string {
	if base == "" {
		if isAbsoluteIRI(ref) {
			return ref
		}
		return ""
	}
	if t, err := uri.Resolve(base, ref); err == nil && isAbsoluteIRI(t) {
		return t
	}
	return ""
}

// isAbsoluteIRI reports whether s is an absolute IRI: a scheme, ":", and
// the rest valid (RFC 3987).
func isAbsoluteIRI(s string) bool {
	return hasScheme(s) && uri.Validate(s, uri.KindIRI) == nil
}
