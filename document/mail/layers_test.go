package mail

import (
	"fmt"
	"go/build"
	"io"
	"strings"
	"testing"

	"github.com/urix-dev/urix/extract"
)

// Layers point one way (issue 33): the mail walker reads messages and
// hands what it read to package extract, which alone judges URIs. So
// neither package mail nor anything it imports may import the scanner or
// the URI parser (its tests may: they read Parts as urix does).
func TestImportsNoURIPackage(t *testing.T) {
	const module = "github.com/urix-dev/urix/"
	forbidden := map[string]bool{module + "scan": true, module + "internal/scan": true, module + "uri": true, module + "extract": true}
	seen := map[string]bool{}
	var visit func(path, dir string, from []string)
	visit = func(path, dir string, from []string) {
		if seen[path] {
			return
		}
		seen[path] = true
		pkg, err := build.Import(path, dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			chain := append(from[:len(from):len(from)], imp)
			if forbidden[imp] {
				t.Errorf("package mail imports %s (%s)", imp, strings.Join(chain, " -> "))
				continue
			}
			if strings.HasPrefix(imp, module) {
				visit(imp, pkg.Dir, chain)
			}
		}
	}
	visit(module+"document/mail", ".", []string{module + "document/mail"})
}

// The walker asks Options.ResolveBase whether HTML has a base before it
// gives a relative value: where it has none (ResolveBase nil, or a
// Content-Location that is not an absolute URI), the value is no Part and
// the visible text runs on past the link as one Part, so that the lines
// of the URIs after it stay those of the part's text.
func TestResolveBaseDecidesParts(t *testing.T) {
	const body = "<p>see <a href=\"rel.html\">here</a> and\nhttp://example.com/x</p>\n"
	split := `html_text "\nsee " ""` + "\n" +
		`html_attr "rel.html" "http://base.example/d/"` + "\n" +
		`html_text "here and\nhttp://example.com/x\n\n" ""`
	whole := `html_text "\nsee here and\nhttp://example.com/x\n\n" ""`
	for _, c := range []struct {
		loc     string
		resolve func(base, ref string) string
		want    string
	}{
		{"http://base.example/d/", extract.ResolveBase, split},
		{"http://bad host/d/", extract.ResolveBase, whole},
		{"d/", extract.ResolveBase, whole},
		{"http://base.example/d/", nil, whole},
	} {
		msg := "Content-Type: text/html\nContent-Location: " + c.loc + "\n\n" + body
		var got []string
		err := Walk(strings.NewReader(msg), Options{Format: FormatMail, ResolveBase: c.resolve}, func(p *Part) error {
			b, err := io.ReadAll(p.Body)
			if p.HTML {
				got = append(got, fmt.Sprintf("%v %q %q", p.Source, b, p.Base))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if g := strings.Join(got, "\n"); g != c.want {
			t.Errorf("Content-Location %q (resolver %v):\n%s\nwant:\n%s", c.loc, c.resolve != nil, g, c.want)
		}
	}
}
