package document

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"

	"github.com/urix-dev/urix/extract"
)

// warcRec builds one WARC record with CRLF line ends and its length.
func warcRec(typ, target, ctype, block string) string {
	var b strings.Builder
	b.WriteString("WARC/1.1\r\nWARC-Type: " + typ + "\r\nWARC-Record-ID: <urn:uuid:" + typ + ">\r\n")
	if target != "" {
		b.WriteString("WARC-Target-URI: " + target + "\r\n")
	}
	if ctype != "" {
		b.WriteString("Content-Type: " + ctype + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	return b.String()
}

func httpResp(fields, body string) string {
	return "HTTP/1.1 200 OK\r\n" + fields + "\r\n" + body
}

func gzipped(s string) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

func chunked(s string) string {
	h := len(s) / 2
	return fmt.Sprintf("%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n", h, s[:h], len(s)-h, s[h:])
}

func brotlied(s string) string {
	var b bytes.Buffer
	z := brotli.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

func rawDeflated(s string) string {
	var b bytes.Buffer
	z, _ := flate.NewWriter(&b, 5)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

// found is what urix finds in the documents of a WARC file: each URI with
// its source (attribute values read as the browser reads them).
func foundInWARC(t *testing.T, in string) ([]string, []string) {
	t.Helper()
	var out, warns []string
	ar := extract.NewAttrReader(extract.Options{})
	err := NewReader(Options{Warn: func(w Warning) { warns = append(warns, w.Message) }}).Read(strings.NewReader(in), "crawl.warc", func(d *Document) error {
		if d.Source == SourceHTMLAttr || d.Source == SourceHTTPHeader {
			if k, m := ar.Read(d.Value, d.Base); k == extract.AttrURI {
				out = append(out, d.Source.String()+" "+m.URI)
			}
			return nil
		}
		for m, err := range extract.All(d.Body, extract.Options{}) {
			if err != nil {
				return err
			}
			out = append(out, d.Source.String()+" "+m.URI)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, warns
}

// WARC response records are read as the browser receives them (behaviour
// §9, revision 5).
func TestWARCResponses(t *testing.T) {
	page := `<html><head><title>Guide http://title.example/</title></head><body>` +
		`<a href="/docs/guide.html">guide</a> <script src="//cdn.example.net/lib.js"></script>` +
		`<a href="next?a=1&amp;b=2">next</a> <p>see http://text.example/ caf` + "\xe9" + `</p></body></html>`
	in := warcRec("warcinfo", "", "application/warc-fields", "software: crawler http://warcinfo.example/\r\n") +
		warcRec("request", "http://example.com/start/page.html", "application/http;msgtype=request",
			"GET /start/page.html HTTP/1.1\r\nHost: example.com\r\nReferer: http://referer.example/\r\n\r\n") +
		warcRec("response", "http://example.com/old", "application/http;msgtype=response",
			"HTTP/1.1 301 Moved Permanently\r\nLocation: /new/place?x=a b\r\nContent-Type: text/html\r\nContent-Length: 0\r\n\r\n") +
		warcRec("response", "<http://example.com/start/page.html>", "application/http; msgtype=response",
			httpResp("Content-Type: text/html; charset=iso-8859-1\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", chunked(gzipped(page)))) +
		warcRec("response", "https://example.org/robots.txt", "application/http;msgtype=response",
			httpResp("Content-Type: text/plain\r\nContent-Encoding: br\r\n", brotlied("Sitemap: https://example.org/sitemap.xml\n"))) +
		warcRec("response", "https://example.org/d", "application/http;msgtype=response",
			httpResp("Content-Type: text/html\r\nContent-Encoding: deflate\r\n", rawDeflated(`<base href="https://base.example/b/"><img src="i.png">`))) +
		warcRec("response", "https://example.org/img.png", "application/http;msgtype=response",
			httpResp("Content-Type: image/png\r\n", "\x89PNG http://png.example/")) +
		warcRec("metadata", "https://example.org/", "application/warc-fields", "outlink: http://meta.example/\r\n") +
		warcRec("response", "https://example.org/bad", "application/http;msgtype=response",
			httpResp("Content-Type: text/plain\r\nContent-Encoding: gzip\r\n", "\x1f\x8bnot gzip http://badgz.example/")) +
		warcRec("conversion", "https://example.org/", "text/plain", "Plain text, see https://wet.example/page\n")
	got, warns := foundInWARC(t, in)
	want := []string{
		"http_header http://example.com/new/place?x=a%20b",
		"html_text http://title.example/", // the title: shown in the tab
		"html_attr http://example.com/docs/guide.html",
		"html_attr http://cdn.example.net/lib.js",
		"html_attr http://example.com/start/next?a=1&b=2",
		"html_text http://text.example/",
		"body https://example.org/sitemap.xml",
		"html_attr https://base.example/b/",
		"html_attr https://base.example/b/i.png",
		"body https://wet.example/page",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "HTTP body") {
		t.Errorf("warnings %q, want one of the bad gzip body", warns)
	}
}

// A block that holds no HTTP response, a header past its bound, an
// unknown coding: each costs only its record.
func TestWARCResponsesHostile(t *testing.T) {
	after := warcRec("conversion", "https://example.org/", "text/plain", "after https://after.example/\n")
	for name, block := range map[string]string{
		"no status line":  "<html><a href=\"http://x.example/\">",
		"header cut":      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n",
		"header too long": "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", 300<<10) + "\r\n\r\nhttp://long.example/",
		"unknown coding":  httpResp("Content-Type: text/plain\r\nContent-Encoding: zstd-x\r\n", "http://z.example/"),
		"bad chunks":      httpResp("Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n", "zz\r\nhttp://chunk.example/"),
	} {
		got, warns := foundInWARC(t, warcRec("response", "http://example.com/", "application/http;msgtype=response", block)+after)
		if !reflect.DeepEqual(got, []string{"body https://after.example/"}) || len(warns) != 1 {
			t.Errorf("%s: found %q, warnings %q", name, got, warns)
		}
	}
}

// FuzzHTTPResponse: any block of a response record, never a panic, and
// the record after it still read.
func FuzzHTTPResponse(f *testing.F) {
	f.Add(httpResp("Content-Type: text/html\r\n", "<a href=x>"))
	f.Add(httpResp("Content-Type: text/plain\r\nContent-Encoding: gzip, br\r\nTransfer-Encoding: chunked\r\n", "5\r\nabc"))
	f.Add("HTTP/1.0 302\r\nLocation: \r\n folded\r\n\r\n")
	f.Fuzz(func(t *testing.T, block string) {
		in := warcRec("response", "http://example.com/a/", "application/http;msgtype=response", block) +
			warcRec("conversion", "https://example.org/", "text/plain", "after https://after.example/\n")
		var last string
		err := NewReader(Options{}).Read(strings.NewReader(in), "f.warc", func(d *Document) error {
			b, err := io.ReadAll(d.Body)
			last = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(last, "https://after.example/") {
			t.Fatalf("the record after is lost: %q", last)
		}
	})
}
