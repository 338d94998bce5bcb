package mail

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urix-dev/urix/extract"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

type rec struct {
	MsgNo int
	Off   int64
	ID    string
	Path  string
	Field string
	HTML  bool
	Text  string
	Src   Source
	Tag   string
	Attr  string
	Value string
	Base  string
}

func (r rec) String() string {
	s := fmt.Sprintf("#%d@%d <%s> path=%q %v field=%q html=%v %q", r.MsgNo, r.Off, r.ID, r.Path, r.Src, r.Field, r.HTML, r.Text)
	if r.Src == SourceHTMLAttr {
		s += fmt.Sprintf(" %s %s=%q", r.Tag, r.Attr, r.Value)
	}
	return s
}

func walk(t *testing.T, in io.Reader, f Format) ([]rec, []string) {
	t.Helper()
	var recs []rec
	var warns []string
	err := Walk(in, Options{ResolveBase: extract.ResolveBase, Format: f, Warn: func(n int, msg string) {
		warns = append(warns, fmt.Sprintf("%d: %s", n, msg))
	}}, func(p *Part) error {
		b, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatalf("reading part: %v", err)
		}
		if p.Source == SourceHTMLAttr && string(b) != p.Value {
			t.Errorf("attribute part: body %q, value %q", b, p.Value)
		}
		if (p.Source == SourceHTMLText || p.Source == SourceHTMLAttr) != p.HTML {
			t.Errorf("HTML %v for a part from %v", p.HTML, p.Source)
		}
		if (p.Source == SourceHeader) != (p.Field != "") {
			t.Errorf("field %q for a part from %v", p.Field, p.Source)
		}
		recs = append(recs, rec{p.MsgNo, p.MsgOffset, p.MessageID, p.Path, p.Field, p.HTML, string(b), p.Source, p.Tag, p.Attr, p.Value, p.Base})
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return recs, warns
}

func walkString(t *testing.T, in string, f Format) ([]rec, []string) {
	return walk(t, strings.NewReader(in), f)
}

// bodies returns the texts of the body parts (not header fields).
func bodies(recs []rec) []string {
	var out []string
	for _, r := range recs {
		if r.Field == "" {
			out = append(out, r.Text)
		}
	}
	return out
}

func uris(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for m, err := range extract.All(strings.NewReader(s), extract.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m.URI)
	}
	return out
}

// urisAll returns the URIs the extractor finds in s, with " (invalid)"
// after the invalid ones.
func urisAll(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for m, err := range extract.All(strings.NewReader(s), extract.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		if !m.Valid {
			m.URI += " (invalid)"
		}
		out = append(out, m.URI)
	}
	return out
}

