package extract_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/urix-dev/urix/extract"
)

// formatter prints each valid URI after its line number.
type formatter struct{}

func (formatter) Selects(m *extract.Match) bool { return m.Valid }

func (formatter) AppendMatch(b []byte, m *extract.Match) ([]byte, int) {
	posAt := len(b) // the line number goes first
	b = append(b, m.URI...)
	return append(b, '\n'), posAt
}

func (formatter) AppendPosition(b []byte, line, _ int64) []byte {
	return fmt.Appendf(b, "%d: ", line)
}

// A text read by three workers in chunks of 64 bytes: a URI broken across
// lines inside <...> runs over a chunk boundary, and is found whole.
func ExampleSplit() {
	text := strings.Repeat("Nothing to see on this line, nor on the next one.\n", 2) +
		"See <http://example.com/a/long/\n     path/to/a/page.html> for more,\n" +
		"and (http://example.org/b).\n"
	s := extract.Split{Workers: 3, ChunkSize: 64, Format: formatter{}}
	n, err := s.Read(os.Stdout, strings.NewReader(text), int64(len(text)))
	fmt.Println(n.Found, err)
	// Output:
	// 3: http://example.com/a/long/path/to/a/page.html
	// 5: http://example.org/b
	// 2 <nil>
}
