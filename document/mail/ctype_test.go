package mail

import (
	"mime"
	"reflect"
	"strings"
	"testing"
)

// The media type is the text before the first ";" whatever follows it;
// the parameters are those that parse (behaviour §9).
func TestParseContentType(t *testing.T) {
	cases := []struct {
		in     string
		typ    string
		params map[string]string
		ok     bool
	}{
		{"text/html;;;;", "text/html", map[string]string{}, true},
		{"TEXT/HTML; Charset=\"UTF-8\"", "text/html", map[string]string{"charset": "UTF-8"}, true},
		{"text/html; charset=utf-8;;; =broken; name", "text/html", map[string]string{"charset": "utf-8"}, true},
		{"text/plain; charset=utf-8; charset=latin1", "text/plain", map[string]string{"charset": "utf-8"}, true},
		{"text/plain (a comment); format=flowed", "text/plain", map[string]string{"format": "flowed"}, true},
		{"text / plain", "text/plain", map[string]string{}, true},
		{"application/octet-stream; name=\"report.txt", "application/octet-stream", map[string]string{}, true},
		{"image/png;; charset=utf-8", "image/png", map[string]string{"charset": "utf-8"}, true},
		{"multipart/mixed; boundary=\"a;b\"; ;", "multipart/mixed", map[string]string{"boundary": "a;b"}, true},
		{"multipart/mixed;\r\n\tboundary=\"==_x\"", "multipart/mixed", map[string]string{"boundary": "==_x"}, true},
		{"message/external-body; access-type=URL; URL*0=\"ftp://\"; URL*1=\"cs.utk.edu/pub/x.tar\";; x", "message/external-body",
			map[string]string{"access-type": "URL", "url": "ftp://cs.utk.edu/pub/x.tar"}, true},
		{"text", "", map[string]string{}, false},
		// More parameters than mediaParams holds in place, and a name
		// twice after them (ParseMediaType then reads the list).
		{"text/plain; a=1; b=2; c=3; d=4; e=5; Charset=x", "text/plain",
			map[string]string{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "charset": "x"}, true},
		{"text/plain; a=1; b=2; c=3; d=4; e=5; a=6", "text/plain",
			map[string]string{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5"}, true},
		{"; charset=koi8-r", "", map[string]string{"charset": "koi8-r"}, false},
		{"", "", map[string]string{}, false},
	}
	for _, c := range cases {
		typ, params, ok := parseContentType(c.in)
		if typ != c.typ || ok != c.ok || !reflect.DeepEqual(params.asMap(), c.params) {
			t.Errorf("parseContentType(%q) = %q %v %v, want %q %v %v", c.in, typ, params.asMap(), ok, c.typ, c.params, c.ok)
		}
		for k, v := range c.params {
			if got := params.get(k); got != v {
				t.Errorf("parseContentType(%q): get(%q) = %q, want %q", c.in, k, got, v)
			}
		}
		if got := params.get("absent"); got != "" {
			t.Errorf("parseContentType(%q): get of an absent name = %q", c.in, got)
		}
	}
}

// Parts that are not text are never searched, whatever their parameters
// say; a Content-Type with no type/subtype is text/plain (RFC 2045 5.2).
func TestNotTextNeverSearched(t *testing.T) {
	msg := crlf("Content-Type: multipart/mixed; boundary=b\n\n" +
		"--b\nContent-Type: text/plain; charset=utf-8\n\nbody http://example.com/body\n" +
		"--b\nContent-Type: application/octet-stream; name=\"notes.txt\"; charset=utf-8\n\nhttp://example.com/octet\n" +
		"--b\nContent-Type: application/octet-stream; name=\"broken\n\nhttp://example.com/octet-malformed\n" +
		"--b\nContent-Type: image/svg+xml;;;\n\n<svg><a href=\"http://example.com/svg\"/></svg>\n" +
		"--b\nContent-Type: application/pdf; format=flowed\nContent-Disposition: attachment; filename=\"a.txt\"\n\nhttp://example.com/pdf\n" +
		"--b\nContent-Type: garbage\n\nread as text/plain http://example.com/garbage\n" +
		"--b\nContent-Type: text/html;;;;\n\n<a href=\"http://example.com/h?x=1&amp;y=2\">h</a>\n" +
		"--b--\n")
	recs, warns := walkString(t, msg, FormatMail)
	want := []string{"http://example.com/body", "http://example.com/garbage", "http://example.com/h?x=1&y=2"}
	if got := foundIn(t, recs); !reflect.DeepEqual(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], `bad Content-Type "garbage"`) {
		t.Errorf("warnings %q", warns)
	}
}

// A multipart/digest's parts are messages unless they say otherwise
// (RFC 2046 5.1.5): their header fields are read as such.
func TestDigestPartsAreMessages(t *testing.T) {
	msg := "Content-Type: multipart/digest; boundary=d\n\n" +
		"--d\n\nFrom: a@example.com\nArchived-At: <http://example.com/arch/1>\nMessage-ID: <d1@example.com>\n\nfirst http://example.com/1\n" +
		"--d\nContent-Type: text/plain\n\nplain http://example.com/2\n--d--\n"
	recs, _ := walkString(t, msg, FormatMail)
	checkParts(t, recs, []string{
		`1 header Archived-At: "<http://example.com/arch/1>"`,
		`1.1 body: "first http://example.com/1\n"`,
		`2 body: "plain http://example.com/2\n"`,
	})
}

// simpleParams gives what mime.ParseMediaType gives, whenever it takes a
// list on.
func FuzzSimpleParams(f *testing.F) {
	for _, s := range []string{" charset=utf-8", ` boundary="=_a b"`, " charset=us-ascii; format=flowed",
		" A=b; a=c", " name*=x", ` a="b\"c"`, " a=b;", " a = b ; c=\"\"", " a=é", "a=b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, fast := simpleParams(s)
		if !fast {
			return
		}
		_, want, err := mime.ParseMediaType("x/x;" + s)
		if err != nil || !reflect.DeepEqual(p.asMap(), want) {
			t.Fatalf("%q: fast %v, ParseMediaType %v, %v", s, p.asMap(), want, err)
		}
	})
}

// The lists of nearly every message take the fast way.
func TestSimpleParamsTaken(t *testing.T) {
	for _, s := range []string{" charset=utf-8", ` boundary="----=_Part_1_2.3"`, " charset=\"ISO-8859-1\"; format=flowed; delsp=yes"} {
		if _, fast := simpleParams(s); !fast {
			t.Errorf("%q: not taken", s)
		}
	}
}
