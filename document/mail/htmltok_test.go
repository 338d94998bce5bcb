package mail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urix-dev/urix/extract"
	"golang.org/x/net/html"
)

// The tokenizer of HTML parts is held to golang.org/x/net/html's, which
// it replaces for speed: the same tokens (type, text decoded, tag name,
// attribute names and values decoded, comment and doctype text), the same
// error at the end, and after a token too long the same rest of the input,
// for any input, however it is split into reads.

// xnetTokens lists the tokens x/net's Tokenizer gives for r.
func xnetTokens(r io.Reader, maxBuf int) []string {
	z := html.NewTokenizer(r)
	z.SetMaxBuf(maxBuf)
	var out []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			err := z.Err()
			if err == html.ErrBufferExceeded {
				rest := append(append([]byte(nil), z.Raw()...), z.Buffered()...)
				more, _ := io.ReadAll(r)
				return append(out, "too long; rest "+fmt.Sprintf("%q", append(rest, more...)))
			}
			return append(out, "error "+err.Error())
		case html.TextToken, html.CommentToken, html.DoctypeToken:
			out = append(out, fmt.Sprintf("%v %q", tt, z.Text()))
		default:
			name, more := z.TagName()
			if tt == html.StartTagToken && string(name) == "noscript" {
				// Ours reads <noscript> as markup, as a browser with
				// scripting off does (behaviour §9).
				z.NextIsNotRawText()
			}
			s := fmt.Sprintf("%v %q", tt, name)
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				s += fmt.Sprintf(" %q=%q", k, v)
			}
			out = append(out, s)
		}
	}
}

var htmlTokenNames = map[htmlTokenType]html.TokenType{
	htmlErrorToken:          html.ErrorToken,
	htmlTextToken:           html.TextToken,
	htmlStartTagToken:       html.StartTagToken,
	htmlEndTagToken:         html.EndTagToken,
	htmlSelfClosingTagToken: html.SelfClosingTagToken,
	htmlCommentToken:        html.CommentToken,
	htmlDoctypeToken:        html.DoctypeToken,
}

// ourTokens lists the tokens of htmlTokenizer for r, in xnetTokens' form.
// z is reused, as the walker reuses it.
func ourTokens(z *htmlTokenizer, r io.Reader, maxBuf int) []string {
	z.reset(r, maxBuf)
	var out []string
	var b []byte
	for {
		tt := z.Next()
		switch tt {
		case htmlErrorToken:
			err := z.Err()
			if err == errHTMLTooLong {
				rest := append([]byte(nil), z.rest()...)
				more, _ := io.ReadAll(r)
				return append(out, "too long; rest "+fmt.Sprintf("%q", append(rest, more...)))
			}
			return append(out, "error "+err.Error())
		case htmlTextToken, htmlCommentToken, htmlDoctypeToken:
			b = z.appendText(b[:0])
			out = append(out, fmt.Sprintf("%v %q", htmlTokenNames[tt], b))
		default:
			s := fmt.Sprintf("%v %q", htmlTokenNames[tt], z.tagName())
			for i := range z.attrCount() {
				k := string(z.attrKey(i))
				b = z.appendAttrVal(b[:0], i)
				s += fmt.Sprintf(" %q=%q", k, b)
			}
			out = append(out, s)
		}
	}
}

// tokReaders gives data in reads of every kind the tests use.
func tokReaders(data []byte, k int) map[string]io.Reader {
	k = min(k, len(data))
	return map[string]io.Reader{
		"whole":   bytes.NewReader(data),
		"OneByte": iotest.OneByteReader(bytes.NewReader(data)),
		"Half":    iotest.HalfReader(bytes.NewReader(data)),
		"DataErr": iotest.DataErrReader(bytes.NewReader(data)),
		"split":   io.MultiReader(bytes.NewReader(data[:k]), bytes.NewReader(data[k:])),
	}
}

