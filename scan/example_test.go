package scan_test

import (
	"fmt"
	"strings"

	"github.com/urix-dev/urix/scan"
)

// The candidates of a text as a reader delimits them: the angle brackets
// and "URL:" left out, the line break inside <...> rejoined, the sentence's
// full stop trimmed. Validation is package extract's.
func Example() {
	text := "See <URL:http://example.com/a/\n  b> or http://example.org/x.\n"
	s := scan.New(strings.NewReader(text), scan.Config{})
	for s.Scan() {
		c := s.Candidate()
		fmt.Printf("%s line %d %s [%d,%d)\n", c.Text, c.Line, c.Delim, c.Offset, c.End)
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// http://example.com/a/b line 1 angle [9,34)
	// http://example.org/x line 2 none [39,59)
}

// held is a text held whole in memory: as an InPlaceReader, it is
// scanned where it lies, never read into the scanner's buffer.
type held struct {
	*strings.Reader
	b []byte
}

func (h held) InPlace() []byte { return h.b[len(h.b)-h.Len():] }

// A message body already in memory, scanned without a copy: the
// candidates are those a stream of the same bytes gives, and their Raw
// bytes are slices of the body itself.
func ExampleInPlaceReader() {
	body := []byte("Patches: <http://example.com/p/1-\n  2>, see also www.example.org.\n")
	s := scan.New(held{strings.NewReader(string(body)), body}, scan.Config{WWW: true})
	for s.Scan() {
		c := s.Candidate()
		fmt.Printf("%s %q in place: %v\n", c.Text, c.Raw, &c.Raw[0] == &body[c.Offset])
	}
	// Output:
	// http://example.com/p/1-2 "http://example.com/p/1-\n  2" in place: true
	// www.example.org "www.example.org" in place: true
}
