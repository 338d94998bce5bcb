package extract

import "testing"

// Behaviour §2 (revision 4) through the library: the span of each URI,
// the scheme extract gives bare hosts and addresses, and their validity.
func TestWhereAURIStarts(t *testing.T) {
	email := Options{Email: true}
	runMarkCases(t, []markCase{
		// Step 1: the tail of a word.
		{in: "READ_DATA:ALLOW WRITE_DATA:DENY x_http://a.example/"},
		{in: "--|http://a.example/| x_-|http://b.example/|"},
		// Step 2: a word glued to http, https, ftp.
		{in: "Download it from|http://example.com/pkg.tar.gz| today"},
		{in: "page|https://x.example/| see|ftp://f.example/f| |git+https://g.example/r|"},
		{in: "|fromhttp://x.example/|", opts: Options{AnyScheme: true}},
		{in: "see|http://x.example/| e.g.|http://y.example/|", opts: Options{Schemes: []string{"http"}}},
		// Without "//": the shapes of mid:, cid:, tel:, fax:.
		{in: "a=mid:1\na=mid:audio\na=group:BUNDLE 0 1\n|mid:a@b.example|"},
		{in: "Tel: 0123 4567\nTel:0123 4567\nFax:+49 89 1234\nfax:555-1234\n|tel:+1-201-555-0123|"},
		{in: "<|tel:+1-201-\n 555-0123|>", want: []string{"tel:+1-201-555-0123"}},
		// --www: the host of what is reported starts with www.
		{in: "login at www.info@evil.example today", opts: Options{WWW: true}},
		{in: "login at |www.info@evil.example| today", want: []string{"mailto:www.info@evil.example"}, opts: Options{WWW: true, Email: true}},
		// --email: the local part whole.
		{in: "Contact:|john@example.com|", want: []string{"mailto:john@example.com"}, opts: email},
		{in: "Write to |o'brien@example.com| or |a!b@example.com|", want: []string{"mailto:o'brien@example.com", "mailto:a!b@example.com"}, opts: email},
		{in: "(|üa@example.com|)", want: []string{"mailto:%C3%BCa@example.com"}, opts: email}, // RFC 6068 2
		// A character that is atext but not a URI character makes the
		// whole address invalid; it is never cut to a valid tail.
		{in: "|a{b@example.com|", want: []string{"mailto:a%7Bb@example.com"}, opts: email}, // RFC 6068 2
		{in: "git clone git@github.com:user/repo.git", opts: email},
		{in: "In article <1234@news.example.com>, |joe@example.org| (Joe) wrote:", want: []string{"mailto:joe@example.org"}, opts: email},
	})
}
