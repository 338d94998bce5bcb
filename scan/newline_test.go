package scan

import (
	"bytes"
	"strings"
	"testing"
)

func TestLastNewline(t *testing.T) {
	for _, s := range []string{
		"", "a", "\n", "a\n", "\na", "a\nb\nc",
		strings.Repeat("x", 1000) + "\n" + strings.Repeat("y", 1000),
		"\n" + strings.Repeat("y", 300),
		strings.Repeat("a\n", 500) + strings.Repeat("z", 257),
		strings.Repeat("z", 300) + "\n" + strings.Repeat("z", 255),
	} {
		if got, want := lastNewline([]byte(s)), bytes.LastIndexByte([]byte(s), '\n'); got != want {
			t.Errorf("lastNewline(%d bytes) = %d, want %d", len(s), got, want)
		}
	}
}
