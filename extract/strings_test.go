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
	in := everyStringForm()
	inputs := []string{in, strings.ReplaceAll(in, "http://a/", "ftp://q/")}
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

// everyStringForm is 1,500 lines of URIs whose strings are made in each
// way the scanner makes them: a bare host or address, a normal form made
// apart or not, the form without hyphens, one too long for a chunk, an
// invalid one.
func everyStringForm() string {
	var sb strings.Builder
	long := strings.Repeat("x", strOwn)
	for i := range 1500 {
		fmt.Fprintf(&sb, "http://a/%d www.h%d.com a%d@b.com HTTP://A.COM/%d/./c <http://x/y%d-\nz> ", i, i, i, i, i)
		fmt.Fprintf(&sb, "http://a/b|%d www.W%d.com http://l/%s%d\n", i, i, long, i)
	}
	return sb.String()
}

func matchStrings(m *Match) string {
	reason := ""
	if m.Err != nil {
		reason = m.Err.Error()
	}
	return strings.Join([]string{m.URI, m.Normalized, m.Alt, reason}, "\x00")
}

// With ReuseStrings the strings of each match are what they are without
// it, at the time Scan gives it, and they all live in one chunk: the
// scanner allocates next to nothing per match (without it, a chunk of
// 4 KiB every hundred or so).
func TestReuseStrings(t *testing.T) {
	in := everyStringForm()
	for _, opts := range []Options{
		{WWW: true, Email: true, Hyphen: HyphenBoth},
		{WWW: true, Email: true, Hyphen: HyphenDrop, ASCII: true},
		{WWW: true, Email: true, Hyphen: HyphenBoth, Unique: true}, // ignored
	} {
		var want []string
		for s := NewScanner(strings.NewReader(in), opts); s.Scan(); {
			want = append(want, strings.Clone(matchStrings(s.Match())))
		}
		reuse := opts
		reuse.ReuseStrings = true
		i := 0
		for s := NewScanner(strings.NewReader(in), reuse); s.Scan(); i++ {
			if i >= len(want) {
				t.Fatalf("%+v: more matches with ReuseStrings than the %d without", opts, len(want))
			}
			if got := matchStrings(s.Match()); got != want[i] {
				t.Fatalf("%+v: match %d is %q with ReuseStrings, %q without", opts, i, got, want[i])
			}
		}
		if i != len(want) {
			t.Fatalf("%+v: %d matches with ReuseStrings, %d without", opts, i, len(want))
		}
	}

	// Allocations: short URIs only (a long one has its own string).
	short := strings.Repeat("see http://example.com/some/path/page.html and www.example.org/x.\n", 2000)
	allocs := func(reuse bool) float64 {
		s := NewScanner(strings.NewReader(short), Options{WWW: true, ReuseStrings: reuse})
		return testing.AllocsPerRun(3, func() {
			s.Reset(strings.NewReader(short))
			for s.Scan() {
			}
		})
	}
	kept, reused := allocs(false), allocs(true)
	if kept < 20 || reused > 2 {
		t.Errorf("allocations for 4,000 matches: %.0f keeping the strings (want 20 or more), %.0f reusing them (want 2 or fewer)", kept, reused)
	}
}
