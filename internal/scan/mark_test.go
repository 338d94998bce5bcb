package scan

import (
	"io"
	"math/rand"
	"strings"
	"testing"
	"testing/iotest"
)

// naivePosition is the line and column of offset abs in in, counted the
// plain way: LF, CRLF and a CR alone each end a line (behaviour §3).
func naivePosition(in string, abs int) (line, col int64) {
	line, start := 1, 0
	for i := 0; i < abs; i++ {
		if in[i] == '\n' || in[i] == '\r' && (i+1 == len(in) || in[i+1] != '\n') {
			line, start = line+1, i+1
		}
	}
	return int64(line), int64(abs - start + 1)
}

// Marked gives the line and column of the marked offset wherever it falls:
// before, between and inside candidates, in input the scanner has long
// discarded, whatever the reads; and the candidates' own lines stay right.
func TestMarkLine(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var b strings.Builder
	for b.Len() < 300<<10 {
		switch rng.Intn(8) {
		case 0:
			b.WriteString("\n")
		case 6:
			b.WriteString("\r")
		case 7:
			b.WriteString("\r\n")
		case 1:
			b.WriteString("see <http://example.com/a/\n  b/c> ")
		case 2:
			b.WriteString("http://x.example/p?q=1 ")
		default:
			b.WriteString(strings.Repeat("word ", rng.Intn(30)))
		}
	}
	in := b.String()
	marks := []int{0, 1, 5, len(in) / 3, len(in) / 2, len(in) - 1, len(in)}
	for range 20 {
		marks = append(marks, rng.Intn(len(in)+1))
	}
	// Marks right after a CR: before an LF, and alone.
	if k := strings.Index(in, "\r\n"); k >= 0 {
		marks = append(marks, k+1)
	}
	if k := strings.Index(in, "\r "); k >= 0 {
		marks = append(marks, k+1)
	}
	want := collectAll(New(strings.NewReader(in), Config{}))
	for s := New(iotest.HalfReader(strings.NewReader(in)), Config{}); s.Scan(); {
		c := s.Candidate()
		if wl, wc := naivePosition(in, int(c.Offset)); c.Line != wl || c.Column != wc {
			t.Fatalf("candidate %q at %d: line %d column %d, want %d, %d", c.Text, c.Offset, c.Line, c.Column, wl, wc)
		}
	}
	for _, mark := range marks {
		for _, oneByte := range []bool{false, true} {
			if oneByte && mark%7 != 0 {
				continue // slow: a few marks are enough
			}
			var src io.Reader = strings.NewReader(in)
			if oneByte {
				src = iotest.OneByteReader(src)
			}
			s := New(src, Config{})
			s.MarkLine(int64(mark))
			if got := collectAll(s); got != want {
				t.Fatalf("mark %d (one byte %v): candidates differ\n got %.300s\nwant %.300s", mark, oneByte, got, want)
			}
			line, col, ok := s.Marked()
			wl, wc := naivePosition(in, mark)
			if !ok || line != wl || col != wc {
				t.Errorf("mark %d (one byte %v): Marked() = %d, %d, %v; want %d, %d, true", mark, oneByte, line, col, ok, wl, wc)
			}
		}
	}
}

// Marked reports a mark only once the scanner has read that far, and
// none under NoLines; ScanBefore reads enough for a mark before its limit.
func TestMarkedNotYet(t *testing.T) {
	in := strings.Repeat("line of text\n", 20000) + "http://a.example/ end\n"
	s := New(strings.NewReader(in), Config{})
	s.MarkLine(int64(len(in) - 5))
	if _, _, ok := s.Marked(); ok {
		t.Errorf("Marked before any read is ok")
	}
	limit := int64(len(in) / 2)
	s.MarkLine(limit - 1)
	for s.ScanBefore(limit) {
	}
	line, col, ok := s.Marked()
	wl, wc := naivePosition(in, int(limit-1))
	if !ok || line != wl || col != wc {
		t.Errorf("after ScanBefore(%d): Marked() = %d, %d, %v; want %d, %d, true", limit, line, col, ok, wl, wc)
	}
	nl := New(strings.NewReader(in), Config{NoLines: true})
	nl.MarkLine(3)
	for nl.Scan() {
	}
	if _, _, ok := nl.Marked(); ok {
		t.Errorf("Marked under NoLines is ok")
	}
	s.Reset(strings.NewReader(in))
	for s.Scan() {
	}
	if _, _, ok := s.Marked(); ok {
		t.Errorf("Marked after Reset is ok")
	}
}
