package scan

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// startCase is one input and the candidates the scanner gives for it, each
// as extract reports it: a www candidate with "http://" before it, an
// address with "mailto:".
type startCase struct {
	in   string
	want []string
}

// candidates lists what s finds, as startCase writes it.
func candidates(r io.Reader, cfg Config) []string {
	s := New(r, cfg)
	var got []string
	for s.Scan() {
		c := s.Candidate()
		switch {
		case c.Flags&TooLong != 0:
			got = append(got, "(too long)")
		case c.Kind == KindWWW:
			got = append(got, "http://"+string(c.Text))
		case c.Kind == KindEmail:
			got = append(got, "mailto:"+string(c.Text))
		default:
			got = append(got, string(c.Text))
		}
	}
	return got
}

// runStartCases checks each case read at once, a byte at a time, and split
// in two reads at every point (results never depend on read splits).
func runStartCases(t *testing.T, cfg Config, cases []startCase) {
	t.Helper()
	for _, tc := range cases {
		want := strings.Join(tc.want, "\n")
		check := func(how string, r io.Reader) {
			t.Helper()
			if got := strings.Join(candidates(r, cfg), "\n"); got != want {
				t.Errorf("%q (%s):\ngot  %q\nwant %q", tc.in, how, got, want)
			}
		}
		check("one read", strings.NewReader(tc.in))
		check("in place", inPlace(tc.in))
		check("byte by byte", iotest.OneByteReader(strings.NewReader(tc.in)))
		for k := 1; k < len(tc.in); k++ {
			check("split", io.MultiReader(strings.NewReader(tc.in[:k]), strings.NewReader(tc.in[k:])))
		}
	}
}

// Behaviour §2 step 1: R right after '_' is the tail of a word; leading
// '-', '+', '.' are not part of R.
func TestSchemeAfterUnderscore(t *testing.T) {
	cases := []startCase{
		{"READ_DATA:ALLOW WRITE_DATA:DENY", nil},
		{"x_http://a", nil},
		{"x_http://a.example/", nil},
		{"log: x_e.g.http://a.example/ end", nil},
		{"snake_case http://a.example/", []string{"http://a.example/"}},
		{"_ http://a.example/", []string{"http://a.example/"}},
		{"--http://a.example/", []string{"http://a.example/"}},
		{"+.http://a.example/", []string{"http://a.example/"}},
		{"x_-http://a.example/", []string{"http://a.example/"}}, // '-' stands before R, not '_'
		{"file_mailto:a@b.example mailto:c@d.example", []string{"mailto:c@d.example"}},
	}
	runStartCases(t, Config{}, cases)
	// In every mode: the tail of a word is never a scheme.
	runStartCases(t, Config{AnyScheme: true}, []startCase{
		{"READ_DATA:ALLOW foo_bar:baz", nil},
		{"x_http://a", nil},
		{"foo:bar", []string{"foo:bar"}},
	})
	runStartCases(t, Config{Schemes: []string{"data", "http"}}, []startCase{
		{"READ_DATA:ALLOW x_http://a data:,x", []string{"data:,x"}},
	})
}

// Behaviour §2 step 2: a word glued to http, https or ftp.
func TestGluedWords(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		{"Download it fromhttp://example.com/pkg.tar.gz today", []string{"http://example.com/pkg.tar.gz"}},
		{"pagehttps://x.example/", []string{"https://x.example/"}},
		{"seehttp://x.example", []string{"http://x.example"}},
		{"getftp://ftp.example/f", []string{"ftp://ftp.example/f"}},
		{"FromHTTP://x.example/", []string{"HTTP://x.example/"}},
		{"e.g.fromhttp://x.example/", []string{"http://x.example/"}},
		// Not glued: not after a letter, or registered as it stands.
		{"git+https://x.example/r", []string{"git+https://x.example/r"}},
		{"svn+ssh://x.example/r", []string{"svn+ssh://x.example/r"}},
		{"sftp://s.example/ tftp://t.example/ dhttp://d.example/", []string{"sftp://s.example/", "tftp://t.example/", "dhttp://d.example/"}},
		{"s3http://x.example/", []string{"s3http://x.example/"}},
		{"1http://x.example/", nil},
		{"seehttp:x", nil}, // without "//" the rule does not apply
	})
	// --any-scheme takes R as it stands.
	runStartCases(t, Config{AnyScheme: true}, []startCase{
		{"fromhttp://x.example/", []string{"fromhttp://x.example/"}},
		{"e.g.http://x.example/", []string{"e.g.http://x.example/"}},
	})
	// --scheme: the list in place of the registry.
	runStartCases(t, Config{Schemes: []string{"http"}}, []startCase{
		{"seehttp://x.example/ e.g.http://y.example/ git+https://z.example/", []string{"http://x.example/", "http://y.example/"}},
	})
	runStartCases(t, Config{Schemes: []string{"ftp"}}, []startCase{
		{"fromhttp://x.example/ seeftp://f.example/", []string{"ftp://f.example/"}},
	})
	runStartCases(t, Config{Schemes: []string{"fromhttp"}}, []startCase{
		{"fromhttp://x.example/", []string{"fromhttp://x.example/"}},
	})
}

