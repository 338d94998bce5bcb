package mail

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/urix-dev/urix/extract"
)

// anchorParts walks an HTML body and describes each part: its source,
// its attribute or text, and (an href) its anchor text.
func anchorParts(t *testing.T, body string, rd func(io.Reader) io.Reader) []string {
	t.Helper()
	return anchorPartsWith(t, body, rd, Options{ResolveBase: extract.ResolveBase, Format: FormatMail, AnchorText: true})
}

func anchorPartsWith(t *testing.T, body string, rd func(io.Reader) io.Reader, opts Options) []string {
	t.Helper()
	var got []string
	err := Walk(rd(strings.NewReader("Content-Type: text/html\n\n"+body)), opts, func(p *Part) error {
		b, err := io.ReadAll(p.Body)
		if p.Source == SourceHTMLAttr {
			got = append(got, fmt.Sprintf("%s %s %s text=%q", p.Tag, p.Attr, p.Value, p.Text))
		} else {
			got = append(got, fmt.Sprintf("text %q", strings.TrimSpace(string(b))))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// The visible text of an <a> comes with its href (behaviour §10), and
// what is given, and in what order, does not change.
func TestAnchorText(t *testing.T) {
	cases := []struct {
		name, html string
		want       []string
	}{
		{"text with its href, then given as text",
			`<p>Hi <a href="http://evil.example/">  www.paypal.com&nbsp;
			 login </a> bye</p>`,
			[]string{`text "Hi"`, `a href http://evil.example/ text="www.paypal.com login"`, "text \"www.paypal.com\\u00a0\\n\\t\\t\\t login  bye\""}},
		{"inline tags inside", `<a href="http://a.example/"><b>Pay</b><i>Pal</i>.com</a>`,
			[]string{`a href http://a.example/ text="PayPal.com"`, `text "PayPal.com"`}},
		{"an img inside: its src given after the text before it",
			`<a href="http://a.example/">see <img src="http://i.example/x.png"> more</a>`,
			[]string{`a href http://a.example/ text="see"`, `text "see"`, `img src http://i.example/x.png text=""`, `text "more"`}},
		{"script inside is not visible", `<a href="http://a.example/">x<script>y</script>z</a>`,
			[]string{`a href http://a.example/ text="xz"`, `text "xz"`}},
		{"no closing tag: up to the end", `<a href="http://a.example/">open`,
			[]string{`a href http://a.example/ text="open"`, `text "open"`}},
		{"img src and link href have no text", `<link href="http://l.example/s.css"><img src="http://i.example/">`,
			[]string{`link href http://l.example/s.css text=""`, `img src http://i.example/ text=""`}},
		// The text is shown joined (behaviour §9: inline markup does not
		// end a word), but each anchor has its own.
		{"next anchor ends the first", `<a href="http://a.example/">one<a href="http://b.example/">two</a>`,
			[]string{`a href http://a.example/ text="one"`, `text "onetwo"`, `a href http://b.example/ text="two"`}},
		{"joined word over two anchors, then a space", `see <a href="http://a.example/">x.example/reviews.</a><a href="http://b.example/">cfm</a> now <a href="http://c.example/">c</a>`,
			[]string{`text "see"`, `a href http://a.example/ text="x.example/reviews."`, `text "x.example/reviews.cfm"`, `a href http://b.example/ text="cfm"`, `text "now"`, `a href http://c.example/ text="c"`, `text "c"`}},
	}
	for _, c := range cases {
		for name, rd := range htmlReads {
			got := anchorParts(t, c.html, rd)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("%s (%s):\n got %q\nwant %q", c.name, name, got, c.want)
			}
		}
	}
}

func TestCollapseSpace(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes
	cases := []struct{ in, want string }{
		{"  a \t\n b\u00a0\u00a0c  ", "a b c"},
		{"", ""},
		{" \n ", ""},
		{long, strings.Repeat("é", 128)}, // 256 bytes, a character boundary
		{"x" + long, "x" + strings.Repeat("é", 127)},
	}
	for _, c := range cases {
		if got := collapseSpace([]byte(c.in), maxAnchorText); got != c.want {
			t.Errorf("collapseSpace(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// An anchor's text is read ahead in bounded memory: the text given is cut,
// and the rest of the page still given.
func TestAnchorTextBounded(t *testing.T) {
	body := `<a href="http://a.example/">` + strings.Repeat("word ", 100000) + `</a> http://after.example/`
	got := anchorParts(t, body, func(r io.Reader) io.Reader { return r })
	if len(got) < 2 || !strings.HasPrefix(got[0], `a href http://a.example/ text="word word`) || len(got[0]) > 300 {
		t.Fatalf("got %.200q", got)
	}
	if last := got[len(got)-1]; !strings.HasSuffix(last, `http://after.example/"`) {
		t.Errorf("last part %.200q", last)
	}
}

// Without Options.AnchorText the parts are the same, with no text.
func TestAnchorTextOff(t *testing.T) {
	body := `<p>Hi <a href="http://evil.example/">www.paypal.com</a> <a href="http://a.example/">see <img src="http://i.example/x.png"> more</a></p>`
	on := anchorParts(t, body, func(r io.Reader) io.Reader { return r })
	off := anchorPartsWith(t, body, func(r io.Reader) io.Reader { return r }, Options{ResolveBase: extract.ResolveBase, Format: FormatMail})
	want := strings.NewReplacer(`text="www.paypal.com"`, `text=""`, `text="see"`, `text=""`).Replace(strings.Join(on, "\n"))
	if got := strings.Join(off, "\n"); got != want {
		t.Errorf("off:\n%s\nwant\n%s", got, want)
	}
}

// FuzzAnchorText: reading anchors' text ahead changes nothing of what is
// given, nor its order; each text is collapsed and at most 256 bytes.
func FuzzAnchorText(f *testing.F) {
	f.Add(`<p>Hi <a href="http://evil.example/">www.paypal.com</a> bye</p>`)
	f.Add(`<a href="http://a.example/">see <img src="http://i.example/x.png"> more</a><a href=http://b.example/>x`)
	f.Add(`<a href="http://a.example/">x<script>y</script>z<a href="http://c.example/"><b>t</b></a>`)
	f.Fuzz(func(t *testing.T, body string) {
		walk := func(on bool) (parts []string, texts []string) {
			Walk(strings.NewReader("Content-Type: text/html\n\n"+body), Options{ResolveBase: extract.ResolveBase, Format: FormatMail, AnchorText: on}, func(p *Part) error {
				b, _ := io.ReadAll(p.Body)
				parts = append(parts, fmt.Sprintf("%v %s %s %q %q", p.Source, p.Tag, p.Attr, p.Value, b))
				texts = append(texts, p.Text)
				return nil
			})
			return parts, texts
		}
		off, _ := walk(false)
		on, texts := walk(true)
		if strings.Join(on, "\n") != strings.Join(off, "\n") {
			t.Fatalf("with anchor text:\n%q\nwithout:\n%q", on, off)
		}
		for _, s := range texts {
			if len(s) > maxAnchorText || strings.TrimSpace(s) != s || strings.Contains(s, "  ") {
				t.Fatalf("text %q", s)
			}
		}
	})
}
