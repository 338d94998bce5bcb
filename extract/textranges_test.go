package extract

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// textEvents are the URIs and skipped candidates a reading gives, in
// order, with their offsets, lines and columns.
type textEvents struct{ b strings.Builder }

func (e *textEvents) match(m *Match) {
	fmt.Fprintf(&e.b, "U %d-%d %d:%d %q %v %q %d\n", m.Offset, m.End, m.Line, m.Column, m.URI, m.Valid, m.Alt, m.Flags)
}

func (e *textEvents) skip(sk Skip) {
	fmt.Fprintf(&e.b, "S %d-%d %d:%d\n", sk.Offset, sk.End, sk.Line, sk.Column)
}

// wholeEvents reads data with one Scanner.
func wholeEvents(data []byte, opts Options) string {
	var e textEvents
	opts.OnSkip = e.skip
	s := NewScanner(bytes.NewReader(data), opts)
	for s.Scan() {
		e.match(s.Match())
	}
	return e.b.String()
}

// lineStarts cuts data into ranges that end at the first line end target
// bytes or more past their start, as engine.Ranges does.
func lineStarts(data []byte, target int) []int64 {
	starts := []int64{0}
	for at := target; at < len(data); {
		i := bytes.IndexByte(data[at:], '\n')
		if i < 0 || at+i+1 >= len(data) {
			break
		}
		starts = append(starts, int64(at+i+1))
		at += i + 1 + target
	}
	return starts
}