func checkTokens(t *testing.T, z *htmlTokenizer, data []byte, maxBuf int, rds map[string]io.Reader) {
	t.Helper()
	want := xnetTokens(bytes.NewReader(data), maxBuf)
	for name, r := range rds {
		got := ourTokens(z, r, maxBuf)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("input %q, maxBuf %d, %s reads:\ngot\n\t%s\nwant (x/net)\n\t%s", data, maxBuf, name,
				strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
	}
}

// htmlTokenCases are inputs for the states of the tokenizer and their
// ends; the fuzz target starts from them too.
var htmlTokenCases = []string{
	"",
	"plain text",
	"a<b>c</b>d",
	"<p>see http://example.com/v?a=1&amp;b=2 now</p>",
	"<A HREF='http://example.com/' Class=x>X</A>",
	"<a href=http://example.com/x?a=1&b=2>u</a>",
	"<a href=\"http://example.com/h?x=1&amp;y=2&#38;z=3&copy=4&copy;5&notit;&notin;&not=\">h</a>",
	"text &ampx &amp &lt3 &notit; &notin; &#x41;&#65;&#x110000;&#0;&#128;&#x9f;&#55296; &#; &#x; &; &unknown; &AElig &fjlig; &acE;",
	"<img src=a src=b SRC=c>",
	"<p a=1 b c=\"3\" d='4' =e f= g = 'h' / i/>",
	"<br/><br /><p a=/><p a='/'/><p/ >",
	// The tags fast reads by their bytes, and their near misses.
	"a<br>b<p>c</p>d<BR>e<P>f</P>g<br >h<p >i</p >j<pre>k</pre>l<b>m</b>n<p",
	"<script><br>x<p>y</p></script>z<br>\r\n<p>\r\n</p>",
	"<br><br",
	"<br><p>",
	"</p>",
	"a<div>b</div>c<DIV>d</DIV>e<div >f</div >g<divx>h</divx>i<div/>j<div class=x>k</div>l<dl>m</dl>",
	"<div>",
	"x</div>",
	"x</div",
	"<div",
	"<script><div>x</div></script><div>\r\n</div>",
	"<!-- comment --><!----><!--><!---><!-- a -- b --!><!--x--!y-->",
	"<!-- open comment --",
	"<!-- open comment --!",
	"<!-- open comment -",
	"<!DOCTYPE html><!doctype><!DOCTYP><!DOCTYPE",
	"<!DOCT",
	"<![CDATA[x<y]]>z",
	"</ x>y<?xml x?>z<!x>w</>v</3>",
	"a<",
	"a</",
	"a<!",
	"a<!-",
	"a<?",
	"a<b",
	"a</b",
	"a<3 b< c<>d",
	"<script>if (a<b && c>d) x = '</p>';</script>after",
	"<script><!-- a <script> b </script> c --></script>after",
	"<script><!--<script></script>--></script>x</script>y",
	"<script><!-- x --> y</script >z",
	"<SCRIPT>x</ScRiPt/>y",
	"<script>x</scrip",
	"<style>a{b:url(http://example.com/css)}</style><p>t",
	"<title>a &amp; <b> b</title>c",
	"<textarea>a&lt;<p>\r\n</textarea>",
	"<xmp><a href=x>y</a></xmp>z",
	"<iframe><p>x</iframe><noembed>&amp;</noembed><noframes>a</noframes><noscript><a href=y></noscript>",
	"<plaintext>a<b>&amp;</plaintext>",
	"<title>",
	"<title></title>",
	"a\r\nb\rc\n\rd\r",
	"a\x00b<p\x00q a\x00=\"\x00\">c\x00</p\x00q><script>\x00</script><!--\x00-->",
	"<a href=\"x\r\ny\ry\">",
	"<a href=\"unterminated",
	"<a href='x'",
	"<a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X Y Z a=1>",
	"\xff<\xfe a\xfd=\xfc>\u00e9&eacute;",
}

// TestHTMLTokenizer: the cases, read whole, a byte at a time, in halves,
// with the last data and io.EOF together, and split at every point; with
// the token limit of the walker and with small ones (the token too long).
func TestHTMLTokenizer(t *testing.T) {
	z := &htmlTokenizer{}
	for _, c := range htmlTokenCases {
		data := []byte(c)
		for _, maxBuf := range []int{maxHTMLToken, 1, 2, 3, 5, 8, 13, 21} {
			for k := 0; k <= len(data); k++ {
				checkTokens(t, z, data, maxBuf, tokReaders(data, k))
			}
		}
	}
}

// Long tokens of each kind, past the first buffer and past the limit, in
// reads of several sizes.
func TestHTMLTokenizerLong(t *testing.T) {
	z := &htmlTokenizer{}
	long := strings.Repeat("abc &amp; d\r\n", 5000)
	for _, c := range []string{
		"<p>" + long + "</p>",
		"<a href=\"" + long + "\">x</a>",
		"<a href=" + strings.Repeat("x&amp;", 20000) + ">x</a>",
		"<!--" + long + "-->after",
		"<script>" + long + "<!--" + long + "<script>" + long + "</script>" + long + "--></script>after",
		"<style>" + long + "</style>after",
		"<title>" + long + "</title>after",
		"<plaintext>" + long,
		"<" + strings.Repeat("a", 70000) + " b=c>x",
		"<?" + long + ">after",
		"<!DOCTYPE " + long + ">after",
		"<p " + strings.Repeat("a ", 30000) + ">x",
		"<p " + strings.Repeat("a=1 b=2 A=3 ", 3000) + ">x",
	} {
		data := []byte(c)
		for _, maxBuf := range []int{maxHTMLToken, 1000, 40000, 65536} {
			rds := tokReaders(data, len(data)/3)
			rds["chunks"] = &chunkReader{data: data, n: 4093}
			checkTokens(t, z, data, maxBuf, rds)
		}
	}
}

// chunkReader gives data n bytes at a time.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.n)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// A read error ends the tokens as it ends x/net's; a reader that gives
// nothing, again and again, is io.ErrNoProgress.
func TestHTMLTokenizerReadError(t *testing.T) {
	boom := errors.New("boom")
	z := &htmlTokenizer{}
	for _, c := range []string{"", "a<b>c", "<a href=x", "<!-- x"} {
		want := xnetTokens(io.MultiReader(strings.NewReader(c), iotest.ErrReader(boom)), maxHTMLToken)
		got := ourTokens(z, io.MultiReader(strings.NewReader(c), iotest.ErrReader(boom)), maxHTMLToken)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q: got %q, want %q", c, got, want)
		}
	}
	got := ourTokens(z, zeroReader{}, maxHTMLToken)
	if want := []string{"error " + io.ErrNoProgress.Error()}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

// FuzzHTMLTokenizer: for any input, the tokens of x/net, with the
// walker's limit and with a small one, whatever the reads.
func FuzzHTMLTokenizer(f *testing.F) {
	for _, c := range htmlTokenCases {
		f.Add([]byte(c))
	}
	z := &htmlTokenizer{}
	f.Fuzz(func(t *testing.T, data []byte) {
		k := 0
		if len(data) > 0 {
			k = int(data[len(data)-1]) * len(data) / 256
		}
		checkTokens(t, z, data, maxHTMLToken, tokReaders(data, k))
		checkTokens(t, z, data, 1+len(data)%23, tokReaders(data, k))
	})
}

var sink int

// benchHTML is about 1 MiB of HTML as mail carries it (the shape of
// bench/mkmail's HTML parts): lines of text with character references,
// links, <br> at each line end, a style element.
func benchHTML() []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html\">\n<style>p { margin: 0 0 1em }</style></head>\n<body>\n<p>")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "Line %d of the text, with &quot;quotes&quot; and it&#39;s &amp; more: see ", i)
		fmt.Fprintf(&b, "<a href=\"http://example.com/page/%d?a=1&amp;b=2\">http://example.com/page/%d?a=1&amp;b=2</a> now.<br>\n", i, i)
		if i%8 == 7 {
			b.WriteString("</p>\n<p>")
		}
	}
	b.WriteString("</p>\n</body></html>\n")
	return b.Bytes()
}

