package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// The plain lines of behaviour §7: prefixes in grep's order, each only when
// asked; the normal form; the invalid ones with their reason; NUL ends.
func TestPlainLines(t *testing.T) {
	const text = "a http://Example.COM:80/%7ex\nb <http://bad/%zz> mailto:x@y.example"
	mail := &document.Origin{Format: document.Mbox, Message: 4, Part: "1"}
	cases := []struct {
		name string
		opts Options
		from *document.Origin
		want string
	}{
		{"default", Options{}, nil, "http://Example.COM:80/%7ex\nmailto:x@y.example\n"},
		{"file", Options{FileName: true}, nil, "f.txt:http://Example.COM:80/%7ex\nf.txt:mailto:x@y.example\n"},
		{"file of mail", Options{FileName: true}, mail, "f.txt:4:http://Example.COM:80/%7ex\nf.txt:4:mailto:x@y.example\n"},
		{"all prefixes", Options{FileName: true, Line: true, Column: true, Offset: true}, nil, "f.txt:1:3:2:http://Example.COM:80/%7ex\nf.txt:2:20:48:mailto:x@y.example\n"},
		{"normalize", Options{Normalize: true}, nil, "http://example.com/~x\nmailto:x@y.example\n"},
		{"invalid", Options{Invalid: true, Line: true}, nil, "2:http://bad/%zz\tbad percent-encoding %zz at byte 11\n"},
		{"null", Options{Null: true}, nil, "http://Example.COM:80/%7ex\x00mailto:x@y.example\x00"},
		{"count", Options{Count: true, FileName: true}, nil, "f.txt:2\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			w := NewWriter(&out, &c.opts)
			w.Reset(&out, "f.txt")
			for m, err := range extract.All(strings.NewReader(text), extract.Options{}) {
				if err != nil {
					t.Fatal(err)
				}
				w.Write(&m, c.from)
			}
			if c.opts.Count {
				w.WriteCount()
			}
			w.Flush()
			if got := out.String(); got != c.want {
				t.Errorf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}
