package scan

import (
	"fmt"
	"strings"
	"testing"
)

func collectAll(s *Scanner) string {
	var b strings.Builder
	for s.Scan() {
		c := s.Candidate()
		fmt.Fprintf(&b, "%q@%d-%d:%d:%d %v %v|", c.Text, c.Offset, c.End, c.Line, c.Column, c.Delim, c.Flags)
	}
	return b.String()
}

// A Scanner Reset onto new input reads it as a new Scanner does, whatever
// the input before left in its buffers, memos and caches.
func TestResetAsNew(t *testing.T) {
	inputs := []string{
		"> see <http://example.com/a/\n> b/c> and <http://x <http://y",
		"http://a/" + strings.Repeat("x", 70000) + " http://b/",
		"plain http://a.example/ (http://b.example/c) \"http://q/\n  r\"",
		"",
		"www.example.com user@example.com <http://h/some-\nthing>",
	}
	cfg := Config{MaxLength: 1000, WWW: true, Email: true}
	reused := New(strings.NewReader(""), cfg)
	for round := 0; round < 2; round++ {
		for i, in := range inputs {
			want := collectAll(New(strings.NewReader(in), cfg))
			reused.Reset(strings.NewReader(in))
			if got := collectAll(reused); got != want {
				t.Errorf("round %d, input %d: after Reset\n got %s\nwant %s", round, i, got, want)
			}
		}
	}
}