// Behaviour §2 step 3: a dotted R with "//".
func TestDottedRun(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		{"e.g.http://x", []string{"http://x"}},
		{"Download...http://x", []string{"http://x"}},
		{"1.http://x", []string{"http://x"}},
		{"a.b.iris.beep://x", []string{"iris.beep://x"}}, // the longest registered ending
		{"iris.beep://x", []string{"iris.beep://x"}},
		{"2.0http://x", nil},
		{"obj.data:x", nil},
		{"my.app://x", nil},
	})
}

// Behaviour §2 step 2, without "//": only the schemes people write so, and
// mid:, cid:, tel:, fax: only in their own shape.
func TestSchemesWithoutSlashes(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		{"mailto:a@b.example news:comp.lang.go urn:isbn:0451450523 sip:a@b.example sips:a@b.example",
			[]string{"mailto:a@b.example", "news:comp.lang.go", "urn:isbn:0451450523", "sip:a@b.example", "sips:a@b.example"}},
		{"xmpp:a@b.example sms:+15105550101 data:,x geo:1,2 magnet:?xt=urn:btih:abc",
			[]string{"xmpp:a@b.example", "sms:+15105550101", "data:,x", "geo:1,2", "magnet:?xt=urn:btih:abc"}},
		{"go:generate tag:example.com,2004:x info:x example:x about:blank", nil},
		// mid: and cid: hold an '@' (RFC 2392).
		{"a=group:BUNDLE 0 1\na=mid:1\na=mid:audio\n", nil},
		{"mid:960830.1639@XIson.com/partA.960830.1639@XIson.com cid:foo4*foo1@bar.net",
			[]string{"mid:960830.1639@XIson.com/partA.960830.1639@XIson.com", "cid:foo4*foo1@bar.net"}},
		{"cid:part1 MID:x", nil},
		{"<mid:a@b.example> <cid:\n  part1>", []string{"mid:a@b.example"}},
		// tel: and fax: hold a global number, or a local one with its context.
		{"Tel: 0123 4567\nTel:0123 4567\nFax:+49 89 1234\nfax:555-1234\n", nil},
		{"tel:+1-201-555-0123 TEL:+1234567 fax:+358.555.1234567 tel:+1(201)5550123;ext=1",
			[]string{"tel:+1-201-555-0123", "TEL:+1234567", "fax:+358.555.1234567", "tel:+1(201)5550123;ext=1"}},
		{"tel:+123456 tel:+ tel:+-------", nil}, // fewer than 7 digits
		{"tel:7042;phone-context=example.com tel:863-1234;PHONE-CONTEXT=+1-914-555",
			[]string{"tel:7042;phone-context=example.com", "tel:863-1234;PHONE-CONTEXT=+1-914-555"}},
		{"tel:7042;ext=1 tel:;phone-context=x tel:70 42;phone-context=x", nil},
		{"<tel:+1-201-\n  555-0123>", []string{"tel:+1-201-555-0123"}}, // the shape of the rejoined URI
		// What stands after a turned-down one is still read.
		{"a=mid:1 http://x.example/ Tel:0123 tel:+12345678", []string{"http://x.example/", "tel:+12345678"}},
		// With "//" the shapes do not apply: the registered scheme stands.
		{"tel://x.example/", []string{"tel://x.example/"}},
	})
	// --scheme: the shapes hold for the listed schemes too; --any-scheme
	// takes what stands.
	runStartCases(t, Config{Schemes: []string{"mid", "tel"}}, []startCase{
		{"a=mid:1 Tel:0123 mid:a@b tel:+12345678", []string{"mid:a@b", "tel:+12345678"}},
	})
	runStartCases(t, Config{AnyScheme: true}, []startCase{
		{"a=mid:1 Tel:0123", []string{"mid:1", "Tel:0123"}},
	})
}

