package output

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// linkTexts hold links with each fact of behaviour §10.
var linkTexts = []string{
	"http://1071396130/ http://0x3f.0xdc.0x35.0x22/ http://0177.1/ http://[2001:DB8::0:1]/",
	"http://www.paypal.com@evil.example/ http://%77%77%77.example.com/ http://pаypal.com/",
	"https://news.bbc.co.uk/x http://localhost/ mailto:a@b.example urn:isbn:0451450523",
	"https://www.google.com/url?q=http%3A%2F%2Fevil.example%2F",
}

var linkOrigins = []*document.Origin{
	{Text: "www.paypal.com"},
	{Format: document.Mbox, Message: 4, Part: "2", HTML: true, Source: document.SourceHTMLAttr, Tag: "a", Attr: "href", Text: "Log in \"now\""},
}

func linkMatches(t *testing.T) []extract.Match {
	var all []extract.Match
	for _, text := range linkTexts {
		for m, err := range extract.All(strings.NewReader(text), extract.Options{}) {
			if err != nil {
				t.Fatal(err)
			}
			m.Raw = bytes.Clone(m.Raw)
			all = append(all, m)
		}
	}
	return all
}

// TestLinkJSONIsEncodingJSON: the facts are written as encoding/json
// writes Link, and decode back.
func TestLinkJSONIsEncodingJSON(t *testing.T) {
	for _, m := range linkMatches(t) {
		embedded := m
		embedded.EmbeddedIn = "https://www.google.com/url?q=http%3A%2F%2Fevil.example%2F"
		for _, from := range append(linkOrigins, origins...) {
			for _, m := range []extract.Match{m, embedded} {
				rec := NewRecord("-", from, &m)
				var want bytes.Buffer
				enc := json.NewEncoder(&want)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(rec); err != nil {
					t.Fatal(err)
				}
				got := AppendJSON(nil, "-", from, &m)
				if !bytes.Equal(append(got, '\n'), want.Bytes()) {
					t.Fatalf("AppendJSON:\n%s\nencoding/json:\n%s", got, want.Bytes())
				}
				var back Record
				if err := json.Unmarshal(got, &back); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, rec) {
					t.Fatalf("%s decodes to\n%+v\nwant\n%+v", got, back, rec)
				}
			}
		}
	}
}

// TestLinkFacts: each fact of behaviour §10 in the JSON of a link.
func TestLinkFacts(t *testing.T) {
	tests := []struct {
		uri  string
		from *document.Origin
		want string // the JSON from "flags" on
	}{
		{"http://1071396130/", nil, `"flags":["numeric_host"],"host":"63.220.53.34","domain":null}`},
		{"http://0x3f.0xdc.0x35.0x22/", nil, `"flags":["numeric_host"],"host":"63.220.53.34","domain":null}`},
		{"http://0177.1/", nil, `"flags":["numeric_host"],"host":"127.0.0.1","domain":null}`},
		{"http://www.paypal.com@evil.example/", nil, `"flags":["userinfo"],"host":"evil.example","domain":"evil.example"}`},
		{"http://%77%77%77.example.com/", nil, `"flags":["encoded_host"],"host":"www.example.com","domain":"example.com"}`},
		{"http://pаypal.com/", nil, `"flags":["iri","mixed_script"],"host":"xn--pypal-4ve.com","domain":"xn--pypal-4ve.com"}`},
		{"http://evil.example/", &document.Origin{Text: "www.paypal.com"}, `"flags":["display_mismatch"],"host":"evil.example","domain":"evil.example","text":"www.paypal.com"}`},
		{"https://news.bbc.co.uk/", nil, `"flags":[],"host":"news.bbc.co.uk","domain":"bbc.co.uk"}`},
		// No mismatch: the same site in another form.
		{"https://paypal.com/", &document.Origin{Text: "www.paypal.com"}, `"flags":[],"host":"paypal.com","domain":"paypal.com","text":"www.paypal.com"}`},
		// Latin with digits, Japanese: not mixed.
		{"http://paypal2024.com/", nil, `"flags":[],"host":"paypal2024.com","domain":"paypal2024.com"}`},
		{"http://日本語テストひらがなabc.jp/", nil, `"flags":["iri"],"host":"xn--abc-o73b4fvb9j6o0dva8760mehdm06m.jp","domain":"xn--abc-o73b4fvb9j6o0dva8760mehdm06m.jp"}`},
		// No host: none of the fields.
		{"mailto:a@b.example", nil, `"flags":[]}`},
	}
	for _, tt := range tests {
		var m *extract.Match
		for mm, err := range extract.All(strings.NewReader(tt.uri), extract.Options{}) {
			if err != nil {
				t.Fatal(err)
			}
			m = &mm
			break
		}
		if m == nil {
			t.Fatalf("%s: not found", tt.uri)
		}
		got := string(AppendJSON(nil, "-", tt.from, m))
		if _, tail, _ := strings.Cut(got, `"valid":true,`); tail != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.uri, got, tt.want)
		}
	}
}

// TestEmbeddedLink: a URI read inside another's query is flagged and
// names it; the <a>'s text is its container's, not its own.
func TestEmbeddedLink(t *testing.T) {
	for m, err := range extract.All(strings.NewReader("http://evil.example/"), extract.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		m.EmbeddedIn = "https://g.example/url?q=x"
		from := &document.Origin{Format: document.Mbox, Message: 1, Source: document.SourceHTMLAttr, Tag: "a", Attr: "href", Text: "www.paypal.com"}
		got := string(AppendJSON(nil, "-", from, &m))
		want := `"flags":["embedded"],"host":"evil.example","domain":"evil.example","embedded_in":"https://g.example/url?q=x"}`
		if _, tail, _ := strings.Cut(got, `"valid":true,`); tail != want {
			t.Errorf("got %s\nwant the tail %s", got, want)
		}
	}
}

// TestLinkJSONAllocatesNothing: the JSON of a link with its facts and
// flags allocates nothing once its host's facts are cached. (The flags of
// the match, extract.Flags.Names, are a slice made: links with none.)
func TestLinkJSONAllocatesNothing(t *testing.T) {
	for _, m := range linkMatches(t) {
		if m.Flags != 0 {
			continue
		}
		from := &document.Origin{Format: document.Mbox, Message: 1, Source: document.SourceHTMLAttr, Tag: "a", Attr: "href", Text: "Log in"}
		buf := AppendJSON(nil, "-", from, &m)
		if n := testing.AllocsPerRun(20, func() { buf = AppendJSON(buf[:0], "-", from, &m) }); n != 0 {
			t.Errorf("%s: %v allocations", m.URI, n)
		}
	}
}
