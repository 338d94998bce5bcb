package mail

import (
	"reflect"
	"strings"
	"testing"

	"github.com/urix-dev/urix/extract"
)

// HTML parts (behaviour §9): visible text, and the values of the URL
// attributes, entity-decoded, each one whole candidate read as the
// browser reads it (extract.AttrReader): what a URI cannot hold in the
// path, query or fragment is percent-encoded; a character the browser
// refuses in the host makes it invalid as a whole, never glued up, never
// cut to a valid prefix.
func TestHTMLAttributes(t *testing.T) {
	cases := []struct {
		name  string
		ctype string // Content-Type; text/html when ""
		html  string
		parts []string // describe() of each part
		found []string // the URIs the extractor finds in the parts
	}{
		{
			name:  "entities decoded in href",
			html:  `<a href="http://example.com/h?x=1&amp;y=2&#38;z=3">h</a>`,
			parts: []string{`1 a href: http://example.com/h?x=1&y=2&z=3`, `1 text: "h"`},
			found: []string{"http://example.com/h?x=1&y=2&z=3"},
		},
		{
			name:  "NBSP entity inside the host: invalid as a whole, not glued",
			html:  `<a href="http://exa&nbsp;mple.com/">x</a>`,
			parts: []string{"1 a href: http://exa\u00a0mple.com/", `1 text: "x"`},
			found: []string{"http://exa\u00a0mple.com/ (invalid)"},
		},
		{
			name:  "raw NBSP inside the path: encoded, not cut",
			html:  "<a href=\"http://example.com/a\u00a0b\">x</a>",
			parts: []string{"1 a href: http://example.com/a\u00a0b", `1 text: "x"`},
			found: []string{"http://example.com/a%C2%A0b"},
		},
		{
			name:  "space inside: encoded, not cut to http://example.com/a",
			html:  `<a href="http://example.com/a b">x</a>`,
			parts: []string{`1 a href: http://example.com/a b`, `1 text: "x"`},
			found: []string{"http://example.com/a%20b"},
		},
		{
			name:  "a space left by a line break inside the value",
			html:  "<a href=\"http://example.com/very/\n    long\">x</a>",
			parts: []string{"1 a href: http://example.com/very/\n    long", `1 text: "x"`},
			found: []string{"http://example.com/very/%20%20%20%20long"},
		},
		{
			name:  "ends trimmed, tab LF CR inside removed",
			html:  "<a href=\" \t\nhttp://example.com/a\n/b\t/c\r\n/d \f\">x</a>",
			parts: []string{"1 a href:  \t\nhttp://example.com/a\n/b\t/c\n/d \f", `1 text: "x"`},
			found: []string{"http://example.com/a/b/c/d"},
		},
		{
			name:  "template href: no scheme, no candidate",
			html:  `<a href="{{unsubscribe_url}}">unsubscribe</a>`,
			parts: []string{`1 text: "unsubscribe"`},
		},
		{
			name:  "template inside: encoded, not cut before the brace",
			html:  `<a href="https://example.com/u?id={{id}}&amp;t=1">x</a>`,
			parts: []string{`1 a href: https://example.com/u?id={{id}}&t=1`, `1 text: "x"`},
			found: []string{"https://example.com/u?id=%7B%7Bid%7D%7D&t=1"},
		},
		{
			name:  "a closing angle bracket inside: encoded",
			html:  `<a href="http://example.com/a>b">x</a>`,
			parts: []string{`1 a href: http://example.com/a>b`, `1 text: "x"`},
			found: []string{"http://example.com/a%3Eb"},
		},
		{
			name:  "mailto with a space in the subject: encoded (issue 36)",
			html:  `<a href="mailto:list@example.com?subject=Hi there">mail</a>`,
			parts: []string{`1 a href: mailto:list@example.com?subject=Hi there`, `1 text: "mail"`},
			found: []string{"mailto:list@example.com?subject=Hi%20there"},
		},
		{
			name:  "trailing punctuation is part of the value",
			html:  `<a href="http://example.com/a.">x</a> <a href="http://example.com/(b)">y</a>`,
			parts: []string{`1 a href: http://example.com/a.`, `1 text: "x "`, `1 a href: http://example.com/(b)`, `1 text: "y"`},
			found: []string{"http://example.com/a.", "http://example.com/(b)"},
		},
		{
			name:  "bad percent-encoding: found whole, invalid",
			html:  `<img src="http://example.com/%zz.png">`,
			parts: []string{`1 img src: http://example.com/%zz.png`},
			found: []string{"http://example.com/%zz.png (invalid)"},
		},
		{
			name:  "a word glued to http read as in text; a dotted one and URL: searched as text",
			html:  `<a href="seehttp://example.com/">x</a><a href="e.g.http://example.com/">y</a><a href="URL:http://example.com/">z</a>`,
			parts: []string{`1 a href: seehttp://example.com/`, `1 text: "xyz"`, `1 a href: e.g.http://example.com/`, `1 a href: URL:http://example.com/`},
			found: []string{"http://example.com/", "http://example.com/", "http://example.com/"},
		},
		{
			name:  "javascript: is given, but is no URI (behaviour §2)",
			html:  `<a href="javascript:void(0)">x</a>`,
			parts: []string{`1 a href: javascript:void(0)`, `1 text: "x"`},
		},
		{
			name: "every URL attribute, on any element",
			html: `<form action="http://example.com/action"><button formaction="http://example.com/formaction">b</button></form>` +
				`<blockquote cite="http://example.com/cite">q</blockquote><video poster="http://example.com/poster.jpg" src="http://example.com/v.mp4"></video>` +
				`<table background="http://example.com/bg.png"><tr><td>c</td></tr></table><object data="http://example.com/object.swf"></object>` +
				`<svg><a href="http://example.com/svg">s</a></svg>`,
			parts: []string{
				`1 form action: http://example.com/action`,
				`1 button formaction: http://example.com/formaction`,
				`1 text: "b\n"`,
				`1 blockquote cite: http://example.com/cite`,
				`1 text: "q\n"`,
				`1 video poster: http://example.com/poster.jpg`,
				`1 video src: http://example.com/v.mp4`,
				`1 table background: http://example.com/bg.png`,
				`1 text: "\n\nc\n\n\n"`,
				`1 object data: http://example.com/object.swf`,
				`1 a href: http://example.com/svg`,
				`1 text: "s"`,
			},
			found: []string{"http://example.com/action", "http://example.com/formaction", "http://example.com/cite",
				"http://example.com/poster.jpg", "http://example.com/v.mp4", "http://example.com/bg.png",
				"http://example.com/object.swf", "http://example.com/svg"},
		},
		{
			name:  "other attributes are not URL attributes",
			html:  `<p title="http://example.com/title" data-href="http://example.com/data-href" alt="http://example.com/alt">t</p>`,
			parts: []string{`1 text: "\nt\n"`},
		},
		{
			name:  "srcset entries: commas inside a URL kept, descriptors dropped",
			html:  `<img srcset=" http://example.com/a,b.png 1x,http://example.com/c.png  2x , http://example.com/d.png,, http://example.com/e.png (w, h)">`,
			parts: []string{`1 img srcset: http://example.com/a,b.png`, `1 img srcset: http://example.com/c.png`, `1 img srcset: http://example.com/d.png`, `1 img srcset: http://example.com/e.png`},
			found: []string{"http://example.com/a,b.png", "http://example.com/c.png", "http://example.com/d.png", "http://example.com/e.png"},
		},
		{
			name:  "srcset entry with an NBSP: encoded",
			html:  "<img srcset=\"http://example.com/a\u00a0b.png 1x, http://example.com/c.png 2x\">",
			parts: []string{"1 img srcset: http://example.com/a\u00a0b.png", `1 img srcset: http://example.com/c.png`},
			found: []string{"http://example.com/a%C2%A0b.png", "http://example.com/c.png"},
		},
		{
			name:  "visible text: entities decoded, script and style left out, url() of the style sheet given",
			html:  `<style>a{background:url(http://example.com/css)}</style><script>u="http://example.com/js"</script><p>see http://example.com/v?a=1&amp;b=2 now</p>`,
			parts: []string{`1 style : http://example.com/css`, `1 text: "\nsee http://example.com/v?a=1&b=2 now\n"`},
			found: []string{"http://example.com/css", "http://example.com/v?a=1&b=2"},
		},
		{
			name:  "relative references without a base: no candidate",
			html:  `<a href="/path">a</a><a href="#top">b</a><img src="//cdn.example.com/x.png">`,
			parts: []string{`1 text: "ab"`},
		},
		{
			name:  "the first base counts; an absolute value is not rewritten",
			html:  `<base href="http://example.com/b/"><base href="http://other.example/"><a href="../x">a</a><a href="http://example.com/a/../b">b</a>`,
			parts: []string{`1 base href: http://example.com/b/`, `1 base href: http://other.example/`, `1 a href: ../x (base http://example.com/b/)`, `1 text: "ab"`, `1 a href: http://example.com/a/../b`},
			found: []string{"http://example.com/b/", "http://other.example/", "http://example.com/x", "http://example.com/a/../b"},
		},
		{
			name: "revision 5: noscript is markup, meta refresh, CSS url() in style, xlink:href, iframe content hidden",
			html: `<meta http-equiv="Refresh" content="0; URL='http://example.com/refresh'"><meta content="5" http-equiv="refresh">` +
				`<noscript><a href="http://example.com/noscript">ns</a></noscript>` +
				`<td style="background-image: URL( &quot;http://example.com/bg.png&quot; ); color: red">` +
				`<svg><image xlink:href="http://example.com/x.svg"/></svg><iframe src="http://example.com/f">http://example.com/hidden</iframe>`,
			parts: []string{`1 meta content: http://example.com/refresh`, `1 a href: http://example.com/noscript`, `1 text: "ns\n"`,
				`1 td style: http://example.com/bg.png`, `1 image xlink:href: http://example.com/x.svg`, `1 iframe src: http://example.com/f`},
			found: []string{"http://example.com/refresh", "http://example.com/noscript", "http://example.com/bg.png", "http://example.com/x.svg", "http://example.com/f"},
		},
		{
			name: "text split by inline tags with nothing between is read joined, as it is shown",
			html: `<p>Read <a href="http://example.com/1">http://example.com/reviews.</a><a href="http://example.com/2">cfm</a> now</p>` +
				`<p><b>http://example.com/x</b><i>y</i>, <span>http://example.com/</span><font><a href="http://example.com/3">z</a></font>.</p>`,
			parts: []string{`1 text: "\nRead "`, `1 a href: http://example.com/1`, `1 text: "http://example.com/reviews.cfm"`, `1 a href: http://example.com/2`,
				`1 text: " now\n\nhttp://example.com/xy, http://example.com/z."`, `1 a href: http://example.com/3`},
			found: []string{"http://example.com/1", "http://example.com/reviews.cfm", "http://example.com/2", "http://example.com/xy", "http://example.com/z", "http://example.com/3"},
		},
		{
			name: "block elements and br are not joined",
			html: `<div>http://example.com/a</div><div><a href="http://example.com/1">b</a></div>` +
				`http://example.com/c<br><a href="http://example.com/2">d</a><table><tr><td>http://example.com/e</td><td><a href="http://example.com/3">f</a></td></tr></table>`,
			parts: []string{`1 text: "\nhttp://example.com/a\n\n"`, `1 a href: http://example.com/1`, `1 text: "b\nhttp://example.com/c\n"`, `1 a href: http://example.com/2`,
				`1 text: "d\n\n\nhttp://example.com/e\n\n"`, `1 a href: http://example.com/3`, `1 text: "f\n\n\n"`},
			found: []string{"http://example.com/a", "http://example.com/1", "http://example.com/c", "http://example.com/2", "http://example.com/e", "http://example.com/3"},
		},
		{
			name:  "media type before the first semicolon, malformed parameters",
			ctype: "text/html;;;;",
			html:  `<p><a href="http://example.com/h?x=1&amp;y=2">h</a></p>`,
			parts: []string{`1 a href: http://example.com/h?x=1&y=2`, `1 text: "h\n"`},
			found: []string{"http://example.com/h?x=1&y=2"},
		},
		{
			name:  "application/xhtml+xml",
			ctype: "application/xhtml+xml; charset=utf-8",
			html:  `<html xmlns="http://www.w3.org/1999/xhtml"><a href="http://example.com/x">x</a></html>`,
			parts: []string{`1 a href: http://example.com/x`, `1 text: "x"`},
			found: []string{"http://example.com/x"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ct := c.ctype
			if ct == "" {
				ct = "text/html; charset=utf-8"
			}
			recs, _ := walkString(t, "Content-Type: "+ct+"\n\n"+c.html, FormatMail)
			checkParts(t, recs, c.parts)
			if got := foundIn(t, recs); !reflect.DeepEqual(got, c.found) {
				t.Errorf("found %q, want %q", got, c.found)
			}
		})
	}
}

