package extract

import (
	"strings"
	"testing"
)

// markCase is a table case in the style of Rust's linkify tests: in marks
// the raw extent of each URI (Match.Offset to Match.End) with bars, and want
// gives the URIs reported, when they differ from the marked text (a
// rejoined URI, a www or e-mail match). A want entry starting with "!" is
// expected invalid. An input without bars expects nothing.
type markCase struct {
	name string
	in   string
	want []string
	opts Options
}

func runMarkCases(t *testing.T, cases []markCase) {
	t.Helper()
	for _, tc := range cases {
		name := tc.name
		if name == "" {
			name = tc.in
		}
		t.Run(name, func(t *testing.T) {
			in, spans := parseMarkup(t, tc.in)
			want := tc.want
			if want == nil {
				for _, sp := range spans {
					want = append(want, in[sp[0]:sp[1]])
				}
			}
			ms := collectString(in, tc.opts)
			var gotURIs []string
			for _, m := range ms {
				u := m.URI
				if !m.Valid {
					u = "!" + u
				}
				gotURIs = append(gotURIs, u)
			}
			if strings.Join(gotURIs, "\n") != strings.Join(want, "\n") || len(gotURIs) != len(want) {
				t.Fatalf("input %q:\ngot  %q\nwant %q%s", in, gotURIs, want, dump(ms))
			}
			// The marked spans: one per URI, or one per pair under HyphenBoth.
			si := 0
			for i, m := range ms {
				if si >= len(spans) {
					t.Fatalf("match %d has no marked span%s", i, dump(ms))
				}
				sp := spans[si]
				if m.Offset != sp[0] || m.End != sp[1] {
					t.Errorf("match %d at [%d,%d), marked [%d,%d)%s", i, m.Offset, m.End, sp[0], sp[1], dump(ms))
				}
				if m.Raw != in[m.Offset:m.End] {
					t.Errorf("match %d: Raw %q is not input[%d:%d] %q", i, m.Raw, m.Offset, m.End, in[m.Offset:m.End])
				}
				if !(tc.opts.Hyphen == HyphenBoth && m.Flags&HyphenAmbiguous != 0 && i+1 < len(ms) && ms[i+1].Offset == m.Offset) {
					si++
				}
			}
			checkSplits(t, []byte(in), tc.opts, true)
		})
	}
}

// behaviour §2: where a URI starts.
func TestSchemeStart(t *testing.T) {
	runMarkCases(t, []markCase{
		{in: "see |http://example.com/a| now"},
		{in: "|HTTP://EXAMPLE.COM/|"},
		{in: "e.g.|http://x|"},
		{in: "Download...|http://x/y|"},
		{in: "1.|http://x|"},
		{in: "2.0http://x"},
		{in: "1http://x"},
		{in: "obj.data:x"},
		{in: "go:generate"},
		{in: "//go:generate stringer"},
		{in: "about:blank"},
		{in: "tag:example.com,2004:x info:x example:x"},
		{in: "|svn+ssh://x/y|"},
		{in: "|s3://bucket/key| and |postgres://u@h/db|"},
		{in: "|iris.beep://x|"}, // registered: dotted runs must be
		{in: "my.app://x"},
		{in: "|mailto:a@b.example| |news:comp.lang.go| |urn:isbn:0451450523|"},
		{in: "|tel:+1-201-555-0123| |sip:alice@atlanta.example| |data:,hello| |geo:37.786971,-122.399677|"},
		{in: "|magnet:?xt=urn:btih:abc| |cid:foo@bar| |mid:m@h| |sms:+15105550101| |fax:+358.555.1234567| |xmpp:a@b.example| |sips:x@y|"},
		{in: "Note: this"},
		{in: "Re: hello"},
		{in: "at 10:30"},
		{in: "std::vector<int>"},
		{in: "use Data::Dumper; use Geo::IP; Mail::Header"}, // scope operators, not data:, geo: or mailto: URIs
		{in: `C:\x and C:/x c://x`},
		{in: "ratio 3:2"},
		{in: "http://"},
		{in: "http:// alone"},
		{in: "mailto: someone"},
		{in: "mailto:"},
		{in: "news:"},
		{in: "|http://a/?u=http://b/|"},
		{in: "|http://a/,http://b/|"},
		{in: "--|http://x/|"},
		{in: "+.|http://x/|"},
		{in: "x:|http://x/|"},
		{in: "http:x"}, // http needs // to be found (behaviour §2 step 2)
		{in: "|ftp://ftp.is.co.za/rfc/rfc1808.txt|"},
		{in: "|ldap://[2001:db8::7]/c=GB?objectClass?one|"},
		{in: "|file:///etc/hosts|"},
		{in: "|foo://a/b|"},
		{in: "foo:a/b"},
	})
}

func TestSchemeOptions(t *testing.T) {
	runMarkCases(t, []markCase{
		{in: "|foo:bar| |go:generate| and C:x", opts: Options{AnyScheme: true}},
		{in: "|e.g.http://x|", opts: Options{AnyScheme: true}, name: "any-scheme-dotted-run", want: []string{"e.g.http://x"}},
		{in: "URL:|http://a/|", opts: Options{AnyScheme: true}},
		{in: "e.g.|http://x| |http:y| ftp://z", want: []string{"http://x", "!http:y"}, name: "scheme-list-http mailto:a", opts: Options{Schemes: []string{"HTTP"}}},
		{in: "|go:generate| |mailto:a| https://x", opts: Options{Schemes: []string{"go", "mailto"}}},
		{in: "|x:y|", opts: Options{Schemes: []string{"x"}}},
	})
}
