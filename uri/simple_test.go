package uri

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSimpleNormal holds Normalize's fast path to the full reading: every
// string simpleNormal accepts is valid for every Kind and its own normal
// form by the parse and isNormal (normalizeParsed). The random strings
// mix the pieces that decide, and a good share of them is accepted.
func TestSimpleNormal(t *testing.T) {
	pieces := []string{
		"http", "HTTP", "h", "s", "x+y", "1", "://", ":", "//", "/", "a", "A", "b-", "~", "_",
		".", "..", "/./", "/../", "?", "#", "%41", "%7e", ":80", "@", "é", "!", "$", "[", "]", "[::1]",
		"'", "(", ")", "*", "+", ",", ";", "=", " ", "<", "\"", "\\", "^", "`", "{", "|", "\x00",
	}
	rng := rand.New(rand.NewPCG(3986, 6))
	accepted := 0
	for n := 0; n < 200000; n++ {
		var sb strings.Builder
		switch rng.IntN(5) {
		case 0:
			sb.WriteString("http://a/") // often the start of a simple one
		case 1:
			sb.WriteString("http://")
		case 2:
			sb.WriteString("mailto:a") // a rootless path
		case 3:
			sb.WriteString("x:")
		}
		for k := rng.IntN(10); k > 0; k-- {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := sb.String()
		shape := simpleNormal(s)
		want := s
		switch shape {
		case notSimple:
			continue
		case simpleSlash:
			want = s + "/"
		}
		accepted++
		for _, k := range []Kind{KindURI, KindRef, KindIRI, KindIRIRef} {
			if got, err := normalizeParsed(s, k); err != nil || got != want {
				t.Fatalf("simpleNormal(%q) = %d; the full reading as %v gives %q, %v", s, shape, k, got, err)
			}
		}
	}
	if accepted < 1000 {
		t.Errorf("only %d strings took the fast path: the test says little", accepted)
	}
	for s, want := range map[string]simpleShape{
		"http://a/b-": simpleAsIs, "https://example.com/a/b?c=d#e": simpleAsIs, "ftp://x.y/z/": simpleAsIs,
		"http://www.a.com": simpleSlash, "wss://a": simpleSlash, "ftp://a": simpleAsIs, "foo://a": simpleAsIs,
		"mailto:a@b.com": simpleAsIs, "urn:isbn:0451450523": simpleAsIs, "x:a/b/?c#d": simpleAsIs,
	} {
		if got := simpleNormal(s); got != want {
			t.Errorf("simpleNormal(%q) = %d, want %d", s, got, want)
		}
	}
	// Near misses: each breaks one of its rules, and is not normal or not
	// valid as it stands.
	for _, s := range []string{
		"http:///a", "HTTP://a/", "http://A/", "http://a?q", "http://a:80/", "http://u@a/",
		"http://a/./b", "http://a/b/..", "http://a/%41", "http://a/b#c#d", "http://a/é", "http://[::1]/",
		"http:a", "HTTPS:a", "Mailto:a@b", "mailto:a/./b", "mailto:a/..", "x:.", "x:a%7e", "x:a?%41",
		"x:a#b#c", "x:a b", ":a", "1x:a",
	} {
		if simpleNormal(s) != notSimple {
			t.Errorf("simpleNormal(%q) = %d, want notSimple", s, simpleNormal(s))
		}
	}
}