// foundIn returns the URIs the extractor (default options) finds in the
// parts, in order; " (invalid)" marks the invalid ones.
func foundIn(t *testing.T, recs []rec) []string {
	t.Helper()
	var out []string
	ar := extract.NewAttrReader(extract.Options{})
	for _, r := range recs {
		if r.Src != SourceHTMLAttr {
			out = append(out, urisAll(t, r.Text)...)
			continue
		}
		// An attribute value as the browser reads it (behaviour §9).
		switch kind, m := ar.Read(r.Value, r.Base); kind {
		case extract.AttrURI:
			u := m.URI
			if !m.Valid {
				u += " (invalid)"
			}
			out = append(out, u)
		case extract.AttrText:
			out = append(out, urisAll(t, r.Value)...)
		}
	}
	return out
}

// An HTML part is given in document order, one tag's attribute values
// held at a time; runs of whitespace only are not given.
func TestHTMLOrderAndBlankRuns(t *testing.T) {
	var b strings.Builder
	var want []string
	for i := range 200 {
		b.WriteString("\n  <a href=\"http://example.com/" + strings.Repeat("x", i%7) + "\">" + strings.Repeat(" ", i%3) + "</a>\n")
		want = append(want, "1 a href: http://example.com/"+strings.Repeat("x", i%7))
	}
	b.WriteString("<p>end http://example.com/end</p>")
	want = append(want, `1 text: " \n\nend http://example.com/end\n"`)
	recs, _ := walkString(t, "Content-Type: text/html\n\n"+b.String(), FormatMail)
	checkParts(t, recs, want)
	// Whitespace beyond maxBlankRun is given rather than held.
	recs, _ = walkString(t, "Content-Type: text/html\n\n"+strings.Repeat(" ", 3*maxBlankRun)+`<img src="http://example.com/i">`, FormatMail)
	if len(recs) != 2 || recs[0].Src != SourceHTMLText || recs[1].Value != "http://example.com/i" {
		t.Errorf("%v", describeAll(recs))
	}
}

