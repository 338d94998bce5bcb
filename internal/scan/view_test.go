package scan

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// splitScan is what a reader of chunks learns from a scanner: the
// candidates before limit, whether it is quiet past limit, then the rest;
// and apart, what a scanner tells only of what it has read so far (-1
// otherwise), which depends on its reads: the quote depth at limit and
// the first line break.
type splitScan struct {
	text       string
	depth, brk int64
}

func collectSplit(s *Scanner, limit int64) splitScan {
	var b strings.Builder
	for s.ScanBefore(limit) {
		c := s.Candidate()
		fmt.Fprintf(&b, "%q@%d-%d:%d:%d %v %v|", c.Text, c.Offset, c.End, c.Line, c.Column, c.Delim, c.Flags)
	}
	fmt.Fprintf(&b, "quiet %v|", s.QuietPast(limit))
	depth, brk := int64(s.QuoteDepthAt(limit)), s.FirstLineBreak()
	return splitScan{b.String() + collectAll(s), depth, brk}
}

// same compares two splitScans: the same text, and the same depth and
// line break where both tell them.
func (a splitScan) same(b splitScan) bool {
	agree := func(x, y int64) bool { return x == y || x < 0 || y < 0 }
	return a.text == b.text && agree(a.depth, b.depth) && agree(a.brk, b.brk)
}

// windowed returns a Scanner that reads text in place through a window of
// room bytes.
func windowed(text string, cfg Config, room int) *Scanner {
	s := New(strings.NewReader(""), cfg)
	s.viewRoom = lookback + s.maxLen + room
	s.Reset(inPlace(text))
	return s
}

// viewInputs put what a scanner must see whole across the places where a
// window on them slides: URIs, a '<' whose '>' comes lines later, a URI
// broken over lines inside <...>, quoted mail lines, a candidate over the
// length limit, CR line ends, a line longer than any window.
func viewInputs() []string {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "line %d http://example.com/%d?q=%d and <http://h/%d\n  /wrapped> x\r\n", i, i, i*i, i)
		if i%7 == 0 {
			fmt.Fprintf(&b, "> quoted <http://q/%d\n> more> www.w%d.example user%d@example.org\n", i, i, i)
		}
		if i%50 == 0 {
			b.WriteString("http://long/" + strings.Repeat("y", 1500) + " after\n")
		}
	}
	long := strings.Repeat("a http://one.example/line b ", 3000)
	// A quoted line longer than a window, its '<' URI wrapped onto the
	// next: the line's quote depth must outlive its start.
	quoted := strings.Repeat(">> "+strings.Repeat("word ", 400)+"<http://q/long\n>> tail> x\n", 20)
	return append([]string{b.String(), long, quoted, "<" + strings.Repeat("http://x ", 2000)}, resetInputs...)
}

// An InPlaceReader's bytes seen through a window that slides (a file
// mapped into memory) are scanned as when read: the same candidates,
// positions, quote depths and line breaks, for windows of every size from
// the least a scanner needs.
func TestInPlaceWindows(t *testing.T) {
	cfg := Config{MaxLength: 1000, WWW: true, Email: true}
	for i, in := range viewInputs() {
		want := collectAll(New(strings.NewReader(in), cfg))
		for _, room := range []int{1, 2, 7, 64, 1000, 4096, 100000} {
			if got := collectAll(windowed(in, cfg, room)); got != want {
				t.Errorf("input %d, window %d:\n got %.400s\nwant %.400s", i, room, got, want)
			}
		}
		for _, limit := range []int64{0, 1, 5000, int64(len(in) / 2), int64(len(in))} {
			want := collectSplit(New(strings.NewReader(in), cfg), limit)
			for _, room := range []int{1, 300, 70000} {
				if got := collectSplit(windowed(in, cfg, room), limit); !got.same(want) {
					k := 0
					for k < len(got.text) && k < len(want.text) && got.text[k] == want.text[k] {
						k++
					}
					k = max(0, k-100)
					t.Errorf("input %d, limit %d, window %d, from byte %d:\n got %.400s %d %d\nwant %.400s %d %d", i, limit, room, k, got.text[k:], got.depth, got.brk, want.text[k:], want.depth, want.brk)
				}
			}
		}
	}
}

// The window's length stays that of the largest buffer whatever the
// input's: a scanner given a file mapped into memory works on a bounded
// part of it at a time.
func TestInPlaceWindowBounded(t *testing.T) {
	in := strings.Repeat("text without a colon ", 100000) + "http://end.example/"
	s := New(inPlace(in), Config{})
	most := 0
	for s.Scan() {
		most = max(most, s.n)
	}
	most = max(most, s.n)
	if most > s.maxBuffer() || !strings.Contains(string(s.Candidate().Text), "end.example") {
		t.Fatalf("window of %d bytes (largest buffer %d), last candidate %q", most, s.maxBuffer(), s.Candidate().Text)
	}
}

func FuzzInPlace(f *testing.F) {
	for _, in := range append(resetInputs, "a <http://b\n c> d\r\n> e http://f/g h\n", "x\ry http://z/") {
		f.Add([]byte(in), uint8(0), uint16(1), uint32(3))
		f.Add([]byte(in), uint8(13), uint16(40), uint32(100))
	}
	f.Fuzz(func(t *testing.T, data []byte, sel uint8, room uint16, limit uint32) {
		cfg := Config{MaxLength: []int{24, 100, 600}[sel%3], WWW: sel&4 != 0, Email: sel&8 != 0, NoLines: sel&16 != 0}
		want := collectAll(New(bytes.NewReader(data), cfg))
		r := 1 + int(room%2048)
		if got := collectAll(windowed(string(data), cfg, r)); got != want {
			t.Fatalf("window %d:\n got %s\nwant %s", r, got, want)
		}
		l := int64(limit) % int64(len(data)+2)
		wantSplit := collectSplit(New(bytes.NewReader(data), cfg), l)
		if got := collectSplit(windowed(string(data), cfg, r), l); !got.same(wantSplit) {
			t.Fatalf("window %d, limit %d:\n got %+v\nwant %+v", r, l, got, wantSplit)
		}
	})
}
