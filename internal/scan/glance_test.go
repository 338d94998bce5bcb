package scan

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"testing/iotest"
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

// indexColonGlanceBack is indexColonGlance as revision 5 first wrote it
// (fa1d0f3): the '<' that may open a ':' looked for back from it, over
// the scheme run, at each ':' (angleBefore). indexColonGlance must pass
// the same ':' from any start in any b.
func indexColonGlanceBack(b []byte, from int) int {
	for {
		i := indexFrom(b, from, ':')
		if i < 0 {
			return -1
		}
		if i+2 >= len(b) || i < 3 || b[i+1] == '/' && b[i+2] == '/' {
			return i
		}
		if endsNoAuthorityScheme[b[i-1]] && (endsNoAuthorityName(b, i) ||
			(isSpaceByte(b[i-2]) || isSpaceByte(b[i-3])) && mayEndWrappedScheme(b, i)) {
			return i
		}
		if isSpaceByte(b[i+1]) && mayWrapAfter(b, i) && gapThenSlashes(b, i) {
			return i
		}
		if isSchemeByte(b[i-1]) && isSchemeByte(b[i-2]) && !(b[i-1]|0x20 == 'l' && b[i-2]|0x20 == 'r' && b[i-3]|0x20 == 'u') && angleBefore(b, i) {
			return i
		}
		from = i + 1
	}
}

// anglePieces make random text dense in the shapes angleBefore and
// angleTarget read: '<', whitespace of each kind and of maxGap bytes or
// one more, "URL:", scheme runs of maxSchemeRun+1 bytes or one more, ':'.
var anglePieces = []string{"<", "< ", "<http", "<URL:", "<im", "< URL: ", " ", "  ", "\t", "\n", "\r\n", "\v", "URL:", "url:", "Url", "URL", "http", "mailto",
	"im", "a", "x", "-", ".", "+", ":", "::", "//", ">", "> ", "<a@b.c>", "@", "\"", "(", "é", "\x00",
	strings.Repeat(" ", maxGap-1), strings.Repeat(" ", maxGap), strings.Repeat("\n", maxGap+1),
	strings.Repeat("a", maxSchemeRun), strings.Repeat("b", maxSchemeRun+1), strings.Repeat("c", maxSchemeRun+2)}

func randomAngleText(rng *rand.Rand, pieces []string, most int) []byte {
	var b []byte
	for k := 1 + rng.IntN(most); k > 0; k-- {
		b = append(b, pieces[rng.IntN(len(pieces))]...)
	}
	return b
}

// colonPieces make random text dense in the shapes the colon glance
// reads around a ':': the letters that end a no-authority scheme,
// whitespace of each kind, '/', "//", wrapped schemes.
var colonPieces = []string{":", ": ", ":\t", ":\n", ":\r\n", ": /", ":  x", ":\v", ":\f", "://", ":/", "10:30", "Note: x",
	"mailto:", "mail\n  to:a", "tel:", "Tel:", "sip:", "x", "a", "d", "t", "O", "S", "é", "\x80", "http:", "http:\n  //a",
	"<", ">", "<a@b>", "URL:", " ", "\t", "\n", "/", "//", "s:s:s:", "urn:x"}

// TestColonGlanceForward: indexColonGlance, which meets each '<' on its
// way and passes over the ':' its neighbours turn down, passes the ':'
// that the look back of revision 5 passes, from every start, in random
// text and in each of its prefixes (the buffer ends anywhere, as reads
// split the input).
func TestColonGlanceForward(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 18))
	for round := 0; round < 6000; round++ {
		pieces := anglePieces
		if round%2 == 1 {
			pieces = colonPieces
		}
		full := randomAngleText(rng, pieces, 40)
		for _, n := range []int{len(full), rng.IntN(len(full) + 1), rng.IntN(len(full) + 1)} {
			b := full[:n]
			for from := 0; from <= len(b); from++ {
				if got, want := indexColonGlance(b, from), indexColonGlanceBack(b, from); got != want {
					t.Fatalf("%q from %d: indexColonGlance %d, the look back %d", b, from, got, want)
				}
			}
		}
	}
}