// multipart/alternative: every alternative is searched (behaviour §9).
func TestAlternativesAllSearched(t *testing.T) {
	msg := "Content-Type: multipart/alternative; boundary=alt\n\n" +
		"--alt\nContent-Type: text/plain\n\nplain only http://example.com/plain and http://example.com/both\n" +
		"--alt\nContent-Type: text/html\n\n<a href=\"http://example.com/html-only\">x</a> <a href=\"http://example.com/both\">y</a>\n" +
		"--alt\nContent-Type: text/enriched\n\n<bold>http://example.com/enriched</bold>\n" +
		"--alt--\n"
	recs, warns := walkString(t, msg, FormatMail)
	if len(warns) > 0 {
		t.Errorf("warnings %q", warns)
	}
	want := []string{"http://example.com/plain", "http://example.com/both", "http://example.com/html-only", "http://example.com/both", "http://example.com/enriched"}
	if got := foundIn(t, recs); !reflect.DeepEqual(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

// Joined runs hold at most maxHeldAttrs values, and their text at most
// maxHeldText bytes: memory bounded, whatever the markup; the results
// are the same with every read size.
func TestHTMLJoinedBounds(t *testing.T) {
	glued := strings.Repeat(`x<a href="http://example.com/v">y</a>`, 1000) + " end"
	recs, _ := walkString(t, "Content-Type: text/html\n\n"+glued, FormatMail)
	held := 0
	for _, r := range recs {
		if r.Src == SourceHTMLAttr {
			if held++; held > maxHeldAttrs {
				t.Fatalf("more than %d values held before their text", maxHeldAttrs)
			}
		} else {
			held = 0
		}
	}
	long := `a<img src="http://example.com/i">` + strings.Repeat("b", 3*maxHeldText) + " http://example.com/after"
	recs, _ = walkString(t, "Content-Type: text/html\n\n"+long, FormatMail)
	if len(recs) < 3 || recs[1].Src != SourceHTMLAttr || len(recs[0].Text) != 1+maxHeldText {
		t.Errorf("long word after a value: %d parts, first %d bytes", len(recs), len(recs[0].Text))
	}
	for _, in := range []string{glued, long} {
		want := htmlPartsReadBy(t, in, 1<<16)
		for _, size := range []int{1, 7, 4096} {
			if got := htmlPartsReadBy(t, in, size); got != want {
				t.Fatalf("reads of %d bytes give other parts", size)
			}
		}
	}
}
