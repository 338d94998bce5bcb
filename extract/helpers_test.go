package extract

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urix-dev/urix/internal/scan"
)

// got is a Match with its Raw copied, so that it outlives the next Scan.
type got struct {
	URI, Norm, Raw, Alt string
	Offset, End         int64
	Line, Column        int64
	Delim               Delimiter
	Flags               Flags
	Valid               bool
	Reason              string
}

func (g got) String() string {
	s := fmt.Sprintf("%q raw=%q @%d-%d %d:%d %v %v valid=%v", g.URI, g.Raw, g.Offset, g.End, g.Line, g.Column, g.Delim, g.Flags.Names(), g.Valid)
	if g.Alt != "" {
		s += fmt.Sprintf(" alt=%q", g.Alt)
	}
	if g.Reason != "" {
		s += " reason=" + g.Reason
	}
	return s
}

// collect runs extraction over r and returns every match (valid or not),
// with the skips reported to OnSkip, and the read error.
func collect(r io.Reader, opts Options) (ms []got, skips []Skip, err error) {
	opts.OnSkip = func(sk Skip) { skips = append(skips, sk) }
	s := NewScanner(r, opts)
	for s.Scan() {
		ms = append(ms, gotOf(s.Match()))
	}
	return ms, skips, s.Err()
}

func gotOf(m *Match) got {
	// Copies: under Options.ReuseStrings the next Scan writes over them.
	g := got{
		URI: strings.Clone(m.URI), Norm: strings.Clone(m.Normalized), Raw: string(m.Raw), Alt: strings.Clone(m.Alt),
		Offset: m.Offset, End: m.End, Line: m.Line, Column: m.Column,
		Delim: m.Delimiter, Flags: m.Flags, Valid: m.Valid,
	}
	if m.Err != nil {
		g.Reason = m.Err.Error()
	}
	return g
}

// collectBefore runs extraction over r with ScanBefore at each limit in
// turn, then Scan, as a reader of a split file does. It fails the test if
// a URI that starts before a limit comes after ScanBefore stopped there.
func collectBefore(t *testing.T, r io.Reader, opts Options, limits ...int64) (ms []got, skips []Skip, err error) {
	t.Helper()
	opts.OnSkip = func(sk Skip) { skips = append(skips, sk) }
	s := NewScanner(r, opts)
	for _, limit := range limits {
		for s.scanBefore(limit) {
			ms = append(ms, gotOf(s.Match()))
		}
		if s.Scan() {
			if m := s.Match(); m.Offset < limit {
				t.Fatalf("ScanBefore(%d) stopped, and then came %s", limit, gotOf(m))
			}
			ms = append(ms, gotOf(s.Match()))
		}
	}
	for s.Scan() {
		ms = append(ms, gotOf(s.Match()))
	}
	return ms, skips, s.Err()
}

func collectString(in string, opts Options) []got {
	ms, _, err := collect(strings.NewReader(in), opts)
	if err != nil {
		panic(err)
	}
	return ms
}

// splitReader returns its input in two reads split at k.
type splitReader struct {
	b []byte
	k int
	n int
}

func (r *splitReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	lim := len(r.b)
	if r.n == 0 && r.k < lim {
		lim = r.k
	}
	r.n++
	m := copy(p, r.b[:lim])
	r.b = r.b[m:]
	return m, nil
}

// chunkReader returns its input in reads of random sizes (some of them
// empty), seeded so failures reproduce.
type chunkReader struct {
	b   []byte
	rnd *rand.Rand
	max int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := r.rnd.IntN(r.max + 1)
	n = min(n, len(p), len(r.b))
	m := copy(p, r.b[:n])
	r.b = r.b[m:]
	return m, nil
}

// eofReader returns data and io.EOF together on its last read.
type eofReader struct{ b []byte }

func (r *eofReader) Read(p []byte) (int, error) {
	m := copy(p, r.b)
	r.b = r.b[m:]
	if len(r.b) == 0 {
		return m, io.EOF
	}
	return m, nil
}

// readers gives the input through every reader shape the tests compare.
func readers(in []byte, seed uint64) map[string]func() io.Reader {
	return map[string]func() io.Reader{
		"onebyte":  func() io.Reader { return iotest.OneByteReader(bytes.NewReader(in)) },
		"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(in)) },
		"dataerr":  func() io.Reader { return iotest.DataErrReader(bytes.NewReader(in)) },
		"eof":      func() io.Reader { return &eofReader{b: in} },
		"random3":  func() io.Reader { return &chunkReader{b: in, rnd: rand.New(rand.NewPCG(seed, 3)), max: 3} },
		"random17": func() io.Reader { return &chunkReader{b: in, rnd: rand.New(rand.NewPCG(seed, 17)), max: 17} },
		"random4k": func() io.Reader { return &chunkReader{b: in, rnd: rand.New(rand.NewPCG(seed, 4096)), max: 4096} },
	}
}

