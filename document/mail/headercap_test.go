package mail

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/urix-dev/urix/extract"
)

// One field is cut at maxFieldBytes, at a line end, with one warning that
// names it; the fields after it are read (issue 32: a Received field
// folded over 175,000 lines dropped List-Help and List-Post, with a
// warning a field that did not name one). The header as a whole stays
// bounded by maxHeaderBytes: past it, the fields are dropped, told once.
func TestHeaderFieldCapped(t *testing.T) {
	var folded strings.Builder
	folded.WriteString("Received: from a\n")
	for i := range 175000 {
		fmt.Fprintf(&folded, "  by relay%d.example.org;\n", i)
	}
	big := func(name string) string {
		return name + ": x\n" + strings.Repeat(" "+strings.Repeat("y", 98)+"\n", maxFieldBytes/100-1)
	}
	for _, tc := range []struct {
		name, header string
		fields       []string // the URI fields given
		warns        []string
	}{
		{"one field folded over 175,000 lines", "From: a@example.org\n" + folded.String() +
			"List-Help: <http://help.example/>\nList-Post: <http://post.example/>\n",
			[]string{"List-Help http://help.example/", "List-Post http://post.example/"},
			[]string{`1: header: header field "Received" longer than 262144 bytes; cut there`}},
		{"four fields just under the cap", big("X-A") + big("X-B") + big("X-C") + "List-Post: <http://post.example/>\n",
			[]string{"List-Post http://post.example/"}, nil},
		{"more than the header holds", big("X-A") + big("X-B") + big("X-C") + big("X-D") + big("X-E") +
			"List-Help: <http://help.example/>\nList-Post: <http://post.example/>\n",
			nil,
			[]string{`1: header: header longer than 1048576 bytes; field "X-E" cut there, and the fields after it dropped`}},
		{"one line longer than the cap", "List-Id: " + strings.Repeat("z", maxFieldBytes) + "\nList-Post: <http://post.example/>\n",
			[]string{"List-Post http://post.example/"},
			[]string{`1: header: header field "List-Id" longer than 262144 bytes; dropped`}},
	} {
		msg := tc.header + "\nbody http://body.example/\n"
		for _, held := range []bool{false, true} {
			var fields, warns []string
			opts := Options{ResolveBase: extract.ResolveBase, Format: FormatMail, Warn: func(n int, m string) { warns = append(warns, fmt.Sprintf("%d: %s", n, m)) }}
			fn := func(p *Part) error {
				b, _ := io.ReadAll(p.Body)
				if p.Field != "" {
					fields = append(fields, p.Field+" "+strings.Trim(string(b), "<>"))
				}
				return nil
			}
			var err error
			if held {
				err = new(PartWalker).WalkHeldMessage([]byte(msg), opts, fn)
			} else {
				err = Walk(strings.NewReader(msg), opts, fn)
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(fields) != fmt.Sprint(tc.fields) || fmt.Sprint(warns) != fmt.Sprint(tc.warns) {
				t.Errorf("%s (held %v): fields %q, warnings %q; want %q, %q", tc.name, held, fields, warns, tc.fields, tc.warns)
			}
		}
	}
}
