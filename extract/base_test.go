package extract

import "testing"

// TestResolveBase pins behaviour §9.5: which base URI a <base href>, a
// Content-Base or Content-Location, or a WARC target URI sets.
func TestResolveBase(t *testing.T) {
	for _, c := range []struct{ base, ref, want string }{
		// Alone: an absolute URI or IRI sets itself, as written.
		{"", "http://example.com/dir/", "http://example.com/dir/"},
		{"", "http://example.com/a/../b#f", "http://example.com/a/../b#f"},
		{"", "http://例え.テスト/パス/", "http://例え.テスト/パス/"},
		// Relative, or not a valid URI: no base.
		{"", "sub/page.html", ""},
		{"", "", ""},
		{"", "http://bad host/dir/", ""},
		{"", "http://example.com:80x/", ""},
		{"", "1http://example.com/", ""},
		// Against a base: resolved (RFC 3986 5.2), when the target is
		// an absolute URI.
		{"http://base.example/m/", "sub/page.html", "http://base.example/m/sub/page.html"},
		{"http://example.com/b/", "../x/", "http://example.com/x/"},
		{"http://example.com/b/", "//cdn.example.net/", "http://cdn.example.net/"},
		{"http://example.com/b/", "a b/", ""},
		{"http://example.com/b/", "%zz/", ""},
	} {
		if got := ResolveBase(c.base, c.ref); got != c.want {
			t.Errorf("ResolveBase(%q, %q) = %q, want %q", c.base, c.ref, got, c.want)
		}
	}
}