// bodyRecs returns the records of body parts (not header fields).
func bodyRecs(recs []rec) []rec {
	var out []rec
	for _, r := range recs {
		if r.Field == "" {
			out = append(out, r)
		}
	}
	return out
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func encode(t *testing.T, e encoding.Encoding, s string) string {
	t.Helper()
	b, err := e.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestQuotedPrintable(t *testing.T) {
	msg := crlf(`From: a@example.com
Subject: qp
Message-ID: <qp1@example.com>
Content-Type: text/plain; charset=iso-8859-1
Content-Transfer-Encoding: quoted-printable

See http://example.com/very=
long/path?a=3Db&c=3dd for caf=E9 details.  =20
Bad =ZZ escape and trailing =
`)
	recs, warns := walkString(t, msg, FormatMail)
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	want := []rec{{1, 0, "qp1@example.com", "1", "", false,
		"See http://example.com/verylong/path?a=b&c=d for café details.   \nBad =ZZ escape and trailing ", SourceBody, "", "", "", ""}}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("got  %v\nwant %v", recs, want)
	}
	if u := uris(t, recs[0].Text); !reflect.DeepEqual(u, []string{"http://example.com/verylong/path?a=b&c=d"}) {
		t.Errorf("uris %q", u)
	}
}

func TestBase64AndCharsets(t *testing.T) {
	iri := "案内は http://例え.テスト/パス です。\n"
	cases := []struct {
		name, charset, cte, body, want string
	}{
		{"base64 utf-8", "utf-8", "base64", base64.StdEncoding.EncodeToString([]byte("go to https://example.org/b64?x=1\n")), "go to https://example.org/b64?x=1\n"},
		{"base64 wrapped", "utf-8", "base64", wrap(base64.StdEncoding.EncodeToString([]byte(strings.Repeat("line http://example.net/ok\n", 5))), 76), strings.Repeat("line http://example.net/ok\n", 5)},
		{"iso-2022-jp", "ISO-2022-JP", "7bit", encode(t, japanese.ISO2022JP, iri), iri},
		{"shift_jis base64", "Shift_JIS", "base64", base64.StdEncoding.EncodeToString([]byte(encode(t, japanese.ShiftJIS, iri))), iri},
		{"koi8-r", "koi8-r", "8bit", encode(t, charmap.KOI8R, "Ссылка: http://пример.рф/путь\n"), "Ссылка: http://пример.рф/путь\n"},
		{"windows-1252 qp", "windows-1252", "quoted-printable", "=93http://example.com/q=94 =80=\n5\n", "“http://example.com/q” €5\n"},
		{"iso-8859-2", "iso-8859-2", "8bit", encode(t, charmap.ISO8859_2, "Łódź http://example.pl/\n"), "Łódź http://example.pl/\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := "From: x@example.com\nContent-Type: text/plain; charset=\"" + c.charset + "\"\nContent-Transfer-Encoding: " + c.cte + "\n\n" + c.body
			recs, warns := walkString(t, msg, FormatMail)
			if len(warns) != 0 {
				t.Errorf("warnings: %v", warns)
			}
			if b := bodies(recs); len(b) != 1 || b[0] != c.want {
				t.Errorf("got %q want %q", b, c.want)
			}
		})
	}
}

func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\r\n")
		s = s[n:]
	}
	b.WriteString(s + "\r\n")
	return b.String()
}

func TestIRIFoundInISO2022JP(t *testing.T) {
	msg := "From: x@example.com\nContent-Type: text/plain; charset=iso-2022-jp\n\n" + encode(t, japanese.ISO2022JP, "詳細は http://例え.テスト/パス。\n")
	recs, _ := walkString(t, msg, FormatMail)
	if u := uris(t, recs[0].Text); !reflect.DeepEqual(u, []string{"http://例え.テスト/パス"}) {
		t.Errorf("uris %q", u)
	}
}

func TestFlowed(t *testing.T) {
	msg := crlf("From: x@example.com\nContent-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\n" +
		"Read https://example.com/a/very/long/path/that/was/wrapp \ned/by/the/mailer?q=1 now. \nSecond para.\n" +
		">> quoted line \n>> continues\n> less quoted\n \n-- \nsig\n")
	recs, _ := walkString(t, msg, FormatMail)
	want := "Read https://example.com/a/very/long/path/that/was/wrapped/by/the/mailer?q=1 now.Second para.\n" +
		">> quoted linecontinues\n> less quoted\n\n-- \nsig\n"
	if b := bodies(recs); len(b) != 1 || b[0] != want {
		t.Errorf("got  %q\nwant %q", b, want)
	}
	// DelSp=no keeps the space.
	msg = "Content-Type: text/plain; format=flowed\n\nword \nword\n"
	recs, _ = walkString(t, msg, FormatMail)
	if b := bodies(recs); len(b) != 1 || b[0] != "word word\n" {
		t.Errorf("got %q", b)
	}
	if u := uris(t, "Read https://example.com/a/very/long/path/that/was/wrapped/by/the/mailer?q=1 now."); len(u) != 1 {
		t.Errorf("uris %q", u)
	}
}

