package output

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// texts hold URIs of every kind extract tells apart: delimiters, flags
// (rejoined, hyphen_ambiguous, url_prefix, iri), invalid ones with their
// reasons, and bytes that JSON escapes.
var texts = []string{
	"see http://example.com/a and <URL:http://example.com/b> (http://example.com/c).",
	"<http://example.com/some-\n  thing> and <http://exa\n  mple.com/x>",
	`"http://example.com/q?a=1&b=<2>" [http://[::1]/] {http://b.example/}`,
	"http://例え.テスト/パス。 https://en.wikipedia.org/wiki/Michelson–Morley_experiment",
	"bad http://a/%zz and http://[::1 and http://h:port/ and mailto:a@b",
	"http://a/\u2028b http://a/\x7f http://a/\xff\xfe tab\thttp://a/\"q\"",
	"> quoted <http://example.com/a/\n> b/c>\nmid:a@b cid:x@y tel:+1-201-555-0123",
}

var origins = []*document.Origin{
	nil,
	{Format: document.Mbox, Message: 3, MessageOffset: 120, MessageID: "id@host", Part: "1.2", HTML: true},
	{Format: document.Mbox, Message: 4, MessageOffset: 7, Part: "2", HTML: true, Source: document.SourceHTMLAttr, Tag: "a", Attr: "href"},
	{Format: document.Mbox, Message: 5, Field: "List-Archive", Source: document.SourceHeader},
	{Format: document.Mbox, Message: 1, MessageOffset: 0, Field: "List-Unsubscribe"},
	{Format: document.Mbox, Message: 7, MessageOffset: 9},
	{Format: document.WARC, RecordOffset: 0},
	{Format: document.WARC, Record: 7, RecordOffset: 512, TargetURI: "http://t.example/\"x\"", RecordID: "<urn:uuid:1>"},
	{Format: document.WARC, Record: 8, RecordOffset: 1024, TargetURI: "http://t.example/", Source: document.SourceHTMLAttr, Tag: "a", Attr: "href"},
	{Format: document.WARC, Record: 9, RecordOffset: 2048, Source: document.SourceHTTPHeader},
}

var files = []string{"-", "notes.txt", "dir/a \"b\"\\c.txt", "\x00\x01\b\f\x1f\x7f\xff.txt", "é\u2029"}

// matches returns every match of texts under several option sets, each
// with its Raw copied.
func matches(t *testing.T) []extract.Match {
	t.Helper()
	var all []extract.Match
	for _, opts := range []extract.Options{{}, {ASCII: true, Hyphen: extract.HyphenBoth}, {AnyScheme: true, WWW: true, Email: true}} {
		for _, text := range texts {
			for m, err := range extract.All(strings.NewReader(text), opts) {
				if err != nil {
					t.Fatal(err)
				}
				m.Raw = bytes.Clone(m.Raw)
				all = append(all, m)
			}
		}
	}
	if len(all) < 40 {
		t.Fatalf("only %d matches", len(all))
	}
	return all
}

// TestAppendJSONIsEncodingJSON: the hand-written encoder writes what
// encoding/json writes for the Record, byte for byte (DEL aside, which it
// escapes), and that decodes back to the same Record.
func TestAppendJSONIsEncodingJSON(t *testing.T) {
	n := 0
	for _, m := range matches(t) {
		for _, from := range origins {
			for _, file := range files {
				rec := NewRecord(file, from, &m)
				var want bytes.Buffer
				enc := json.NewEncoder(&want)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(rec); err != nil {
					t.Fatal(err)
				}
				got := AppendJSON(nil, file, from, &m)
				gotStd := bytes.ReplaceAll(got, []byte(`\u007f`), []byte("\x7f"))
				if !bytes.Equal(append(gotStd, '\n'), want.Bytes()) {
					t.Fatalf("AppendJSON:\n%s\nencoding/json:\n%s", got, want.Bytes())
				}
				var back Record
				if err := json.Unmarshal(got, &back); err != nil {
					t.Fatalf("%s: %v", got, err)
				}
				// encoding/json decodes invalid UTF-8 as written: U+FFFD.
				rec.File, rec.Raw, rec.URI = valid(rec.File), valid(rec.Raw), valid(rec.URI)
				if !reflect.DeepEqual(back, rec) {
					t.Fatalf("%s decodes to\n%+v\nwant\n%+v", got, back, rec)
				}
				n++
			}
		}
	}
	t.Logf("%d records", n)
}

