package output

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// benchMailMatches are the links of an HTML newsletter: 40 anchors (with
// their text), 40 images and 40 URLs in the text of each of 10
// messages, the hosts repeating across them as in bench/README's dense
// mbox.
func benchMailMatches(b *testing.B) ([]extract.Match, []*document.Origin) {
	var text strings.Builder
	var froms []*document.Origin
	for msg := range 10 {
		for i := range 40 {
			fmt.Fprintf(&text, "https://www.site%d.com/path/%d/%d?utm_source=x&id=%d\n", i%17, msg, i, i)
			fmt.Fprintf(&text, "https://img.site%d.net/%d.png\n", i%17, i)
			fmt.Fprintf(&text, "https://text.example.org/%d/%d\n", msg, i)
			ml := &document.Origin{Format: document.Mbox, Message: msg + 1, MessageOffset: int64(msg) * 5000, MessageID: fmt.Sprintf("m%d@example.com", msg), Part: "1", HTML: true}
			a, img, txt := *ml, *ml, *ml
			a.Source, a.Tag, a.Attr, a.Text = document.SourceHTMLAttr, "a", "href", "quick brown fox"
			img.Source, img.Tag, img.Attr = document.SourceHTMLAttr, "img", "src"
			txt.Source = document.SourceHTMLText
			froms = append(froms, &a, &img, &txt)
		}
	}
	var ms []extract.Match
	for m, err := range extract.All(strings.NewReader(text.String()), extract.Options{}) {
		if err != nil {
			b.Fatal(err)
		}
		m.Raw = bytes.Clone(m.Raw)
		ms = append(ms, m)
	}
	if len(ms) != len(froms) {
		b.Fatalf("%d matches, %d origins", len(ms), len(froms))
	}
	return ms, froms
}

// BenchmarkAppendJSONMail is the cost of the JSON of one link of mail,
// the facts included (ns/op is per link).
func BenchmarkAppendJSONMail(b *testing.B) {
	ms, froms := benchMailMatches(b)
	b.ReportAllocs()
	var buf []byte
	n := 0
	for b.Loop() {
		i := n % len(ms)
		buf = AppendJSON(buf[:0], "inbox.mbox", froms[i], &ms[i])
		n++
	}
}

// BenchmarkLinkFactsMail is the facts alone of the same links.
func BenchmarkLinkFactsMail(b *testing.B) {
	ms, froms := benchMailMatches(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		i := n % len(ms)
		lf := linkFactsOf(froms[i], &ms[i])
		if !lf.HasHost {
			b.Fatal(ms[i].URI)
		}
		n++
	}
}