// rangedEvents reads data in ranges of about target bytes, each with a
// RangeScanner, one after the other.
func rangedEvents(t testing.TB, data []byte, opts Options, target int) (string, []TextRange) {
	trs, err := TextRanges(bytes.NewReader(data), int64(len(data)), lineStarts(data, target), opts, 2)
	if err != nil {
		t.Fatal(err)
	}
	var e textEvents
	opts.OnSkip = e.skip
	for _, tr := range trs {
		s := NewRangeScanner(bytes.NewReader(data), tr, opts)
		for s.Scan() {
			e.match(s.Match())
		}
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return e.b.String(), trs
}

// rangeTexts are texts whose ranges do not read alone: a <...> over many
// lines, quoted replies wrapped over lines, bare breaks and hyphens,
// CRLF and CR, invalid UTF-8, overlong candidates, long quoted lines
// (a range's scanner starts inside one and guesses its depth).
func rangeTexts() map[string][]byte {
	long := "> " + strings.Repeat("quoted words http://q.example/a-\n> b ", 300)
	return map[string][]byte{
		"angle":  []byte("a <http://example.com/a/\n  b/\n\n  c/\n\fRFC 1    T    May 2024\n\n  d> e\n" + strings.Repeat("<http://x.example/\n  y/\n  z>\n", 400)),
		"quote":  []byte(strings.Repeat("> see http://example.com/very/\n> long/path\n>> http://deep.example/a-\n>> b\nhttp://plain.example/x\n", 300)),
		"breaks": []byte(strings.Repeat("http://example.com/abc\ndef http://x.example/foo-\nbar \"http://q.example/one\ntwo\" (see\nhttp://p.example/x\ny) www.example.com/\npath user@example.\ncom\n", 200)),
		"crlf":   []byte(strings.Repeat("a http://a.example/\r\n<http://b.example/\r\n  c>\r\nold\rhttp://c.example/\r\r\n", 300)),
		"utf8":   []byte(strings.Repeat("\xff http://a.example/\xff\n\xc3 http://b.example/\xe2\x82\n<http://c.example/\xff\nd>\n", 300)),
		"long":   []byte(strings.Repeat("x http://long.example/"+strings.Repeat("p", 300)+"\n<http://l.example/"+strings.Repeat("q/\n", 120)+">\n", 40)),
		"quoted": []byte(strings.Repeat(long+"\n", 8)),
		"open":   []byte("<http://never.example/closed\n" + strings.Repeat("plain http://a.example/ line\n", 2000)),
	}
}

func rangeOptions() map[string]Options {
	both := Options{Hyphen: HyphenBoth, BareBreak: BareBreakBoth, WWW: true, Email: true}
	return map[string]Options{
		"default":    {},
		"no lines":   {NoLines: true},
		"both":       both,
		"join, 200":  {BareBreak: BareBreakJoin, MaxLength: 200},
		"any scheme": {AnyScheme: true, Hyphen: HyphenDrop},
	}
}

func TestTextRanges(t *testing.T) {
	for name, text := range rangeTexts() {
		for oname, opts := range rangeOptions() {
			for _, target := range []int{1, 50, 700, 4096, 5000, 9000, 40000} {
				// Ranges of a line or two: the first 10 KB (a second
				// a text, else), of which the ranges past 8 KiB start
				// their scanners inside lines.
				data := text
				if target < 700 {
					data = text[:min(len(text), 10000)]
				}
				want := wholeEvents(data, opts)
				got, trs := rangedEvents(t, data, opts, target)
				if got != want {
					t.Fatalf("%s, %s, target %d (%d ranges): differs:\n%s", name, oname, target, len(trs), firstEventDiff(got, want))
				}
			}
		}
	}
}

func firstEventDiff(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			return fmt.Sprintf("event %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("%d events, want %d", len(gl), len(wl))
}

func TestTextRangesAngleOverRanges(t *testing.T) {
	// One <...> over 40 KB: the ranges inside it have no candidate of
	// their own; the scanner of the one where it opens reads through
	// them.
	data := []byte("start http://a.example/\n<http://example.com/" + strings.Repeat("seg/\n", 8000) + "end>\nafter http://b.example/\n")
	got, trs := rangedEvents(t, data, Options{}, 4096)
	if want := wholeEvents(data, Options{}); got != want {
		t.Fatalf("differs:\n%s", firstEventDiff(got, want))
	}
	empty := 0
	for _, tr := range trs {
		if tr.Count == 0 {
			empty++
		}
	}
	if len(trs) < 8 || empty < len(trs)-3 {
		t.Errorf("%d ranges, %d without a candidate: want all but the ends", len(trs), empty)
	}
}

func TestRangeScannerStops(t *testing.T) {
	// A range's reading stops at its last candidate, a skipped one here:
	// the megabyte without any candidate past it is not read, and the
	// last range (quiet at its start) takes over from there.
	data := []byte("http://a.example/\n" + strings.Repeat("x", 10) + "\nhttp://b.example/" + strings.Repeat("y", 300) + "\n" + strings.Repeat(" ", 1<<20) + "http://c.example/\n")
	opts := Options{MaxLength: 100}
	trs, err := TextRanges(bytes.NewReader(data), int64(len(data)), lineStarts(data, 1), opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	counter := &readCounter{r: bytes.NewReader(data)}
	var skips int
	opts.OnSkip = func(Skip) { skips++ }
	s := NewRangeScanner(counter, trs[0], opts)
	var uris []string
	for s.Scan() {
		uris = append(uris, s.Match().URI)
	}
	if len(uris) != 1 || uris[0] != "http://a.example/" || skips > 1 || trs[len(trs)-1].From == 0 {
		t.Errorf("first range: %q and %d skipped, want http://a.example/ alone; last range %+v", uris, skips, trs[len(trs)-1])
	}
	if counter.n > 600<<10 {
		t.Errorf("first range: read %d bytes of %d", counter.n, len(data))
	}
}

type readCounter struct {
	r interface {
		ReadAt([]byte, int64) (int, error)
	}
	n int64
}

func (c *readCounter) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// FuzzTextRanges checks that the ranges of a text, read one after the
// other, give what one scanner gives: URIs and skipped candidates, their
// offsets, lines and columns.
func FuzzTextRanges(f *testing.F) {
	for _, data := range rangeTexts() {
		f.Add(data[:min(len(data), 600)], uint16(1), uint8(0))
		f.Add(data[:min(len(data), 12000)], uint16(700), uint8(2))
	}
	f.Add([]byte("a\n<http://x.example/\n\n  y>\n> http://q.example/a-\n> b\n"), uint16(1), uint8(3))
	options := []Options{{}, {NoLines: true}, {Hyphen: HyphenBoth, BareBreak: BareBreakBoth, WWW: true, Email: true}, {MaxLength: 40, BareBreak: BareBreakJoin}}
	f.Fuzz(func(t *testing.T, data []byte, target uint16, opt uint8) {
		opts := options[int(opt)%len(options)]
		// At most about 32 ranges: an input of 10 KB (scanners that
		// start inside lines) is read in a fraction of a second.
		size := max(int(target), len(data)/32, 1)
		got, _ := rangedEvents(t, data, opts, size)
		if want := wholeEvents(data, opts); got != want {
			t.Errorf("ranges of %d bytes differ:\n%s", size, firstEventDiff(got, want))
		}
	})
}

func TestCountLineBreaks(t *testing.T) {
	// As a scanner counts: LF, CRLF and a CR alone, a CRLF at its LF;
	// CRs at the ends of countLineBreaks' reads (64 KiB) among them.
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 200<<10)
	for i := range data {
		data[i] = "\r\nxxxxxx"[rng.IntN(8)]
	}
	data[64<<10-1], data[64<<10], data[128<<10-3] = '\r', '\n', '\r'
	for _, to := range []int64{0, 1, 100, 64<<10 - 2, 64<<10 - 1, 64 << 10, 128<<10 - 2, 128<<10 - 3, 150000, int64(len(data))} {
		for _, from := range []int64{0, 7, 64<<10 - 2} {
			if from > to {
				continue
			}
			s := NewScanner(bytes.NewReader(data[from:]), Options{})
			s.markLine(to - from)
			for s.Scan() {
			}
			wantLine, wantColumn, _ := s.marked()
			if line, column := countLineBreaks(bytes.NewReader(data), from, to); line != wantLine || column != wantColumn {
				t.Errorf("from %d to %d: %d:%d, want %d:%d", from, to, line, column, wantLine, wantColumn)
			}
		}
	}
}

func TestTextRangesJoinReadsAlike(t *testing.T) {
	// testdata/textranges/urlprefix.txt, a random text: a range that
	// starts at "http://a.example/x(" (offset 21038), after "URL:\r\n"
	// that ends a line of 7,000 bytes (with CRs, '<', '(' and runs of
	// scheme characters). Its scanner, which starts inside that line,
	// finds the candidate at the same offsets as the scanner before, but
	// read with a "URL:" prefix that the whole reading does not give it
	// (behaviour §7.4, url_prefix): a join needs the candidates read
	// alike, not only at the same place. (extract.Split joins on the
	// offsets alone: -j 2 reads this file otherwise than -j 1 when a
	// chunk starts there.)
	data, err := os.ReadFile("testdata/textranges/urlprefix.txt")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{WWW: true, Email: true, Hyphen: HyphenBoth, BareBreak: BareBreakBoth}
	want := wholeEvents(data, opts)
	trs, err := TextRanges(bytes.NewReader(data), int64(len(data)), []int64{0, 21038}, opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	var e textEvents
	for _, tr := range trs {
		s := NewRangeScanner(bytes.NewReader(data), tr, opts)
		for s.Scan() {
			e.match(s.Match())
		}
	}
	if got := e.b.String(); got != want {
		t.Errorf("ranges %+v differ:\n%s", trs, firstEventDiff(got, want))
	}
}

// randomText is a text of pieces that change how what follows reads
// (openers, quote marks, line breaks of every kind, "URL:", runs of
// scheme characters), some repeated into long runs.
func randomText(rng *rand.Rand, size int) []byte {
	pieces := []string{"http://a.example/x", " ", "\n", "<", ">", "> ", ">> ", "(", ")", "\"", "-\n", "\n\n",
		"www.b.example", "u@c.example", "\r\n", "\r", "\xff", "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy",
		"https://d.example/", "\f", "URL:", "mailto:x@y.example", "ftp://e.example/a b"}
	var b strings.Builder
	for b.Len() < size {
		p := pieces[rng.IntN(len(pieces))]
		if rng.IntN(50) == 0 {
			p = strings.Repeat(p, 50+rng.IntN(200))
		}
		b.WriteString(p)
	}
	return []byte(b.String())
}

func TestTextRangesRandom(t *testing.T) {
	// Random texts of 2 to 32 KB at random targets (25,000 of them with
	// another seed found the url_prefix join above).
	rng := rand.New(rand.NewPCG(11, 12))
	options := []Options{{}, {MaxLength: 40}, {Hyphen: HyphenBoth, BareBreak: BareBreakBoth, WWW: true, Email: true}, {NoLines: true, AnyScheme: true}}
	for i := range 600 {
		data := randomText(rng, 2000+rng.IntN(30000))
		opts := options[i%len(options)]
		target := 200 + rng.IntN(6000)
		got, trs := rangedEvents(t, data, opts, target)
		if want := wholeEvents(data, opts); got != want {
			t.Fatalf("text %d, target %d (%d ranges): %s", i, target, len(trs), firstEventDiff(got, want))
		}
	}
}