// TestIndexColonOpenLt: the vector search and the generic one find the
// first ':' and the last '<' before it that no '>' closes, at every
// length and start of random bytes where they are rare, common or absent;
// the vector search passes over only ':' that colonSkipped says it may,
// and none while a '<' is open before from.
func TestIndexColonOpenLt(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 19))
	passed := 0
	defer func() {
		if colonLtVector && passed < 10000 {
			t.Errorf("the vector search passed over %d ':' only: the test tests little", passed)
		}
	}()
	special := []byte(":<>/ \t\n\r\v\fxsOT5")
	for round := 0; round < 3000; round++ {
		b := make([]byte, rng.IntN(300))
		odds := 1 + rng.IntN(12)
		for i := range b {
			if rng.IntN(odds) == 0 {
				b[i] = special[rng.IntN(len(special))]
			} else if b[i] = byte(rng.IntN(256)); b[i] == ':' || b[i] == '<' || b[i] == '>' {
				b[i] = 'x'
			}
		}
		for from := 0; from <= len(b); from++ {
			want := func(end int) (int, int) {
				colon, lt := -1, -1
				for j := from; j < end; j++ {
					switch b[j] {
					case '<':
						lt = j
					case '>':
						lt = -1
					case ':':
						if colon < 0 {
							return j, lt
						}
					}
				}
				return colon, lt
			}
			wantColon, wantLt := want(len(b))
			if colon, lt := indexColonOpenLtAt(b, from); colon != wantColon || lt != wantLt {
				t.Fatalf("indexColonOpenLtAt(%q, %d) = %d, %d, want %d, %d", b, from, colon, lt, wantColon, wantLt)
			}
			if !colonLtVector || len(b)-from < 32 {
				continue
			}
			if colon, lt := indexColonSkipAVX2(b, from, true); colon != wantColon || lt != wantLt {
				t.Fatalf("indexColonSkipAVX2(%q, %d, open) = %d, %d, want %d, %d", b, from, colon, lt, wantColon, wantLt)
			}
			colon, lt := indexColonSkipAVX2(b, from, false)
			end := colon
			if end < 0 {
				end = len(b)
			}
			for j := from; j < end; j++ {
				if b[j] == ':' {
					passed++
					if open := openLt(b, from, j); open >= 0 || !colonSkipped(b, j) {
						t.Fatalf("indexColonSkipAVX2(%q, %d) passed over the ':' at %d (open '<' %d)", b, from, j, open)
					}
				}
			}
			if colon >= 0 && b[colon] != ':' {
				t.Fatalf("indexColonSkipAVX2(%q, %d) = %d, not a ':'", b, from, colon)
			}
			wantLt = openLt(b, from, end)
			if lt != wantLt {
				t.Fatalf("indexColonSkipAVX2(%q, %d) = %d, %d, want the '<' %d", b, from, colon, lt, wantLt)
			}
		}
	}
}

// openLt is the last '<' of b[from:to] that no '>' follows, or -1.
func openLt(b []byte, from, to int) int {
	lt := -1
	for j := from; j < to; j++ {
		switch b[j] {
		case '<':
			lt = j
		case '>':
			lt = -1
		}
	}
	return lt
}

// colonSkipped tells whether indexColonSkipAVX2 may pass over the ':' at
// i, its tables read a byte at a time: the tests of indexColonGlance turn
// it down whatever stands before b[i-1] and after b[i+2] (with no '<'
// open).
func colonSkipped(b []byte, i int) bool {
	if i < 3 || i+2 >= len(b) {
		return false
	}
	in := func(lo, hi int, c byte) byte { return colonSkip[lo][c&15] & colonSkip[hi][c>>4] }
	before, after, after2 := in(1, 2, b[i-1]), in(3, 4, b[i+1]), in(3, 4, b[i+2])
	return before == 0 && (after&colonSkip[5][0] == 0 || after&colonSkip[6][0] != 0 && after2&colonSkip[7][0] == 0)
}

// TestColonSkipTables: the classes that colonSkip's tables give each
// byte are the glance's own.
func TestColonSkipTables(t *testing.T) {
	in := func(lo, hi int, c byte) byte { return colonSkip[lo][c&15] & colonSkip[hi][c>>4] }
	for c := 0; c < 256; c++ {
		b := byte(c)
		if got := in(1, 2, b) != 0; got != endsNoAuthorityScheme[b] {
			t.Errorf("%q: ends a name %v, endsNoAuthorityScheme %v", b, got, endsNoAuthorityScheme[b])
		}
		after := in(3, 4, b)
		for _, class := range []struct {
			bits byte
			in   bool
		}{{colonSkip[6][0], colonSkipBlank(b)}, {colonSkip[5][0] &^ colonSkip[6][0], colonSkipStop(b)}, {colonSkip[7][0], colonSkipWrap(b)}} {
			if got := after&class.bits != 0; got != class.in {
				t.Errorf("%q: class %08b %v, want %v", b, class.bits, got, class.in)
			}
		}
	}
}