// Behaviour §2, --www: reported only when the host of what is reported
// starts with "www.".
func TestWWWHost(t *testing.T) {
	runStartCases(t, Config{WWW: true}, []startCase{
		{"login at www.info@evil.example today", nil},
		{"www.a.example:80@evil.example", nil},
		{"www.example.com/a@b www.example.com:8080/x?u=a@b#c@d", []string{"http://www.example.com/a@b", "http://www.example.com:8080/x?u=a@b#c@d"}},
		{"<www.example.com/a\n b>", []string{"http://www.example.com/ab"}},
		{"user@www.example.com www.example www.", nil},
	})
	// The address stays an address.
	runStartCases(t, Config{WWW: true, Email: true}, []startCase{
		{"login at www.info@evil.example today", []string{"mailto:www.info@evil.example"}},
	})
}

// Behaviour §2, --email: the local part is dot-atom text of RFC 5322 with
// the UTF-8 of RFC 6531, taken whole; the domain ends in an IANA TLD.
func TestEmailAddresses(t *testing.T) {
	runStartCases(t, Config{Email: true}, []startCase{
		{"Write to o'brien@example.com please", []string{"mailto:o'brien@example.com"}},
		{"a!b@example.com x#y$z%w&v*u+t-s/r=q?p^o_n`m{l|k}j~i@example.com",
			[]string{"mailto:a!b@example.com", "mailto:x#y$z%w&v*u+t-s/r=q?p^o_n`m{l|k}j~i@example.com"}},
		{"üa@example.com Ärger@example.com 用户@例子.公司 почта@пример.рф",
			[]string{"mailto:üa@example.com", "mailto:Ärger@example.com", "mailto:用户@例子.公司", "mailto:почта@пример.рф"}},
		{"u\u0308a@example.com", []string{"mailto:u\u0308a@example.com"}}, // a combining mark
		{"first.last+tag@sub.example.org", []string{"mailto:first.last+tag@sub.example.org"}},
		// Where it starts: after whitespace, the start, or a character that
		// cannot be in it.
		{"Contact:john@example.com", []string{"mailto:john@example.com"}},
		{"(a@example.com) [b@example.com] <c@example.com> \"d@example.com\" “e@example.com”",
			[]string{"mailto:a@example.com", "mailto:b@example.com", "mailto:c@example.com", "mailto:d@example.com", "mailto:e@example.com"}},
		{"連絡先：f@example.com", []string{"mailto:f@example.com"}},
		{"a@b@example.com", []string{"mailto:b@example.com"}},
		// Markup around it is not part of it.
		{"'a@example.com' `b@example.com` *c@example.com* **d@example.com** _e@example.com_ {f@example.com}",
			[]string{"mailto:a@example.com", "mailto:b@example.com", "mailto:c@example.com", "mailto:d@example.com", "mailto:e@example.com", "mailto:f@example.com"}},
		// Dots only between atoms.
		{"...a@example.com", []string{"mailto:a@example.com"}},
		{"a..b@example.com a.@example.com .@example.com", nil},
		// Not addresses.
		{"@example.com user@example.c user@example user@1.2.3.4 image@2x.png admin@host.local", nil},
		{"/home/a@example.com my.app://u@example.com", nil},
		{strings.Repeat("a", 65) + "@example.com", nil}, // RFC 5321: 64 octets at most
		{strings.Repeat("a", 64) + "@example.com", []string{"mailto:" + strings.Repeat("a", 64) + "@example.com"}},
		{strings.Repeat("é", 33) + "@example.com", nil},
		// user@host:path is scp's and git's.
		{"git clone git@github.com:user/repo.git", nil},
		{"scp me@host.example.com:~/f me@host.example.com:22 .", nil},
		{"Mail john@example.com: today", []string{"mailto:john@example.com"}},
		{"Mail john@example.com:", []string{"mailto:john@example.com"}},
		// The id of a news attribution line is a Message-ID.
		{"In article <1234@news.example.com>, joe@example.org (Joe) wrote:", []string{"mailto:joe@example.org"}},
		{"> in  article\t<a.b@host.example.net>, Jane writes:", nil},
		{"Within article <x@example.com>", []string{"mailto:x@example.com"}},
		{"Reply <x@example.com>", []string{"mailto:x@example.com"}},
		// A URI is found first, and what it holds is its own.
		{"mailto:user@example.com http://u@example.com/", []string{"mailto:user@example.com", "http://u@example.com/"}},
	})
}