// benchNewsletterHTML is about 1 MiB of HTML as newsletters and
// notifications carry it: nested tables, style=, class=, width= and
// bgcolor= on most elements, images, tracked links, &nbsp; and
// conditional comments; tags are most of the bytes, not the text.
func benchNewsletterHTML() []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n" +
		"<html xmlns=\"http://www.w3.org/1999/xhtml\"><head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\" />\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\" />\n<title>Your weekly digest</title>\n" +
		"<style type=\"text/css\">\nbody { margin: 0; padding: 0; } .btn a { color: #ffffff !important; }\n@media only screen and (max-width: 600px) { .col { width: 100% !important; } }\n</style>\n" +
		"<!--[if mso]><style>table { border-collapse: collapse; }</style><![endif]-->\n</head>\n" +
		"<body style=\"margin:0;padding:0;background-color:#f4f4f4;\">\n" +
		"<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" bgcolor=\"#f4f4f4\">\n")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "<tr>\n<td align=\"center\" valign=\"top\" style=\"padding:20px 10px 0 10px;\">\n"+
			"<table class=\"col\" width=\"600\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" style=\"max-width:600px;background:#ffffff;border-radius:4px;\">\n"+
			"<tr><td class=\"hero\" style=\"padding:0;\"><a href=\"https://click.example.com/ls/click?upn=%d-AbCdEf%%3D%%3D&amp;utm_source=newsletter&amp;utm_medium=email\" target=\"_blank\">"+
			"<img src=\"https://cdn.example.com/images/%d/hero.jpg\" width=\"600\" height=\"240\" alt=\"Story %d\" style=\"display:block;border:0;outline:none;text-decoration:none;\" /></a></td></tr>\n"+
			"<tr><td style=\"padding:24px 30px;font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:24px;color:#333333;\">\n"+
			"<h2 style=\"margin:0 0 12px 0;font-size:22px;\">Story number %d: what&rsquo;s new this week</h2>\n"+
			"<p style=\"margin:0 0 12px 0;\">We&#39;ve been busy. Here is a short summary of story %d with a <span style=\"font-weight:bold;color:#cc0000;\">highlight</span>,&nbsp;and a link to "+
			"<a href=\"https://www.example.org/blog/%d/post-title?ref=mail\" style=\"color:#1a73e8;text-decoration:underline;\">the full post</a>.</p>\n"+
			"<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\"><tr><td class=\"btn\" bgcolor=\"#1a73e8\" style=\"border-radius:3px;\">"+
			"<a href=\"https://click.example.com/ls/click?upn=%d-XyZ&amp;b=2\" style=\"display:inline-block;padding:10px 20px;color:#ffffff;text-decoration:none;\">Read more &raquo;</a></td></tr></table>\n"+
			"</td></tr>\n</table>\n</td>\n</tr>\n", i, i, i, i, i, i, i)
	}
	b.WriteString("<tr><td style=\"padding:20px;font-size:12px;color:#999999;\" align=\"center\">You are receiving this because you signed up. " +
		"<a href=\"https://example.com/unsubscribe?u=abc&amp;id=123\" style=\"color:#999999;\">Unsubscribe</a><img src=\"https://click.example.com/open.gif\" width=\"1\" height=\"1\" alt=\"\" /></td></tr>\n</table>\n</body></html>\n")
	return b.Bytes()
}