// TestAngleGlanceCandidates: the scanner finds the same candidates with
// indexColonGlance as with the look back of revision 5, in random text
// dense in angle shapes around URIs, read whole, split in two at every
// point, a byte at a time and by halves (testing/iotest).
func TestAngleGlanceCandidates(t *testing.T) {
	pieces := append([]string{"http://a.b/c", "mailto:a@b.com", "urn:x:y", "im:a@b", "foo+bar:x", "//a", "/", "\n  "}, anglePieces...)
	rng := rand.New(rand.NewPCG(35, 20))
	for round := 0; round < 400; round++ {
		in := string(randomAngleText(rng, pieces, 16))
		for _, cfg := range []Config{{}, {Email: true, WWW: true}} {
			colonGlance = indexColonGlanceBack
			want := candidatesInFull(strings.NewReader(in), cfg)
			colonGlance = indexColonGlance
			readers := []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)),
				iotest.HalfReader(strings.NewReader(in)), iotest.DataErrReader(strings.NewReader(in))}
			for k := 0; k < len(in); k++ {
				readers = append(readers, io.MultiReader(strings.NewReader(in[:k]), strings.NewReader(in[k:])))
			}
			for n, r := range readers {
				if got := candidatesInFull(r, cfg); got != want {
					t.Fatalf("%q (%+v, reader %d):\nforward glance %q\nlook back      %q", in, cfg, n, got, want)
				}
			}
		}
	}
}

// BenchmarkColonGlance: the colon glance alone over the file named by
// $URIX_BENCH_FILE (or prose), a buffer of readSize bytes at a time, from
// each ':' it passes to the next, as the scanner asks it: the forward glance of revision 5 (indexColonGlance),
// the look back it replaced (back), and the glance without revision 5's
// test of <scheme: at all (none, what dd697fe ran), for the cost of that test.
func BenchmarkColonGlance(b *testing.B) {
	var src []byte
	if name := os.Getenv("URIX_BENCH_FILE"); name != "" {
		var err error
		if src, err = os.ReadFile(name); err != nil {
			b.Fatal(err)
		}
	} else {
		src = prose(benchSize)
	}
	for _, g := range []struct {
		name   string
		glance func([]byte, int) int
	}{{"forward", indexColonGlance}, {"back", indexColonGlanceBack}, {"none", indexColonGlanceNoAngle}} {
		b.Run(g.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			buf := make([]byte, readSize)
			n := 0
			cpu0 := cpuTime()
			for b.Loop() {
				// A buffer's worth at a time, copied first, as the
				// scanner reads: the glance reads from the cache.
				for off := 0; off < len(src); off += len(buf) {
					c := buf[:copy(buf, src[off:])]
					for i := g.glance(c, 0); i >= 0; i = g.glance(c, i+1) {
						n++
					}
				}
			}
			// The CPU time too: on the shared machine the wall time
			// of a run varies by ±20 %.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(n)/float64(b.N), "colons/op")
		})
	}
}

// indexColonGlanceNoAngle is indexColonGlance without the test of
// <scheme: (revision 5): the glance of dd697fe, a floor for its cost.
func indexColonGlanceNoAngle(b []byte, from int) int {
	for {
		i := indexFrom(b, from, ':')
		if i < 0 {
			return -1
		}
		if i+2 >= len(b) || i < 3 || b[i+1] == '/' && b[i+2] == '/' {
			return i
		}
		if endsNoAuthorityScheme[b[i-1]] && (endsNoAuthorityName(b, i) ||
			(isSpaceByte(b[i-2]) || isSpaceByte(b[i-3])) && mayEndWrappedScheme(b, i)) {
			return i
		}
		if isSpaceByte(b[i+1]) && mayWrapAfter(b, i) && gapThenSlashes(b, i) {
			return i
		}
		from = i + 1
	}
}

// FuzzColonGlance: indexColonGlance (its vector search, the ':' it passes
// over, the '<' it keeps) passes the ':' that the look back of revision 5
// passes, from every start of any input.
func FuzzColonGlance(f *testing.F) {
	for _, s := range []string{"<http://a> x:y", "Note: 10:30 <URL: mailto:a@b>", "<a@b.c> urn:x", strings.Repeat("a:", 40),
		"x:\t/ y: //z <im:a> <URL:URL:x:", strings.Repeat("<x> b:c ", 10) + "< \n tel:1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for from := 0; from <= len(b); from++ {
			if got, want := indexColonGlance(b, from), indexColonGlanceBack(b, from); got != want {
				t.Fatalf("%q from %d: indexColonGlance %d, the look back %d", b, from, got, want)
			}
		}
	})
}
