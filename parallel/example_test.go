package parallel_test

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/parallel"
)

// Three texts read at once, their URIs printed in the texts' order.
func ExampleOrdered() {
	texts := []string{
		"first: http://a.example/1 and http://a.example/2",
		"second: <http://b.example/1>",
		"third: (see http://c.example/1).",
	}
	out := parallel.NewOrdered(os.Stdout)
	var wg sync.WaitGroup
	for i, text := range texts {
		wg.Go(func() {
			w := out.Writer(i)
			for m, err := range extract.All(strings.NewReader(text), extract.Options{}) {
				if err == nil {
					fmt.Fprintln(w, m.URI)
				}
			}
			out.Done(i)
		})
	}
	wg.Wait()
	// Output:
	// http://a.example/1
	// http://a.example/2
	// http://b.example/1
	// http://c.example/1
}

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
	s := parallel.Split{Workers: 3, ChunkSize: 64, Format: formatter{}}
	n, err := s.Read(os.Stdout, strings.NewReader(text), int64(len(text)))
	fmt.Println(n.Found, err)
	// Output:
	// 3: http://example.com/a/long/path/to/a/page.html
	// 5: http://example.org/b
	// 2 <nil>
}
