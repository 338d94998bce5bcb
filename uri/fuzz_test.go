package uri

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

var allKinds = []Kind{KindURI, KindRef, KindIRI, KindIRIRef}

// seeds are added to every fuzz target besides the committed corpora.
func seeds() []string {
	s := append([]string(nil), rfcExamples...)
	for _, v := range validForms {
		s = append(s, v.s)
	}
	for _, v := range invalidForms {
		s = append(s, v.s)
	}
	return s
}

// FuzzParse: no panic on any bytes; Parse and Validate agree; a valid string
// round-trips through String; the kinds nest.
func FuzzParse(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		valid := map[Kind]bool{}
		for _, k := range allKinds {
			verr := Validate(s, k)
			u, perr := Parse(s, k)
			valid[k] = verr == nil
			if (verr == nil) != (perr == nil) {
				t.Fatalf("%v: Validate %v, Parse %v", k, verr, perr)
			}
			if verr != nil {
				var e *Error
				if !errors.As(verr, &e) || e.Offset < 0 || e.Offset > len(s) || e.Reason == "" {
					t.Fatalf("%v: bad error %#v", k, verr)
				}
				continue
			}
			if got := u.String(); got != s {
				t.Fatalf("%v: round trip gives %q", k, got)
			}
		}
		if valid[KindURI] && !(valid[KindRef] && valid[KindIRI]) ||
			(valid[KindRef] || valid[KindIRI]) && !valid[KindIRIRef] {
			t.Fatalf("kinds do not nest: %v", valid)
		}
	})
}

// FuzzNormalize: the normal form is valid, idempotent and equivalent to the
// input.
func FuzzNormalize(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range allKinds {
			n, err := Normalize(s, k)
			if err != nil {
				continue
			}
			if err := Validate(n, k); err != nil {
				t.Fatalf("%v: Normalize gives %q, invalid: %v", k, n, err)
			}
			if again, _ := Normalize(n, k); again != n {
				t.Fatalf("%v: Normalize(%q) = %q, not idempotent", k, n, again)
			}
			if eq, err := Equivalent(s, n); !eq || err != nil {
				t.Fatalf("%v: Equivalent(s, %q) = %v, %v", k, n, eq, err)
			}
			if m := MustParse(s, k).Normalize().String(); m != n {
				t.Fatalf("%v: (*URI).Normalize gives %q, Normalize %q", k, m, n)
			}
			if b, err := AppendNormalize([]byte("x"), s, k); err != nil || string(b) != "x"+n {
				t.Fatalf("%v: AppendNormalize gives %q, %v; Normalize %q", k, b, err, n)
			}
		}
	})
}

// FuzzResolve: the target of a valid reference against a valid base is a
// valid IRI by the grammar (a URI when both were ASCII) without dot segments.
// (Resolving the target again need not give it back: an empty reference
// takes the base path as written, dots and all, 5.2.2.)
func FuzzResolve(f *testing.F) {
	for _, s := range seeds() {
		f.Add("http://a/b/c/d;p?q", s)
		f.Add(s, "../g")
	}
	f.Add("foo:a/b", "../c")
	f.Add("foo:/a", "..//x")
	f.Fuzz(func(t *testing.T, base, ref string) {
		target, err := Resolve(base, ref)
		if err != nil {
			return
		}
		var u URI
		k := KindIRI
		if isASCII(base) && isASCII(ref) {
			k = KindURI
		}
		if err := parseGrammar(target, k, &u); err != nil {
			t.Fatalf("Resolve gives %q, not a valid %v: %v", target, k, err)
		}
		// The target's path has no dot segments left, except where RFC 3986
		// 5.2.2 takes the base path as it is (an empty reference path).
		var r URI
		parseGrammar(ref, KindIRIRef, &r)
		if r.Path != "" && !dotsRemoved(&u) {
			t.Fatalf("Resolve gives %q, with dot segments", target)
		}
	})
}

// FuzzNetURL compares the components with net/url where both call a string
// a valid URI. net/url is more lenient than RFC 3986, so only strings urix
// accepts are compared; these documented net/url behaviours are skipped:
//
//   - url.URL.Host is percent-decoded (a reg-name "%41", a zone ID "%25eth0"
//     becomes "%eth0"), so hosts holding '%' are not compared;
//   - url.URL.User is decoded and re-encoded on output, so only its presence
//     is compared;
//   - url.URL has no "empty fragment" flag: "#" and no fragment look alike;
//   - net/url keeps the scheme's case only in nothing: it lowercases it.
func FuzzNetURL(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s, KindURI)
		if err != nil {
			return
		}
		nu, err := url.Parse(s)
		if err != nil {
			return
		}
		if nu.Scheme != strings.ToLower(u.Scheme) {
			t.Fatalf("scheme: net/url %q, urix %q", nu.Scheme, u.Scheme)
		}
		if (nu.User != nil) != u.HasUserinfo {
			t.Fatalf("userinfo: net/url %v, urix %v", nu.User, u.HasUserinfo)
		}
		if u.HasAuthority && !strings.Contains(u.Host, "%") {
			host := u.Host
			if u.HasPort {
				host += ":" + u.Port
			}
			if nu.Host != host {
				t.Fatalf("host: net/url %q, urix %q", nu.Host, host)
			}
		}
		path := nu.EscapedPath()
		if nu.Opaque != "" {
			path = nu.Opaque // a rootless path: net/url keeps it raw
		}
		if path != u.Path {
			t.Fatalf("path: net/url %q, urix %q", path, u.Path)
		}
		if nu.RawQuery != u.Query || nu.ForceQuery != (u.HasQuery && u.Query == "") {
			t.Fatalf("query: net/url %q (force %v), urix %q", nu.RawQuery, nu.ForceQuery, u.Query)
		}
		if nu.EscapedFragment() != u.Fragment {
			t.Fatalf("fragment: net/url %q, urix %q", nu.EscapedFragment(), u.Fragment)
		}
	})
}
