package main

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// appendString's output is a JSON string that decodes to its input, each
// invalid byte read as U+FFFD, whatever the bytes.
func TestAppendString(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "/", "%", "\"", "\\", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "\xff", "\xe2\x80", "é", "例", "\u2028", "\u2029", "<", "&"}
	cases := []string{"", "http://a/b?c=d#e", `"\`, "\u2028x\u2029"}
	for range 2000 {
		var sb strings.Builder
		for n := rng.IntN(20); n > 0; n-- {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, sb.String())
	}
	for _, s := range cases {
		out := appendString(nil, s)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("appendString(%q) = %s: not JSON: %v", s, out, err)
		}
		var want strings.Builder
		for _, r := range s {
			want.WriteRune(r)
		}
		if got != want.String() {
			t.Fatalf("appendString(%q) = %s, decodes to %q; want %q", s, out, got, want.String())
		}
		for _, c := range []string{"\u2028", "\u2029", "\x7f"} {
			if strings.Contains(string(out), c) {
				t.Fatalf("appendString(%q) = %s: %q left unescaped", s, out, c)
			}
		}
	}
}
