package scan

import (
	"fmt"
	"io"
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

// resetInputs are texts that leave something in a Scanner's buffers,
// memos and caches.
var resetInputs = []string{
	"> see <http://example.com/a/\n> b/c> and <http://x <http://y",
	"http://a/" + strings.Repeat("x", 70000) + " http://b/",
	"plain http://a.example/ (http://b.example/c) \"http://q/\n  r\"",
	"",
	"www.example.com user@example.com <http://h/some-\nthing>",
	// The same offsets at quote depths 1 and 3 with the '>' elsewhere:
	// a memo of where an angle context stops must not outlive its input.
	"> <http://a/b http://c/d> e\n>>> <http://f/g http://h/i> j",
	"> <http://a/b http://c/d/e/f/g> e\n>>> <http://f/g http://h/i/j/k/l> j",
}

// A Scanner Reset onto new input reads it as a new Scanner does, whatever
// the input before left in its buffers, memos and caches.
func TestResetAsNew(t *testing.T) {
	inputs := resetInputs
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

func TestFirstLineBreakAndQuoteDepth(t *testing.T) {
	in := "text before <http://a/b> then\n>> quoted http://c/d\nplain http://e/f\n"
	s := New(strings.NewReader(in), Config{})
	var depths []int
	for s.Scan() {
		depths = append(depths, s.QuoteDepthAt(s.Candidate().Offset))
	}
	if got, want := fmt.Sprint(depths), "[0 2 0]"; got != want {
		t.Errorf("depths %s, want %s", got, want)
	}
	if got, want := s.FirstLineBreak(), int64(strings.IndexByte(in, '\n')); got != want {
		t.Errorf("FirstLineBreak = %d, want %d", got, want)
	}
	one := New(strings.NewReader("no line break http://x/"), Config{})
	for one.Scan() {
	}
	if got := one.FirstLineBreak(); got != -1 {
		t.Errorf("FirstLineBreak without one = %d", got)
	}
	mid := New(strings.NewReader("middle of a line <http://a/\n b>"), Config{StartsMidLine: true, StartQuoteDepth: 1})
	if !mid.Scan() || mid.QuoteDepthAt(mid.Candidate().Offset) != 1 {
		t.Error("StartQuoteDepth not used for the first line")
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ScanBefore stops soon after its limit, however far the next candidate
// is, and Scan then goes on: the CLI's readers of chunks of a large file
// read their chunk, not the rest of the file.
func TestScanBeforeReadsLittle(t *testing.T) {
	text := strings.Repeat("Note: no link on this line, 10:30.\n", 8<<20/35) + "<http://end.example/>"
	for _, cfg := range []Config{{}, {WWW: true, Email: true}, {AnyScheme: true}} {
		r := &countingReader{r: strings.NewReader(text)}
		s := New(r, cfg)
		const limit = 1 << 20
		if s.ScanBefore(limit) {
			t.Fatalf("%+v: ScanBefore found %q", cfg, s.Candidate().Text)
		}
		if most := int64(limit + lookback + s.maxBuffer()); r.n > most {
			t.Errorf("%+v: ScanBefore(%d) read %d bytes; want at most %d", cfg, limit, r.n, most)
		}
		if !s.Scan() || string(s.Candidate().Text) != "http://end.example/" {
			t.Fatalf("%+v: Scan after ScanBefore did not find the URI at the end", cfg)
		}
		if s.Scan() {
			t.Fatalf("%+v: more than one candidate", cfg)
		}
	}
}

// A Scanner ResetFrom onto new input, told where that input starts, reads
// it as a new Scanner with that Config does, whatever kind of start it was
// told before: split readers reuse one scanner for chunks of either kind.
func TestResetFromAsNew(t *testing.T) {
	inputs := []string{
		"middle of a line <http://a/\n> b> and http://c/\n",
		"> still quoted <http://q/\n> r/s>\nplain <http://t/\nu>",
		"http://a/" + strings.Repeat("x", 70000) + " http://b/",
	}
	starts := []struct {
		midLine bool
		depth   int
	}{{false, 0}, {true, 0}, {true, 1}, {false, 0}, {true, 2}, {true, 1}}
	cfg := Config{MaxLength: 1000}
	reused := New(strings.NewReader(""), cfg)
	outputs := map[string]bool{}
	for _, in := range inputs {
		for _, st := range starts {
			c := cfg
			c.StartsMidLine, c.StartQuoteDepth = st.midLine, st.depth
			want := collectAll(New(strings.NewReader(in), c))
			reused.ResetFrom(strings.NewReader(in), st.midLine, st.depth)
			if got := collectAll(reused); got != want {
				t.Errorf("%q from %+v: after ResetFrom\n got %s\nwant %s", in[:min(len(in), 40)], st, got, want)
			}
			outputs[in+"\x00"+want] = true
		}
	}
	// The starts must matter, or this test could not tell them apart.
	if len(outputs) <= len(inputs) {
		t.Fatalf("no input reads differently from different starts")
	}
}

// inPlaceReader is an InPlaceReader over a copy of its text; its Read
// fails the scan (the Scanner must never call it).
type inPlaceReader struct{ b []byte }

func inPlace(text string) *inPlaceReader { return &inPlaceReader{[]byte(text)} }

func (r *inPlaceReader) InPlace() []byte { return r.b }

func (r *inPlaceReader) Read([]byte) (int, error) {
	return 0, fmt.Errorf("Read called on an InPlaceReader")
}

// An InPlaceReader's bytes are scanned where they lie as a stream of them
// is read, the Scanner writes nothing into them, and a Scanner Reset from
// one to a stream (and back) reads each as a new Scanner does.
func TestInPlaceAsRead(t *testing.T) {
	inputs := append(resetInputs[:len(resetInputs):len(resetInputs)],
		strings.Repeat("line http://example.com/a?b=c d <http://e/f\n g> www.h.example\n", 20000),
		"> <http://a/b http://c/d> e\n>>> <http://f/g http://h/i> j\r\nx\r")
	cfg := Config{MaxLength: 1000, WWW: true, Email: true}
	reused := New(strings.NewReader(""), cfg)
	for round := range 2 {
		for i, in := range inputs {
			want := collectAll(New(strings.NewReader(in), cfg))
			r := inPlace(in)
			if got := collectAll(New(r, cfg)); got != want {
				t.Errorf("input %d in place:\n got %.300s\nwant %.300s", i, got, want)
			}
			if string(r.b) != in {
				t.Errorf("input %d: the Scanner wrote into the bytes it scanned in place", i)
			}
			// Reused: in place, then read, then in place again.
			for _, rd := range []io.Reader{inPlace(in), strings.NewReader(in), inPlace(in)} {
				reused.Reset(rd)
				if got := collectAll(reused); got != want {
					t.Errorf("round %d, input %d, reused (%T):\n got %.300s\nwant %.300s", round, i, rd, got, want)
				}
			}
		}
	}
}
