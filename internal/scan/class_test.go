package scan

import (
	"strings"
	"testing"
)

// BadAt's table of ASCII bytes is the rule of behaviour §1: whitespace and
// controls, DEL and <>"`{}|\^ end a URI whatever the context; every other
// ASCII byte may stand in one.
func TestBadAtASCII(t *testing.T) {
	for c := 0; c < 0x80; c++ {
		want := -1
		if c <= ' ' || c == 0x7F || strings.IndexByte("<>\"`{}|\\^", byte(c)) >= 0 {
			want = 1
		}
		if got := BadAt("a" + string(rune(c)) + "b"); got != want {
			t.Errorf("BadAt(%q) = %d, want %d", "a"+string(rune(c))+"b", got, want)
		}
	}
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", -1},
		{"http://example.com/a\u00a0b", 20},
		{"http://example.com/\xff", 19},
		{"http://example.com/é", -1},
	} {
		if got := BadAt(c.s); got != c.want {
			t.Errorf("BadAt(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}