func TestNestedMultipart(t *testing.T) {
	inner := "From: inner@example.com\nSubject: fwd\nMessage-ID: <inner@example.com>\nList-Archive: <http://lists.example.com/inner>\n" +
		"Content-Type: multipart/alternative; boundary=\"in\"\n\n" +
		"--in\nContent-Type: text/plain\n\ninner plain http://example.com/inner-plain\n" +
		"--in\nContent-Type: text/html; charset=utf-8\n\n<p>inner <a href=\"http://example.com/inner-html\">x</a></p>\n--in--\n"
	msg := crlf("From: a@example.com\nMessage-ID: <outer@example.com>\nReferences: <ref@example.com> <ref2@example.com>\n" +
		"In-Reply-To: <irt@example.com>\nList-Unsubscribe: <https://example.com/unsub?u=1>, <mailto:unsub@example.com>\n" +
		"Archived-At: =?utf-8?q?<http://example.com/caf=C3=A9>?=\n" +
		"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"outer\"\n\n" +
		"This is a multi-part message in MIME format.\n" +
		"--outer\nContent-Type: text/plain; charset=us-ascii\n\nfirst http://example.com/1\n" +
		"--outer\nContent-Type: multipart/related; boundary=rel\n\n" +
		"--rel\nContent-Type: text/html\nContent-Location: http://example.com/base/page.html\nContent-ID: <cid1@example.com>\n\n" +
		"<html><head><style>p{background:url(http://example.com/style)}</style><script>var u='http://example.com/script'</script></head>" +
		"<body><a href=\"rel/x.html\">rel</a> <img src=\"http://example.com/img.png\"> text http://example.com/text &amp; more</body></html>\n" +
		"--rel\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--rel--\n" +
		"--outer\nContent-Type: message/rfc822\n\n" + inner +
		"--outer\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\naHR0cDovL2V4YW1wbGUuY29tL2JpbmFyeQ==\n" +
		"--outer--\nepilogue\n")
	recs, warns := walkString(t, msg, FormatMail)
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	for name, rd := range map[string]io.Reader{
		"OneByte": iotest.OneByteReader(strings.NewReader(msg)),
		"Half":    iotest.HalfReader(strings.NewReader(msg)),
		"LF":      strings.NewReader(strings.ReplaceAll(msg, "\r\n", "\n")),
	} {
		got, _ := walk(t, rd, FormatMail)
		if name == "LF" {
			for i := range got {
				got[i].Text = strings.ReplaceAll(got[i].Text, "\n", "\r\n")
			}
			for i := range got {
				if r := recs[i]; r.HTML || r.Field != "" {
					got[i].Text = r.Text // HTML already drops CR
				}
			}
		}
		if !reflect.DeepEqual(got, recs) {
			t.Errorf("%s: differs:\n%v\n%v", name, got, recs)
		}
	}
	for _, r := range recs {
		if r.MsgNo != 1 || r.Off != 0 || r.ID != "outer@example.com" {
			t.Errorf("bad rec %v", r)
		}
	}
	// Every part in order, header fields included; in the HTML part 2.1
	// the relative href is resolved against Content-Location; the url()
	// of the style sheet is given, the script is not; the image/png and the application/octet-stream parts give
	// nothing; the identifier fields (References, In-Reply-To,
	// Content-ID) are never given.
	want := []string{
		`header List-Unsubscribe: "<https://example.com/unsub?u=1>, <mailto:unsub@example.com>"`,
		`header Archived-At: "<http://example.com/café>"`,
		`1 body: "first http://example.com/1\r\n"`,
		`2.1 header Content-Location: "http://example.com/base/page.html"`,
		`2.1 style : http://example.com/style`,
		`2.1 a href: rel/x.html (base http://example.com/base/page.html)`,
		`2.1 text: "rel "`,
		`2.1 img src: http://example.com/img.png`,
		`2.1 text: " text http://example.com/text & more\n"`,
		`3 header List-Archive: "<http://lists.example.com/inner>"`,
		`3.1 body: "inner plain http://example.com/inner-plain\r\n"`,
		`3.2 text: "\ninner "`,
		`3.2 a href: http://example.com/inner-html`,
		`3.2 text: "x\n\n"`,
	}
	checkParts(t, recs, want)
}

// describe gives a Part in one readable line: its path, where its text
// came from, and the text (for an HTML attribute, the value; "(invalid
// as a whole at N)" when it holds a character that cannot be in a URI at
// byte N).
func describe(r rec) string {
	switch r.Src {
	case SourceHeader:
		return fmt.Sprintf("%sheader %s: %q", pathPrefix(r.Path), r.Field, r.Text)
	case SourceHTMLAttr:
		s := fmt.Sprintf("%s%s %s: %s", pathPrefix(r.Path), r.Tag, r.Attr, r.Value)
		if r.Base != "" && !hasScheme(browserTrim(r.Value)) {
			s += " (base " + r.Base + ")"
		}
		return s
	case SourceHTMLText:
		return fmt.Sprintf("%stext: %q", pathPrefix(r.Path), r.Text)
	}
	return fmt.Sprintf("%sbody: %q", pathPrefix(r.Path), r.Text)
}

