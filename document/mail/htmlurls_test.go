package mail

import (
	"bytes"
	"reflect"
	"testing"
)

func TestCSSURLs(t *testing.T) {
	for _, c := range []struct {
		css  string
		want []string
	}{
		{`background:url(http://a.example/b.png)`, []string{"http://a.example/b.png"}},
		{`background: URL( "http://a.example/b c.png" ) , url('x.gif')`, []string{"http://a.example/b c.png", "x.gif"}},
		{`a{b:url(  http://a.example/x  )}c{d:url()}`, []string{"http://a.example/x"}},
		{`url("unclosed`, []string{"unclosed"}},
		{`url(`, nil},
		{`curl(http://a.example/)`, []string{"http://a.example/"}}, // a function name is no word boundary in CSS either
		{`color: red; font: 12px (x)`, nil},
	} {
		if got := cssURLs([]byte(c.css)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("cssURLs(%q) = %q, want %q", c.css, got, c.want)
		}
	}
}

func TestRefreshURL(t *testing.T) {
	for _, c := range []struct {
		content, want string
		ok            bool
	}{
		{"0; url=http://a.example/", "http://a.example/", true},
		{"0;URL='http://a.example/x'", "http://a.example/x", true},
		{` 5 , URL = "http://a.example/y" trailing`, "http://a.example/y", true},
		{"1.5; http://a.example/z", "http://a.example/z", true},
		{"0; urlish", "urlish", true},
		{"5", "", false},
		{"x; url=http://a.example/", "", false},
		{"5x; url=http://a.example/", "", false},
		{"0; url=", "", false},
	} {
		got, ok := refreshURL([]byte(c.content))
		if got != c.want || ok != c.ok {
			t.Errorf("refreshURL(%q) = %q, %v; want %q, %v", c.content, got, ok, c.want, c.ok)
		}
	}
}

// FuzzCSSAndRefresh: never a panic; every URL given stands in the input.
func FuzzCSSAndRefresh(f *testing.F) {
	for _, s := range []string{"url(x)", `URL( "a b" )`, "url('", "0; url=http://a/", "0;'", "url(url(x))"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, u := range cssURLs(b) {
			if u == "" || !bytes.Contains(b, []byte(u)) {
				t.Fatalf("cssURLs(%q) gives %q", b, u)
			}
		}
		if u, ok := refreshURL(b); ok && (u == "" || !bytes.Contains(b, []byte(u))) {
			t.Fatalf("refreshURL(%q) gives %q", b, u)
		}
	})
}