func sameMatches(a, b []got) bool {
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

func dump(ms []got) string {
	var sb strings.Builder
	for _, m := range ms {
		sb.WriteString("\n\t")
		sb.WriteString(m.String())
	}
	return sb.String()
}

// checkSplits checks that in gives the same matches however it is read:
// through each reader of readers, and split in two at every k when
// everySplit is set.
func checkSplits(t *testing.T, in []byte, opts Options, everySplit bool) {
	t.Helper()
	want, wantSkips, err := collect(bytes.NewReader(in), opts)
	if err != nil {
		t.Fatalf("one-shot read: %v", err)
	}
	for name, mk := range readers(in, uint64(len(in))) {
		ms, skips, err := collect(mk(), opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !sameMatches(ms, want) || fmt.Sprint(skips) != fmt.Sprint(wantSkips) {
			t.Fatalf("%s reader differs on %q:\ngot:%s\nskips %v\nwant:%s\nskips %v", name, in, dump(ms), skips, dump(want), wantSkips)
		}
	}
	if !everySplit {
		return
	}
	for k := 1; k < len(in); k++ {
		ms, skips, err := collect(&splitReader{b: in, k: k}, opts)
		if err != nil {
			t.Fatalf("split %d: %v", k, err)
		}
		if !sameMatches(ms, want) || fmt.Sprint(skips) != fmt.Sprint(wantSkips) {
			t.Fatalf("split at %d differs on %q:\ngot:%s\nwant:%s", k, in, dump(ms), dump(want))
		}
	}
	checkScanBefore(t, in, opts)
}

// checkScanBefore checks that ScanBefore, at limits all over the input
// set in filler longer than the scanner's look-back (so that ScanBefore
// does stop early), then Scan, find what Scan alone finds.
func checkScanBefore(t *testing.T, in []byte, opts Options) {
	t.Helper()
	filler := strings.Repeat("word: 10:30 see http://f.example/x and more\n", 14)
	padded := []byte(filler + string(in) + "\n" + filler + string(in))
	want, wantSkips, err := collect(bytes.NewReader(padded), opts)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k <= len(padded); k += 7 {
		ms, skips, err := collectBefore(t, iotest.HalfReader(bytes.NewReader(padded)), opts, int64(k), int64(k+len(in)))
		if err != nil {
			t.Fatalf("ScanBefore(%d): %v", k, err)
		}
		if !sameMatches(ms, want) || fmt.Sprint(skips) != fmt.Sprint(wantSkips) {
			t.Fatalf("ScanBefore(%d), ScanBefore(%d), Scan differ on %q:\ngot:%s\nwant:%s", k, k+len(in), padded, dump(ms), dump(want))
		}
		if k > 0 {
			checkQuietJoin(t, padded, opts, int64(k), int64(max(0, k-1-k*31%700)))
		}
	}
}

// parseMarkup reads the |uri| markup of a test input: it returns the input
// without the bars and the [start, end) of each marked span.
func parseMarkup(t *testing.T, marked string) (string, [][2]int64) {
	t.Helper()
	var sb strings.Builder
	var spans [][2]int64
	open := int64(-1)
	for i := 0; i < len(marked); i++ {
		c := marked[i]
		if c == '\\' && i+1 < len(marked) && marked[i+1] == '|' {
			sb.WriteByte('|')
			i++
			continue
		}
		if c != '|' {
			sb.WriteByte(c)
			continue
		}
		if open < 0 {
			open = int64(sb.Len())
		} else {
			spans = append(spans, [2]int64{open, int64(sb.Len())})
			open = -1
		}
	}
	if open >= 0 {
		t.Fatalf("unbalanced | in %q", marked)
	}
	return sb.String(), spans
}

// checkQuietJoin checks the join of a file split between two scanners
// that the CLI's -j makes where they share no URI: one scanner reads data
// up to limit, another from base (before limit, mid-line with the right
// quote depth when base is mid-line) on; when both are quiet past limit,
// the first one's URIs before it stopped and the second one's after
// it stopped are those of one scanner. It returns whether both were.
func checkQuietJoin(t *testing.T, data []byte, opts Options, limit, base int64) bool {
	t.Helper()
	opts.NoLines = true
	want, wantSkips, err := collect(bytes.NewReader(data), opts)
	if err != nil {
		t.Fatal(err)
	}
	var skips []Skip
	opts.OnSkip = func(sk Skip) { skips = append(skips, sk) }
	var ms []got
	first := NewScanner(iotest.HalfReader(bytes.NewReader(data)), opts)
	for first.scanBefore(limit) {
		ms = append(ms, gotOf(first.Match()))
	}
	if !first.quietPast(limit) {
		return false
	}
	midLine, depth := false, 0
	if ls := int64(bytes.LastIndexByte(data[:base], '\n') + 1); ls < base {
		midLine, depth = true, scan.QuoteDepth(data[ls:])
	}
	var secondSkips []Skip
	opts.OnSkip = func(sk Skip) {
		sk.Offset += base
		sk.End += base
		secondSkips = append(secondSkips, sk)
	}
	second := newScannerAt(bytes.NewReader(data[base:]), opts, midLine, depth)
	for second.scanBefore(limit - base) {
	}
	if !second.quietPast(limit - base) {
		return false
	}
	secondSkips = nil
	for second.Scan() {
		g := gotOf(second.Match())
		g.Offset += base
		g.End += base
		ms = append(ms, g)
	}
	skips = append(skips, secondSkips...)
	if !sameMatches(ms, want) || fmt.Sprint(skips) != fmt.Sprint(wantSkips) {
		t.Fatalf("joined quiet at %d (second from %d) on %q:\ngot:%s\nskips %v\nwant:%s\nskips %v",
			limit, base, data, dump(ms), skips, dump(want), wantSkips)
	}
	return true
}