func pathPrefix(p string) string {
	if p == "" {
		return ""
	}
	return p + " "
}

func describeAll(recs []rec) []string {
	var out []string
	for _, r := range recs {
		out = append(out, describe(r))
	}
	return out
}

func checkParts(t *testing.T, recs []rec, want []string) {
	t.Helper()
	got := describeAll(recs)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReplyQuotingWrappedAngle(t *testing.T) {
	msg := "From: x@example.com\nSubject: Re: link\n\nOn Monday you wrote:\n> see <http://example.com/a/very/\n> long/path>\n> ok\n"
	recs, _ := walkString(t, msg, FormatMail)
	if u := uris(t, recs[0].Text); !reflect.DeepEqual(u, []string{"http://example.com/a/very/long/path"}) {
		t.Errorf("uris %q in %q", u, recs[0].Text)
	}
}

func TestHeaderFieldsGivenAndNot(t *testing.T) {
	// The Subject is searched after RFC 2047 decoding (revision 5).
	msg := "Return-Path: <http://bounce.example.com/x>\nReceived: from http://relay.example.com by x\n" +
		"From: \"http://from.example.com\" <a@example.com>\nTo: b@example.com\nCc: c@example.com\n" +
		"Message-ID: <http://msgid.example.com/1>\nReferences: <http://ref.example.com/1>\nIn-Reply-To: <http://irt.example.com/1>\n" +
		"List-Unsubscribe: <https://example.com/unsub>\nList-Post: <mailto:list@example.com>\nList-Help: <http://example.com/help>\n" +
		"List-Subscribe: <http://example.com/sub>\nList-Owner: <mailto:owner@example.com>\nList-Archive: <http://example.com/arch>\n" +
		"X-Archived-At: http://example.com/xarch\nContent-Base: http://example.com/cbase\nX-URL: http://example.com/xurl\n" +
		"Subject: =?iso-8859-1?q?http://subject.example.com?=\n\nbody\n"
	recs, _ := walkString(t, msg, FormatMail)
	var fields []string
	for _, r := range recs {
		if r.Field != "" {
			fields = append(fields, r.Field)
		}
		for _, bad := range []string{"bounce", "relay", "from.example", "msgid", "ref.example", "irt.example"} {
			if strings.Contains(r.Text, bad) {
				t.Errorf("%s given: %v", bad, r)
			}
		}
		if r.ID != "http://msgid.example.com/1" {
			t.Errorf("MessageID %q", r.ID)
		}
	}
	want := []string{"List-Unsubscribe", "List-Post", "List-Help", "List-Subscribe", "List-Owner", "List-Archive", "X-Archived-At", "Content-Base", "X-Url", "Subject"}
	if !reflect.DeepEqual(fields, want) {
		t.Errorf("fields %q", fields)
	}
}

// mboxMsg makes the i-th message of a test mbox.
func mboxMsg(i int) string {
	return fmt.Sprintf("From sender%d@example.com Mon Jan  1 00:00:%02d 2024\n"+
		"From: sender%d@example.com\nMessage-ID: <m%d@example.com>\nSubject: n%d\n\n"+
		"Message %d http://example.com/m/%d\n>From the start, quoted\n>>From twice\n\n", i, i%60, i, i, i, i, i)
}

func TestMbox(t *testing.T) {
	var b strings.Builder
	var offs []int64
	for i := 1; i <= 50; i++ {
		offs = append(offs, int64(b.Len()))
		b.WriteString(mboxMsg(i))
	}
	in := b.String()
	ref, warns := walkString(t, in, FormatMbox)
	if len(warns) != 0 {
		t.Errorf("warnings %v", warns)
	}
	ref = bodyRecs(ref)
	if len(ref) != 50 {
		t.Fatalf("%d parts", len(ref))
	}
	for i, r := range ref {
		n := i + 1
		want := rec{n, offs[i], fmt.Sprintf("m%d@example.com", n), "1", "", false,
			fmt.Sprintf("Message %d http://example.com/m/%d\nFrom the start, quoted\n>From twice\n\n", n, n), SourceBody, "", "", "", ""}
		if r != want {
			t.Errorf("got  %v\nwant %v", r, want)
		}
	}
	for name, rd := range map[string]io.Reader{
		"OneByte": iotest.OneByteReader(strings.NewReader(in)),
		"Half":    iotest.HalfReader(strings.NewReader(in)),
		"DataErr": iotest.DataErrReader(strings.NewReader(in)),
	} {
		got, _ := walk(t, rd, FormatMbox)
		if got = bodyRecs(got); !reflect.DeepEqual(got, ref) {
			t.Errorf("%s: differs", name)
		}
	}
	// Same through a OneByteReader for a single complex message.
}

// Quoted "From " lines behind runs of '>' longer than a first look
// (quotedFrom peeks 64 bytes, then more) lose one '>'; other '>' runs,
// and a run at the very end of the input, stay as they are.
func TestMboxLongQuoteRuns(t *testing.T) {
	for _, n := range []int{1, 58, 59, 60, 63, 64, 65, 200, 5000} {
		gts := strings.Repeat(">", n)
		body := gts + "From deep http://example.com/d\n" + gts + "not from\n" + gts + "From\n"
		in := "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <q@example.com>\n\n" + body + "\n" + gts
		want := strings.Repeat(">", n-1) + "From deep http://example.com/d\n" + gts + "not from\n" + gts + "From\n\n" + gts
		for name, rd := range map[string]io.Reader{
			"whole":   strings.NewReader(in),
			"OneByte": iotest.OneByteReader(strings.NewReader(in)),
		} {
			got, _ := walk(t, rd, FormatMbox)
			if len(got) != 1 || got[0].Text != want {
				t.Errorf("%d '>', %s: got %+v\nwant body %q", n, name, got, want)
			}
		}
	}
}

func TestBrokenBetweenGood(t *testing.T) {
	good := func(i int) string { return mboxMsg(i) }
	broken := []string{
		// unknown charset
		"From x Mon Jan  1 00:00:00 2024\nContent-Type: text/plain; charset=x-klingon\n\nraw \xff http://example.com/klingon\n\n",
		// broken base64
		"From x Mon Jan  1 00:00:00 2024\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\naHR0cDovL2V4YW1w!!bGUuY29tL2I2NA\n\n",
		// missing closing boundaries, nested
		"From x Mon Jan  1 00:00:00 2024\nContent-Type: multipart/mixed; boundary=a\n\n--a\nContent-Type: multipart/alternative; boundary=b\n\n--b\n\ninner http://example.com/unclosed\n--a\n\nafter http://example.com/after\n\n",
		// 8-bit header, malformed header line, no blank line
		"From x Mon Jan  1 00:00:00 2024\nSubject: caf\xe9\nList-Archive: <http://example.com/\xe9>\nthis is not a header http://example.com/nohdr\n\n",
		// unknown transfer encoding, bad content type
		"From x Mon Jan  1 00:00:00 2024\nContent-Type: text/plain; charset=\nContent-Transfer-Encoding: x-uuencode\n\nuu http://example.com/uu\n\n",
		// boundary never found
		"From x Mon Jan  1 00:00:00 2024\nContent-Type: multipart/mixed; boundary=zzz\n\npre http://example.com/pre\n--other\n\n",
		// message/rfc822 base64 encoded
		"From x Mon Jan  1 00:00:00 2024\nContent-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n" + base64.StdEncoding.EncodeToString([]byte("Subject: in\n\nenc http://example.com/enc\n")) + "\n\n",
	}
	var b strings.Builder
	b.WriteString(good(1))
	for i, m := range broken {
		b.WriteString(m)
		b.WriteString(good(i + 2))
	}
	recs, warns := walkString(t, b.String(), FormatMbox)
	all := ""
	goodSeen := map[int]bool{}
	for _, r := range recs {
		all += r.Text
		if r.ID != "" {
			goodSeen[r.MsgNo] = true
		}
	}
	for i := 0; i <= len(broken); i++ {
		if !goodSeen[1+2*i] {
			t.Errorf("good message %d lost", 1+2*i)
		}
	}
	for _, u := range []string{"klingon", "http://example.com/b64", "unclosed", "after", "nohdr", "/uu", "/pre", "/enc"} {
		if !strings.Contains(all, u) {
			t.Errorf("%s lost", u)
		}
	}
	if len(warns) < len(broken) {
		t.Errorf("warnings: %q", warns)
	}
	t.Logf("warnings: %q", warns)
}

func TestDetect(t *testing.T) {
	for in, want := range map[string]Format{
		"From a@b Mon Jan  1 00:00:00 2024\n":                  FormatMbox,
		"From: a@b\nSubject: x\n\nbody":                        FormatMail,
		"Path: a!b\nNewsgroups: comp.lang.go\nFrom:":           FormatMail,
		"Return-Path: <a@b>\r\nReceived: from x\r\n\tby y\r\n": FormatMail,
		"Note: this is text\nand more\n":                       FormatText,
		"Hello world: http://x\n":                              FormatText,
		"X-Custom: a\n\nbody":                                  FormatText,
		"":                                                     FormatText,
		" From: a\n":                                           FormatText,
	} {
		if got := Detect([]byte(in)); got != want {
			t.Errorf("Detect(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestStopAndReadError(t *testing.T) {
	in := mboxMsg(1) + mboxMsg(2)
	stop := fmt.Errorf("stop")
	n := 0
	err := Walk(strings.NewReader(in), Options{ResolveBase: extract.ResolveBase, Format: FormatMbox}, func(p *Part) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("err %v n %d", err, n)
	}
	rerr := fmt.Errorf("disk on fire")
	err = Walk(io.MultiReader(strings.NewReader(in), iotest.ErrReader(rerr)), Options{ResolveBase: extract.ResolveBase, Format: FormatMbox}, func(p *Part) error { io.Copy(io.Discard, p.Body); return nil })
	if err != rerr {
		t.Errorf("read error: %v", err)
	}
	err = Walk(io.MultiReader(strings.NewReader("Subject: x\n\nabc"), iotest.ErrReader(rerr)), Options{ResolveBase: extract.ResolveBase, Format: FormatMail}, func(p *Part) error { return nil })
	if err != rerr {
		t.Errorf("read error (mail): %v", err)
	}
}

func TestNewsArticle(t *testing.T) {
	msg := "Path: news.example.com!not-for-mail\nNewsgroups: comp.lang.go\nFrom: a@example.com\nMessage-ID: <n1@example.com>\nArchived-At: <http://news.example.com/n1>\n\nSee http://go.dev/\n"
	if Detect([]byte(msg)) != FormatMail {
		t.Fatal("not detected")
	}
	recs, _ := walkString(t, msg, FormatNews)
	if len(recs) != 2 || recs[0].Field != "Archived-At" || recs[1].Text != "See http://go.dev/\n" || recs[1].ID != "n1@example.com" {
		t.Errorf("%v", recs)
	}
}

func TestLongLines(t *testing.T) {
	long := "http://example.com/" + strings.Repeat("a", 200000)
	for _, cte := range []string{"7bit", "quoted-printable"} {
		msg := "Content-Type: text/plain; format=flowed\nContent-Transfer-Encoding: " + cte + "\n\n" + long + "\n"
		recs, _ := walkString(t, msg, FormatMail)
		if b := bodies(recs); len(b) != 1 || b[0] != long+"\n" {
			t.Errorf("%s: long line mangled (%d)", cte, len(b))
		}
	}
	var buf bytes.Buffer
	buf.WriteString("Content-Type: multipart/mixed; boundary=b\n\n--b\n\n" + long + "\n--b--\n")
	recs, _ := walk(t, &buf, FormatMail)
	if b := bodies(recs); len(b) != 1 || b[0] != long+"\n" {
		t.Errorf("multipart long line mangled")
	}
}

func TestMboxEdges(t *testing.T) {
	// Text before the first From line, CRLF lines, an unquoted "From " in a
	// paragraph (no split), a From line right after a blank line (split).
	in := "junk http://example.com/junk\r\n\r\n" +
		"From a@example.com Mon Jan  1 00:00:00 2024\r\nMessage-ID: <a@x>\r\n\r\nline one\r\nFrom here on http://example.com/a\r\n\r\n" +
		"From b@example.com Mon Jan  1 00:00:00 2024\r\nMessage-ID: <b@x>\r\n\r\nbody b\r\n"
	recs, warns := walkString(t, in, FormatMbox)
	offA := int64(strings.Index(in, "From a@"))
	offB := int64(strings.Index(in, "From b@"))
	want := []rec{
		{1, 0, "", "1", "", false, "", SourceBody, "", "", "", ""},
		{2, offA, "a@x", "1", "", false, "line one\r\nFrom here on http://example.com/a\r\n\r\n", SourceBody, "", "", "", ""},
		{3, offB, "b@x", "1", "", false, "body b\r\n", SourceBody, "", "", "", ""},
	}
	if len(recs) != 3 || recs[1] != want[1] || recs[2] != want[2] || recs[0].MsgNo != 1 || recs[0].Off != 0 || !strings.Contains(recs[0].Text, "http://example.com/junk") {
		t.Errorf("got %v", recs)
	}
	if len(warns) == 0 {
		t.Error("no warning for text before the first From line")
	}
	// Empty input and input of blank lines: no message.
	for _, s := range []string{"", "\n\r\n"} {
		if recs, _ := walkString(t, s, FormatMbox); len(recs) != 0 {
			t.Errorf("%q: %v", s, recs)
		}
	}
}

func TestFormatText(t *testing.T) {
	recs, _ := walkString(t, "Note: this\n\nhttp://x.example/\n", FormatText)
	if len(recs) != 1 || recs[0].Text != "Note: this\n\nhttp://x.example/\n" || recs[0].Path != "1" || recs[0].MsgNo != 1 {
		t.Errorf("%v", recs)
	}
}

func TestHTMLDetails(t *testing.T) {
	msg := "Content-Type: text/html; charset=windows-1252\nContent-Base: http://example.com/dir/\n\n" +
		"<base href=\"http://base.example.com/b/\"><A HREF='x?a=1&amp;b=2'>link</A><img srcset=\"a.png 1x, http://cdn.example.com/b.png 2x\">" +
		"<form action=\"/post\"></form><p>caf\xe9 <b>bold</b></p><style>.x{}</style><!-- http://comment.example.com/ --><iframe src=\"http://frame.example.com/\"></iframe>" +
		"<a href=\"http://example.com/a b<c>\">sp</a>\n"
	recs, _ := walkString(t, msg, FormatMail)
	// <base href> wins over Content-Base (RFC 2557 5); the srcset gives
	// each entry; the comment, the style sheet and the space in the last
	// href give nothing else.
	checkParts(t, recs, []string{
		`header Content-Base: "http://example.com/dir/"`,
		`1 base href: http://base.example.com/b/`,
		`1 a href: x?a=1&b=2 (base http://base.example.com/b/)`,
		`1 text: "link"`,
		`1 img srcset: a.png (base http://base.example.com/b/)`,
		`1 img srcset: http://cdn.example.com/b.png`,
		`1 form action: /post (base http://base.example.com/b/)`,
		`1 text: "\ncafé bold\n"`,
		`1 iframe src: http://frame.example.com/`,
		`1 a href: http://example.com/a b<c>`,
		`1 text: "sp\n"`,
	})
	want := []string{"http://example.com/dir/", "http://base.example.com/b/", "http://base.example.com/b/x?a=1&b=2", "http://base.example.com/b/a.png", "http://cdn.example.com/b.png",
		"http://base.example.com/post", "http://frame.example.com/", "http://example.com/a%20b%3Cc%3E"}
	if got := foundIn(t, recs); !reflect.DeepEqual(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
	// A text token beyond the tokenizer's buffer: read as it stands.
	long := "<p>" + strings.Repeat("x", maxHTMLToken+10) + " http://example.com/after-long</p>"
	var warns []string
	err := Walk(strings.NewReader("Content-Type: text/html\n\n"+long), Options{ResolveBase: extract.ResolveBase, Format: FormatMail, Warn: func(_ int, m string) { warns = append(warns, m) }}, func(p *Part) error {
		all, err := io.ReadAll(p.Body)
		if !bytes.Contains(all, []byte("http://example.com/after-long")) {
			t.Errorf("lost the text after a long token")
		}
		if len(all) < maxHTMLToken {
			t.Errorf("long token lost")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 {
		t.Errorf("warnings %q", warns)
	}
}