// BenchmarkHTMLTokenizer: every token of benchHTML (the corpus's shape)
// and of benchNewsletterHTML with its text or its name and attributes
// decoded, by x/net/html's Tokenizer and by ours.
func BenchmarkHTMLTokenizer(b *testing.B) {
	for _, in := range []struct {
		name string
		data []byte
	}{{"", benchHTML()}, {"news-", benchNewsletterHTML()}} {
		benchHTMLTokenizer(b, in.name, in.data)
	}
}

func benchHTMLTokenizer(b *testing.B, prefix string, data []byte) {
	b.Run(prefix+"xnet", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			z := html.NewTokenizer(bytes.NewReader(data))
			z.SetMaxBuf(maxHTMLToken)
			for {
				tt := z.Next()
				if tt == html.ErrorToken {
					break
				}
				if tt == html.TextToken {
					sink += len(z.Text())
					continue
				}
				name, more := z.TagName()
				sink += len(name)
				for more {
					var k, v []byte
					k, v, more = z.TagAttr()
					sink += len(k) + len(v)
				}
			}
		}
	})
	b.Run(prefix+"own", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		z := &htmlTokenizer{}
		var t []byte
		for b.Loop() {
			z.reset(bytes.NewReader(data), maxHTMLToken)
			for {
				tt := z.Next()
				if tt == htmlErrorToken {
					break
				}
				if tt == htmlTextToken {
					t = z.appendText(t[:0])
					sink += len(t)
					continue
				}
				sink += len(z.tagName())
				for i := range z.attrCount() {
					t = z.appendAttrVal(t[:0], i)
					sink += len(z.attrKey(i)) + len(t)
				}
			}
		}
	})
}