// The deferred form with its position put in is the whole form.
func TestAppendDeferred(t *testing.T) {
	for _, o := range []Options{{JSON: true}, {Line: true}, {Column: true, Offset: true, FileName: true}, {Line: true, Column: true, Invalid: true, Null: true}, {Offset: true},
		{Line: true, Column: true, Offset: true, FileName: true, Color: &DefaultColors}} {
		for _, m := range matches(t) {
			whole := o.Append(nil, "f.txt", nil, &m)
			part, at := o.AppendDeferred(nil, "f.txt", nil, &m)
			if !o.HasPosition() {
				if at != -1 || !bytes.Equal(part, whole) {
					t.Fatalf("%+v: AppendDeferred = %q, %d; want %q, -1", o, part, at, whole)
				}
				continue
			}
			joined := append(o.AppendPosition(append([]byte(nil), part[:at]...), m.Line, m.Column), part[at:]...)
			if !bytes.Equal(joined, whole) {
				t.Fatalf("%+v: deferred and positioned %q; want %q", o, joined, whole)
			}
		}
	}
}

// appendString's output is a JSON string that decodes to its input, each
// invalid byte read as U+FFFD, whatever the bytes.
func TestAppendString(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "/", "%", "\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\x7f", "\xff", "\xe2\x80", "é", "例", "\u2028", "\u2029", "<", "&"}
	cases := []string{"", "http://a/b?c=d#e", `"\`, "\u2028x\u2029"}
	for range 2000 {
		var sb strings.Builder
		for n := rng.IntN(20); n > 0; n-- {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, sb.String())
	}
	for _, s := range cases {
		out := appendString(nil, s)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("appendString(%q) = %s: not JSON: %v", s, out, err)
		}
		if want := valid(s); got != want {
			t.Fatalf("appendString(%q) = %s, decodes to %q; want %q", s, out, got, want)
		}
		for _, c := range []string{"\u2028", "\u2029", "\x7f"} {
			if strings.Contains(string(out), c) {
				t.Fatalf("appendString(%q) = %s: %q left unescaped", s, out, c)
			}
		}
	}
}

// valid is s with each invalid byte replaced by U+FFFD.
func valid(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// The JSON of a normal form or a raw text copied from that of the URI is
// that of the string itself: the same string, a tail without escapes, a
// tail with escapes in the URI, a tail that starts inside a character.
func TestAppendJSONShared(t *testing.T) {
	for _, c := range []struct{ uri, norm, raw string }{
		{"http://a/b", "http://a/b", "http://a/b"},
		{"mailto:a@b.com", "mailto:a@b.com", "a@b.com"},
		{"http://www.a.com", "http://www.a.com/", "www.a.com"},
		{"mailto:é@b.com", "mailto:é@b.com", "é@b.com"},
		{"mailto:é@b.com", "mailto:é@b.com", "\xa9@b.com"},
		{"x:\"a\"\\b", "x:\"a\"\\b", "\"a\"\\b"},
		{"x:\u2028a", "x:\u2028a", "a"},
		{"x:\xffa", "x:\xffa", "\xffa"},
		{"x:a", "x:a", ""},
		{"x:a", "x:a", "x:a\n"},
	} {
		m := extract.Match{URI: c.uri, Normalized: c.norm, Raw: []byte(c.raw), Valid: true, Line: 1, Column: 12345678, Offset: 99, End: 100}
		rec := NewRecord("f", nil, &m)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rec); err != nil {
			t.Fatal(err)
		}
		if got := AppendJSON(nil, "f", nil, &m); !bytes.Equal(append(got, '\n'), want.Bytes()) {
			t.Errorf("AppendJSON:\n%s\nencoding/json:\n%s", got, want.Bytes())
		}
	}
}

func TestAppendDecimal(t *testing.T) {
	values := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1 << 31, 1<<63 - 1, -1, -10, -1 << 63}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 10000 {
		values = append(values, rng.Int64()>>rng.IntN(64))
	}
	for _, v := range values {
		if got, want := string(appendDecimal([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendDecimal(%d) = %q, want %q", v, got, want)
		}
	}
}

// plainRun stops where the byte-by-byte reading does: every byte value at
// every place of strings of plain bytes around the eight-byte words.
func TestPlainRun(t *testing.T) {
	for n := range 20 {
		for at := range n {
			for c := range 256 {
				b := bytes.Repeat([]byte{'a'}, n)
				b[at] = byte(c)
				for from := 0; from <= n; from++ {
					want := from
					for want < n && jsonPlain[b[want]] {
						want++
					}
					if got := plainRun(string(b), from); got != want {
						t.Fatalf("plainRun(%q, %d) = %d, want %d", b, from, got, want)
					}
				}
			}
		}
	}
}

// A file name that is not UTF-8 is given as bytes too, base64, so that it
// can be opened again: its string has U+FFFD for each bad byte.
func TestJSONFileBytes(t *testing.T) {
	m := matches(t)[0]
	got := string(AppendJSON(nil, "a\xffb.txt", nil, &m))
	if !strings.Contains(got, `"file":"a\ufffdb.txt","file_bytes":"Yf9iLnR4dA=="`) {
		t.Errorf("not UTF-8: %s", got)
	}
	got = string(AppendJSON(nil, "é.txt", nil, &m))
	if strings.Contains(got, "file_bytes") {
		t.Errorf("UTF-8: %s", got)
	}
}
