package extract

import (
	"fmt"
	"strings"
	"testing"
)

// The strings of a match are made into chunks that later matches share
// (Scanner.strs): a match kept stays as it was when Scan gave it, after
// any number of Scans and a Reset, whatever form made its strings (a bare
// host or address, a normal form made apart or not, the form without
// hyphens, one too long for a chunk, an invalid one).
func TestMatchStringsKept(t *testing.T) {
	var sb strings.Builder
	long := strings.Repeat("x", strOwn)
	for i := range 1500 {
		fmt.Fprintf(&sb, "http://a/%d www.h%d.com a%d@b.com HTTP://A.COM/%d/./c <http://x/y%d-\nz> ", i, i, i, i, i)
		fmt.Fprintf(&sb, "http://a/b|%d www.W%d.com http://l/%s%d\n", i, i, long, i)
	}
	inputs := []string{sb.String(), strings.ReplaceAll(sb.String(), "http://a/", "ftp://q/")}
	for _, opts := range []Options{
		{WWW: true, Email: true, Hyphen: HyphenBoth},
		{WWW: true, Email: true, Hyphen: HyphenDrop, Unique: true},
	} {
		s := NewScanner(strings.NewReader(""), opts)
		var kept []*Match
		var want []string
		for _, in := range inputs {
			s.Reset(strings.NewReader(in))
			for s.Scan() {
				m := *s.Match()
				kept = append(kept, &m)
				want = append(want, strings.Clone(matchStrings(&m)))
			}
		}
		if len(kept) < 10000 {
			t.Fatalf("%+v: %d matches, want more than 10000", opts, len(kept))
		}
		for i, m := range kept {
			if got := matchStrings(m); got != want[i] {
				t.Fatalf("%+v: match %d is now %q, was %q", opts, i, got, want[i])
			}
		}
	}
}

func matchStrings(m *Match) string {
	reason := ""
	if m.Err != nil {
		reason = m.Err.Error()
	}
	return strings.Join([]string{m.URI, m.Normalized, m.Alt, reason}, "\x00")
}