// An HTML part's text runs are the same however their bodies are read:
// a run's Read takes tokens until p is full, whatever len(p) is.
func TestHTMLBodyReads(t *testing.T) {
	long := strings.Repeat("<p>line &amp; http://example.com/x</p>\n", 3000)
	inputs := append([]string{long, long + "<a href=\"http://example.com/l\">l</a>" + long,
		strings.Repeat(" ", 3*maxBlankRun) + "x", "<a href=\"http://example.com/y\">" + strings.Repeat("\n", 2*maxBlankRun) + "</a>"}, htmlTokenCases...)
	for _, in := range inputs {
		msg := "Content-Type: text/html\n\n" + in
		var want []string
		for _, size := range []int{0, 1, 7, 4096} {
			var got []string
			err := Walk(strings.NewReader(msg), Options{ResolveBase: extract.ResolveBase, Format: FormatMail}, func(p *Part) error {
				var b []byte
				var err error
				if size == 0 {
					b, err = io.ReadAll(p.Body)
				} else {
					buf := make([]byte, size)
					for err == nil {
						var n int
						n, err = p.Body.Read(buf)
						b = append(b, buf[:n]...)
					}
					if err == io.EOF {
						err = nil
					}
				}
				got = append(got, fmt.Sprintf("%v %s %s %q", p.Source, p.Tag, p.Attr, b))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if size == 0 {
				want = got
			} else if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%.60q: reads of %d bytes: got\n%s\nwant\n%s", in, size, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// BenchmarkHTMLWalk: an HTML part of benchHTML and of
// benchNewsletterHTML through Walk, each Part's Body read in 32 KiB
// reads (the tokenizer, htmlDoc's text runs and URL attribute values).
func BenchmarkHTMLWalk(b *testing.B) {
	for _, in := range []struct {
		name string
		data []byte
	}{{"text", benchHTML()}, {"news", benchNewsletterHTML()}} {
		msg := append([]byte("Content-Type: text/html; charset=utf-8\n\n"), in.data...)
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			buf := make([]byte, 32<<10)
			for b.Loop() {
				err := Walk(bytes.NewReader(msg), Options{ResolveBase: extract.ResolveBase, Format: FormatMail}, func(p *Part) error {
					for {
						n, err := p.Body.Read(buf)
						sink += n
						if err == io.EOF {
							return nil
						}
						if err != nil {
							return err
						}
					}
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// htmlParts lists the Parts Walk gives for an HTML body, each Body read
// whole, with fast (htmlDoc.fast) on or off, the message read by rd.
func htmlParts(t testing.TB, body string, fast bool, rd func(io.Reader) io.Reader) string {
	defer func(f bool) { htmlFast = f }(htmlFast)
	htmlFast = fast
	var got []string
	err := Walk(rd(strings.NewReader("Content-Type: text/html\n\n"+body)), Options{ResolveBase: extract.ResolveBase, Format: FormatMail}, func(p *Part) error {
		b, err := io.ReadAll(p.Body)
		got = append(got, fmt.Sprintf("%v %s %s %q", p.Source, p.Tag, p.Attr, b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(got, "\n")
}

var htmlReads = map[string]func(io.Reader) io.Reader{
	"whole":   func(r io.Reader) io.Reader { return r },
	"OneByte": iotest.OneByteReader,
	"Half":    iotest.HalfReader,
	"chunks":  func(r io.Reader) io.Reader { b, _ := io.ReadAll(r); return &chunkReader{data: b, n: 4093} },
}

// The text and values of an HTML part are the same whether htmlDoc.fast
// takes the tokens or Next does, however the input is read.
func TestHTMLFast(t *testing.T) {
	long := strings.Repeat("<p class=x>line &amp; http://example.com/x<br>\r\n", 3000)
	inputs := append([]string{
		long, string(benchNewsletterHTML()[:200000]),
		long + "<a href=\"http://example.com/l\">l</a><template>a<b>b</b></template><script/>c<SCRIPT>d</script>e" + long,
		"a<3 b<>c <= d</ x>e</>f<!--g-->h<?i?>j<!DOCTYPE k>l",
		"<title>a<b>c</title>d<TextArea>e&amp;</textarea>f<style>g</style>h<plaintext>i<j>",
		"<template><a href=http://example.com/t>t</a></template><p/><br/><a href=/>x</a>",
		"x\r\n<p>\ry\r<br>\n\r&amp\r&#65;&notit;<p>&",
		// CRLF mail HTML without references (the text tokens htmlIndex's
		// appendText takes), and lone CRs and CRs at token ends.
		strings.Repeat("<p>line http://example.com/x<br>\r\nmore text\r\n</p>\r\n", 3000),
		strings.Repeat("a\rb\r<br>\r\r\n<i>\r</i>c\r\n\r\nd<b>", 500),
		// Text written as HTML by mail programs, a line then "<br>"
		// (htmlIndex's textAndBreaks): the references it decodes and
		// their near misses, "a < b", lines longer than 64 bytes, CR LF
		// and lone CRs, the other tags it reads between them.
		strings.Repeat("Author: A &lt;a@example.org&gt; wrote &#39;x&#34; &quot;q&quot; &amp; if a < b or 1<2 <<br>\n"+
			"a line && c<d <<br>\n"+
			"near misses: &lt y &quot &amp &#39 &#35; &ltx; &gt<br>\n"+
			"    "+strings.Repeat("long line ", 12)+"http://example.com/"+strings.Repeat("x", 70)+"<br>\r\n"+
			"<p>\r</p><div>&#34;</div>\r<br><a href=\"http://example.com/a\">a</a>&amp;<br>\n", 400),
		// Self-closing or not, when only URL attributes are kept.
		"<template src=a/>t1</template><template src=a />t2</template><template src='a'/>t3</template>" +
			"<template src=a src=b/>t4</template><template SRC=b/ src=a/>t5</template><template x=1 src=b/>t6</template>" +
			"<template src=b x=a/>t7</template><template src=b src=a/>t8</template><template x=a/>t9</template><template =a/>t10",
	}, htmlTokenCases...)
	for _, in := range inputs {
		for name, rd := range htmlReads {
			want := htmlParts(t, in, false, rd)
			if got := htmlParts(t, in, true, rd); got != want {
				t.Fatalf("%.60q, %s reads: fast gives\n%s\nNext gives\n%s", in, name, got, want)
			}
		}
	}
}

// FuzzHTMLFast: TestHTMLFast for any input.
func FuzzHTMLFast(f *testing.F) {
	for _, c := range htmlTokenCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, rd := range []func(io.Reader) io.Reader{htmlReads["whole"], iotest.HalfReader} {
			want := htmlParts(t, string(data), false, rd)
			if got := htmlParts(t, string(data), true, rd); got != want {
				t.Fatalf("%q: fast gives\n%s\nNext gives\n%s", data, got, want)
			}
		}
	})
}

// htmlPartsReadBy is htmlParts with fast on, each Body read by reads of
// size bytes into one buffer.
func htmlPartsReadBy(t testing.TB, body string, size int) string {
	var got []string
	buf := make([]byte, size)
	err := Walk(strings.NewReader("Content-Type: text/html\n\n"+body), Options{ResolveBase: extract.ResolveBase, Format: FormatMail}, func(p *Part) error {
		var b []byte
		for {
			n, err := p.Body.Read(buf)
			if n > size {
				t.Fatalf("read %d into %d bytes", n, size)
			}
			b = append(b, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
		}
		got = append(got, fmt.Sprintf("%v %s %s %q", p.Source, p.Tag, p.Attr, b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(got, "\n")
}

// Reads of every size give the same Parts: reads larger than what
// htmlRun.Read takes ahead (htmlReadAhead) and smaller ones, on documents
// of text and tags in the shape of mail, a text token longer than a
// read, entities, hidden script text, and links that end runs.
func TestHTMLLargeReads(t *testing.T) {
	long := strings.Repeat("text without a tag &amp; more ", 20000) // 600 KB in one token
	inputs := []string{
		string(benchHTML()),
		string(benchNewsletterHTML()),
		"<p>" + long + "</p><a href=\"http://example.com/a\">a</a>" + long,
		"<script>" + long + "</script><p>after http://example.com/s</p>",
		strings.Repeat("<br>line &lt;x&gt; http://example.com/l\r\n", 5000),
		// A token longer than the reads after some that fit.
		strings.Repeat("<br>line &lt;x&gt; http://example.com/l\r\n", 5000) + long + "<br>end http://example.com/e",
	}
	for _, in := range inputs {
		want := htmlPartsReadBy(t, in, 100)
		for _, size := range []int{1 << 10, 1500, 4 << 10, 64 << 10, 64<<10 + 1, 300 << 10, 1 << 20} {
			if got := htmlPartsReadBy(t, in, size); got != want {
				t.Fatalf("%.60q: reads of %d bytes give other parts than reads of 100 (%d against %d bytes of listing)", in, size, len(got), len(want))
			}
		}
	}
}
