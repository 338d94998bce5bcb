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
