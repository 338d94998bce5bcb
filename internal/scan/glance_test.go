package scan

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestNoAuthoritySchemes keeps isNoAuthorityScheme (a string switch, on the
// hot path) in step with noAuthoritySchemes, from which the glance of
// indexColonGlance is built: each 3- and 4-letter name it accepts is in the
// list, and each name of the list, in either case, is accepted and passes
// the glance.
func TestNoAuthoritySchemes(t *testing.T) {
	listed := map[string]bool{}
	for _, name := range noAuthoritySchemes {
		listed[name] = true
		for _, n := range []string{name, strings.ToUpper(name)} {
			if !isNoAuthorityScheme([]byte(n)) {
				t.Errorf("isNoAuthorityScheme(%q) = false", n)
			}
			in := "See " + n + ":x later"
			if got := indexColonGlance([]byte(in), 0); got != 4+len(n) {
				t.Errorf("indexColonGlance(%q) = %d, want %d", in, got, 4+len(n))
			}
		}
	}
	var name [4]byte
	for n := 3; n <= 4; n++ {
		for k := 0; k < pow(26, n); k++ {
			for i, v := 0, k; i < n; i, v = i+1, v/26 {
				name[i] = byte('a' + v%26)
			}
			if isNoAuthorityScheme(name[:n]) != listed[string(name[:n])] {
				t.Errorf("isNoAuthorityScheme(%q) = %v, noAuthoritySchemes says %v", name[:n], !listed[string(name[:n])], listed[string(name[:n])])
			}
		}
	}
}

func pow(b, n int) int {
	p := 1
	for ; n > 0; n-- {
		p *= b
	}
	return p
}

// TestColonGlance: which ':' indexColonGlance passes to tryScheme with the
// default schemes; the mark '^' stands before each ':' it returns.
func TestColonGlance(t *testing.T) {
	for _, in := range []string{
		"Note: this, at 10:30. Closes: #1. Subject: Re: x. Fax-x: a",
		// "net" may end magnet: a few words pass that tryScheme turns down.
		"Ethernet^: a, in.net^: b",
		"see ^://a and http^://a/b, Mailto^:a@b, e.g.:x, URN^:a, smsnet^:x",
		"Files:\n  a.go\n\ttests: b.go\n",
		"<ma\n  ilto^:a@b> <URL:mai\n> lto^:a@b> <mail\n  to^:a@b> <mailt\n\to^:a@b> <mailt\r\no^:a@b> <mailto-x\n  to: a> <te\n\n  l: a> <te\n  l^: a> The\n  items: x",
		"<http^:\n  //a/b> case a < b: // c > d\n",
		"x^:",
	} {
		var b []byte
		var want []int
		for i := 0; i < len(in); i++ {
			if in[i] == '^' {
				want = append(want, len(b))
				continue
			}
			b = append(b, in[i])
		}
		var got []int
		for from := 0; ; {
			i := indexColonGlance(b, from)
			if i < 0 {
				break
			}
			got = append(got, i)
			from = i + 1
		}
		if !equalInts(got, want) {
			t.Errorf("%q: glance passes %v, want %v", b, got, want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGlancesChangeNothing: the glances that decide about a candidate
// before its full reading (a '@' with no dotted host label after it, a
// scheme with '<', '>' or a control character right after it, a '<'
// before any '>', an angle candidate with nothing to rejoin) give the
// same candidates as the full reading, over random mixes of the pieces
// they look at, read at once and split in two at every point.
func TestGlancesChangeNothing(t *testing.T) {
	// Each set mixes the pieces one glance looks at, so that they meet
	// often in a short input.
	sets := [][]string{
		// dottedLabel
		{"a", "b", "x.", ".", "@", "@@", "a@", "a@b", "com", ".com", "-", "é", "bé", "é.com", " ", "\n", "<", ">", "/"},
		// nothingAfter
		{"http://", "http:", "mailto:", "URL:", "<", ">", "\"", "(", "[", "a", "/", "//", " ", "\n", "\x01", "\x7f", "\t"},
		// noAngle
		{"<http://a", "<mailto:a@b.com", "<URL:http://a", "b", "-", ">", "> ", "<", "\n", "\r\n", " ", "。", "“", "é",
			"\u00a0", "\"", "\\", "{", "|", "\x01"},
		// all of them
		{"a", "b", "x.", ".", "@", "a@b", ".com", "-", "é", "\u00a0", "。", "<", ">", "\"", "(", ")", "[", "]", " ",
			"\n", "\r\n", "\t", "\x01", "\x7f", "http://", "http:", "//", "/", "mailto:", "URL:", "www.", "> ", "\\"},
	}
	rng := rand.New(rand.NewPCG(17, 1))
	configs := []Config{{Email: true, WWW: true}, {AnyScheme: true, Email: true}, {}}
	for _, pieces := range sets {
		for n := 0; n < 300; n++ {
			var sb strings.Builder
			for k := 1 + rng.IntN(16); k > 0; k-- {
				sb.WriteString(pieces[rng.IntN(len(pieces))])
			}
			in := sb.String()
			for _, cfg := range configs {
				noGlance = true
				want := candidatesInFull(strings.NewReader(in), cfg)
				noGlance = false
				for k := 0; k < len(in); k++ {
					r := io.MultiReader(strings.NewReader(in[:k]), strings.NewReader(in[k:]))
					if got := candidatesInFull(r, cfg); got != want {
						t.Fatalf("%q (%+v, split at %d):\nwith glances %q\nwithout      %q", in, cfg, k, got, want)
					}
				}
			}
		}
	}
}

// candidatesInFull lists each candidate of r with every field.
func candidatesInFull(r io.Reader, cfg Config) string {
	var sb strings.Builder
	s := New(r, cfg)
	for s.Scan() {
		c := s.Candidate()
		fmt.Fprintf(&sb, "%d %q %q %d-%d %d:%d %v %d %v\n",
			c.Kind, c.Text, c.Raw, c.Offset, c.End, c.Line, c.Column, c.Delim, c.Flags, c.Hyphens)
	}
	return sb.String()
}

// TestTrimEndFastPath: trimEnd's test of the last byte (cKeep) keeps
// only what the full reading keeps, for every last byte after every
// prefix of a few kinds.
func TestTrimEndFastPath(t *testing.T) {
	for _, prefix := range []string{"", "http://a/b", "http://a/(b", "http://a/b)", "x]", "é"} {
		for c := 0; c < 256; c++ {
			in := []byte(prefix + string([]byte{byte(c)}))
			if got, want := trimEnd(in), trimEndSlow(in); got != want {
				t.Errorf("trimEnd(%q) = %d, the full reading gives %d", in, got, want)
			}
		}
	}
}

// TestLtTrack: near, asked at increasing indexes (as indexColonGlance
// asks it, from any start), says whether a '<' stands within angleReach
// before each, and is never false where angleBefore is true.
func TestLtTrack(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 16))
	alphabet := []byte("ab<: \t\nURL:")
	for round := 0; round < 300; round++ {
		b := make([]byte, rng.IntN(3000))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(8) != 0 && b[i] == '<' {
				b[i] = 'x' // '<' rarer, so that windows without one occur
			}
		}
		lt := newLtTrack()
		for i := rng.IntN(400); i < len(b); i += 1 + rng.IntN(300) {
			lo := max(0, i-angleReach)
			want := bytes.LastIndexByte(b[lo:i], '<') >= 0
			if got := lt.near(b, i); got != want {
				t.Fatalf("round %d: near(%d) = %v, want %v", round, i, got, want)
			}
			if angleBefore(b, i) && !want {
				t.Fatalf("round %d: angleBefore(%d) with no '<' within angleReach", round, i)
			}
		}
	}
}
