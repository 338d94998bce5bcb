package scan

import (
	"bytes"
	"io"
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
	// Every short length, with one or two line breaks anywhere, among
	// bytes one away from '\n' (a borrow in the word-at-a-time test).
	for n := range 41 {
		for i := -1; i < n; i++ {
			for k := -1; k < n; k++ {
				b := bytes.Repeat([]byte{'\v'}, n)
				for j := 0; j < n; j += 3 {
					b[j] = '\t'
				}
				if i >= 0 {
					b[i] = '\n'
				}
				if k >= 0 {
					b[k] = '\n'
				}
				if got, want := lastNewline(b), bytes.LastIndexByte(b, '\n'); got != want {
					t.Fatalf("lastNewline(%q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}

// piecesReader returns b in two reads, split at k.
type piecesReader struct {
	b []byte
	k int
}

func (r *piecesReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := len(r.b)
	if r.k > 0 {
		n, r.k = r.k, 0
	}
	n = copy(p, r.b[:n])
	r.b = r.b[n:]
	return n, nil
}

// Line numbers count LF, CRLF and a CR alone (behaviour §3), whatever the
// reads: a CR that ends a read is told by the next byte, also for a mark
// (MarkLine) that stands right after it.
func TestLinesAfterCR(t *testing.T) {
	for _, in := range []string{
		"a\rhttp://b.example/ c\rd http://e.example/\r",
		"a\r\nhttp://b.example/ c\r\n\r\nd http://e.example/\r\n",
		"\r\r\nhttp://b.example/\n\r\rx http://e.example/\n\r",
		"x <http://b.example/\r  c/d>\r\"http://e.example/\r  f\"",
	} {
		for k := 1; k < len(in); k++ {
			for s := New(&piecesReader{b: []byte(in), k: k}, Config{}); s.Scan(); {
				c := s.Candidate()
				if l, c2 := naivePosition(in, int(c.Offset)); c.Line != l || c.Column != c2 {
					t.Fatalf("%q split at %d: %q at %d:%d, want %d:%d", in, k, c.Text, c.Line, c.Column, l, c2)
				}
			}
			for mark := 0; mark <= len(in); mark++ {
				s := New(&piecesReader{b: []byte(in), k: k}, Config{})
				s.MarkLine(int64(mark))
				s.fill(0, 1) // the first piece only
				wl, wc := naivePosition(in, mark)
				if line, col, ok := s.Marked(); ok && (line != wl || col != wc) {
					t.Fatalf("%q split at %d: after the first read, mark %d at %d:%d, want %d:%d", in, k, mark, line, col, wl, wc)
				}
				for s.Scan() {
				}
				if line, col, ok := s.Marked(); !ok || line != wl || col != wc {
					t.Fatalf("%q split at %d: mark %d at %d:%d (%v), want %d:%d", in, k, mark, line, col, ok, wl, wc)
				}
			}
		}
	}
}

// The CRs are looked for once over the input read (lineCounter.crBefore):
// lines stay right when a CR comes reads after the last one, or right
// after a candidate, or at the end of a read.
func TestLinesCRFarApart(t *testing.T) {
	in := "http://a.example/ " + strings.Repeat("word ", 4000) + "\rhttp://b.example/\r" +
		strings.Repeat("w\n", 5000) + "\r\nc http://c.example/ " + strings.Repeat("x", 20000) + "\r\rd http://d.example/\r"
	for _, k := range []int{1, 17, 20018, 20019, 20020, 20036, 30036, len(in) - 30, len(in) - 1} {
		n := 0
		for s := New(&piecesReader{b: []byte(in), k: k}, Config{}); s.Scan(); n++ {
			c := s.Candidate()
			if l, c2 := naivePosition(in, int(c.Offset)); c.Line != l || c.Column != c2 {
				t.Fatalf("split at %d: %q at %d:%d, want %d:%d", k, c.Text, c.Line, c.Column, l, c2)
			}
		}
		if n != 4 {
			t.Fatalf("split at %d: %d candidates, want 4", k, n)
		}
	}
}
