package extract

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// lineFormat prints "LINE:COLUMN:OFFSET:URI" for the selected URIs (the
// valid ones, or the invalid ones), and counts the bytes it formats.
type lineFormat struct {
	invalid   bool
	positions bool
	made      *atomic.Int64
}

func (f lineFormat) Selects(m *Match) bool { return m.Valid != f.invalid }

func (f lineFormat) AppendMatch(b []byte, m *Match) ([]byte, int) {
	posAt := -1
	if f.positions {
		posAt = len(b)
	}
	b = strconv.AppendInt(b, m.Offset, 10)
	b = append(b, ':')
	b = append(b, m.URI...)
	b = append(b, '\n')
	if f.made != nil {
		f.made.Add(int64(len(b)))
	}
	return b, posAt
}

func (f lineFormat) AppendPosition(b []byte, line, column int64) []byte {
	return fmt.Appendf(b, "%d:%d:", line, column)
}

// sequential is what one scanner over the whole text gives, with the
// skipped candidates as lines "skip OFFSET END LINE:COLUMN".
func sequential(text string, opts Options, f lineFormat) (string, Counts) {
	var out bytes.Buffer
	var n Counts
	opts.OnSkip = func(sk Skip) { fmt.Fprintf(&out, "skip %d %d %d:%d\n", sk.Offset, sk.End, sk.Line, sk.Column) }
	s := NewScanner(strings.NewReader(text), opts)
	for s.Scan() {
		m := s.Match()
		n.Found++
		if !m.Valid {
			n.Invalid++
		}
		if !f.Selects(m) {
			continue
		}
		n.Selected++
		b, at := f.AppendMatch(nil, m)
		if at >= 0 {
			b = append(f.AppendPosition(append([]byte(nil), b[:at]...), m.Line, m.Column), b[at:]...)
		}
		out.Write(b)
	}
	return out.String(), n
}

func splitFrom(file io.ReaderAt, size int64, s Split) (string, Counts, error) {
	var out bytes.Buffer
	s.OnSkip = func(sk Skip) { fmt.Fprintf(&out, "skip %d %d %d:%d\n", sk.Offset, sk.End, sk.Line, sk.Column) }
	n, err := s.Read(&out, file, size)
	return out.String(), n, err
}

// textFile returns text written to a file, open for reading: Split maps
// it into memory where the system allows.
func textFile(t *testing.T, text string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "text")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// hardSplitText is text that is hard to cut: URIs in every delimiter, <...>
// broken across lines and mail quotes, unclosed '<', long candidates and
// URIs longer than a worker's lead, blank lines, and with quoted, long
// mail-quoted lines.
func hardSplitText(size int, seed uint64, quoted bool) string {
	rng := rand.New(rand.NewPCG(seed, seed))
	words := []string{
		"lorem", "ipsum", "<http://x.example/a", "b>", "(see", "http://p.example/q).",
		`"http://q.example/r"`, "<http://wrap.example/", "  more>", "Note:", "<", ">",
		"http://" + strings.Repeat("y", 300), "e.g.http://eg.example/", "\n", "\n\n",
		"> quoted <http://qq.example/", "\n> cont>", "<URL:", "[http://b.example/]",
		"http://h.example/some-\n  thing>", `"http://split.example/a` + "\n" + `  b"`,
		"http://bad.example/%zz", "http://long.example/" + strings.Repeat("ab:http://in.example/", 300),
	}
	var b strings.Builder
	if quoted {
		b.WriteString("> ")
	}
	for i := 0; b.Len() < size; i++ {
		w := words[rng.IntN(len(words))]
		if quoted {
			// Long lines, each ending inside a <...> that the next
			// line's quote prefix continues; a URI every 600 bytes or
			// so, so that chunk readers are often quiet past their
			// chunk's start.
			switch {
			case rng.IntN(1000) == 0:
				w = "<http://qb.example/a\n> b>"
			case rng.IntN(100) == 0:
				w = strings.ReplaceAll(w, "\n", " ")
			default:
				w = "lorem"
			}
			b.WriteString(w + " ")
			continue
		}
		if rng.IntN(10) == 0 {
			w = fmt.Sprintf("http://u%d.example/p", i)
		}
		b.WriteString(w)
		b.WriteByte(' ')
	}
	return b.String()
}

// Split's output is that of one scanner, byte for byte, whatever the
// chunk size and the number of workers: URIs across boundaries, skipped
// candidates, line numbers and columns, counts.
func TestSplitIsSequential(t *testing.T) {
	texts := map[string]string{
		"hard":   hardSplitText(300_000, 1, false),
		"hard2":  hardSplitText(200_000, 7, false),
		"quoted": hardSplitText(400_000, 11, true),
		"none":   strings.Repeat("no URI here at 10:30, Note: this\n", 5000),
	}
	optss := []Options{{MaxLength: 250}, {Hyphen: HyphenBoth, WWW: true, Email: true}, {AnyScheme: true, ASCII: true}}
	for name, text := range texts {
		file := textFile(t, text)
		for oi, opts := range optss {
			for _, f := range []lineFormat{{positions: true}, {invalid: true}, {}} {
				opts.NoLines = !f.positions
				want, wantN := sequential(text, opts, f)
				for _, chunk := range []int64{4099, 10007, 65536, 0} {
					for _, workers := range []int{1, 2, 5} {
						s := Split{Workers: workers, ChunkSize: chunk, QueueBytes: 100 << 10, Options: opts, Format: f}
						// Read, and mapped into memory (as a file).
						for _, src := range []io.ReaderAt{strings.NewReader(text), file} {
							got, n, err := splitFrom(src, int64(len(text)), s)
							if err != nil {
								t.Fatal(err)
							}
							if got != want || n != wantN {
								t.Fatalf("%s (%T), options %d, %+v, chunk %d, %d workers: output differs from one scanner's (%d bytes, %+v; want %d, %+v)\n%s",
									name, src, oi, f, chunk, workers, len(got), n, len(want), wantN, firstDiff(got, want))
							}
						}
					}
				}
			}
		}
	}
}

func firstDiff(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, gl[i], wl[i])
		}
	}
	return "one is a prefix of the other"
}

// slowWriter lets the workers run ahead of the output, and tracks how much
// was formatted and not yet written.
type slowWriter struct {
	made    *atomic.Int64
	written int64
	most    int64
	out     bytes.Buffer
}

func (w *slowWriter) Write(p []byte) (int, error) {
	for range 20 {
		runtime.Gosched()
	}
	w.written += int64(len(p))
	w.most = max(w.most, w.made.Load()-w.written)
	return w.out.Write(p)
}

// A chunk's results flow to the writer as they are made: however far the
// workers could run ahead of a slow writer, the output they hold stays
// under a bound set by QueueBytes and Workers, not by the file (behaviour
// §1: split reading in bounded memory).
func TestSplitHoldsBoundedOutput(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 8<<20; i++ {
		fmt.Fprintf(&b, "see http://h%d.example/p/%d?q=%d and <https://w.example/a/%d> (ftp://f.example/%d).\n", i%97, i, i, i, i)
	}
	text := b.String()
	for _, workers := range []int{2, 4} {
		var made atomic.Int64
		f := lineFormat{made: &made}
		w := &slowWriter{made: &made}
		// Chunks of 2 MiB; with 4 workers, of the size Split chooses.
		s := Split{Workers: workers, ChunkSize: 2 << 20, QueueBytes: 512 << 10, Options: Options{NoLines: true}, Format: f}
		if workers == 4 {
			s.ChunkSize = 0
		}
		if _, err := s.Read(w, strings.NewReader(text), int64(len(text))); err != nil {
			t.Fatal(err)
		}
		want, _ := sequential(text, Options{NoLines: true}, lineFormat{})
		if w.out.String() != want {
			t.Fatalf("%d workers: output differs from one scanner's", workers)
		}
		// Per chunk read or waiting: its queue, the block being filled,
		// the one being written.
		r := newSplitRun(&s, nil, nil, 0)
		bound := int64((s.inFlight()*(r.queue+2) + r.queue) * (blockBytes + 1<<10))
		if w.most > bound || made.Load() < 3*bound {
			t.Fatalf("%d workers: up to %d bytes formatted and not written (bound %d), of %d", workers, w.most, bound, made.Load())
		}
		t.Logf("%d workers: up to %d bytes held (bound %d) of %d", workers, w.most, bound, made.Load())
	}
}

// countLines counts the lines up to the next chunk's base itself when
// the scanner has not read that far (a file that shrank while it was read).
func TestCountLines(t *testing.T) {
	text := strings.Repeat("ab\ncdefg ", 30000) + "tail without a break " + strings.Repeat("x", 70000)
	for _, to := range []int64{1, 3, 4, 100, 150000, int64(len(text)) - 5} {
		for _, base := range []int64{0, 7} {
			if to <= base {
				continue
			}
			line, col := countLines(strings.NewReader(text), base, to)
			seg := text[base:to]
			wantLine := int64(strings.Count(seg, "\n")) + 1
			wantCol := int64(len(seg) - strings.LastIndexByte(seg, '\n'))
			if line != wantLine || col != wantCol {
				t.Errorf("from %d to %d: line %d, column %d; want %d, %d", base, to, line, col, wantLine, wantCol)
			}
		}
	}
}

// failingWriter fails every write from its limit'th byte on.
type failingWriter struct {
	n, limit int
	err      error
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		return 0, w.err
	}
	w.n += len(p)
	return len(p), nil
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r    *strings.Reader
	read atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.read.Add(int64(n))
	return n, err
}

// At w's first error Read stops and returns it, having read a small part
// of the file: urix FILE | head read all of a large FILE before (800 MB:
// 0.7 s and 655 MB of reads for one line of output).
func TestSplitStopsAtWriteError(t *testing.T) {
	var sb strings.Builder
	for i := 0; sb.Len() < 32<<20; i++ {
		fmt.Fprintf(&sb, "line %d of text with http://example.com/%d in it\n", i, i)
	}
	text := sb.String()
	for _, workers := range []int{1, 2, 4} {
		errGone := fmt.Errorf("reader gone")
		w := &failingWriter{limit: 100 << 10, err: errGone}
		src := &countingReaderAt{r: strings.NewReader(text)}
		s := Split{Workers: workers, ChunkSize: 256 << 10, Format: lineFormat{}}
		_, err := s.Read(w, src, int64(len(text)))
		if err != errGone {
			t.Errorf("%d workers: Read returned %v, want the write error", workers, err)
		}
		if read := src.read.Load(); read > int64(len(text))/4 {
			t.Errorf("%d workers: %d of %d bytes read after the output failed at 100 KiB", workers, read, len(text))
		}
	}
}

// A panic of a chunk's worker (a bug that some text meets) is the file's
// error, worded as the engine's contained panics are: the results before
// it are written, the same whatever the workers, none after it, no
// goroutine is left running, and the next Read goes on as usual.
func TestSplitWorkerPanicContained(t *testing.T) {
	var sb strings.Builder
	for i := 0; sb.Len() < 4<<20; i++ {
		fmt.Fprintf(&sb, "line %d of text with http://example.com/%d in it\n", i, i)
	}
	text := sb.String()
	file := textFile(t, text)
	all, _ := sequential(text, Options{}, lineFormat{})
	const chunkSize = 256 << 10
	before := runtime.NumGoroutine()
	// The first chunk's worker, one in the middle, the last whole one's
	// (a few bytes past 4 MiB make a last chunk of their own).
	for _, panicStart := range []int64{0, 5 * chunkSize, 15 * chunkSize} {
		want := ""
		for _, workers := range []int{1, 2, 4} {
			seen := 0
			panicAt = func(chunkStart, _ int64) {
				if chunkStart == panicStart {
					if seen++; seen == 10 {
						panic("boom")
					}
				}
			}
			got, _, err := splitFrom(file, int64(len(text)), Split{Workers: workers, ChunkSize: chunkSize, Format: lineFormat{}})
			panicAt = nil
			const wantErr = "internal error reading the input: boom (the rest of it was not read; please report this)"
			if err == nil || err.Error() != wantErr {
				t.Fatalf("chunk at %d, %d workers: error %v, want %q", panicStart, workers, err, wantErr)
			}
			if workers == 1 {
				want = got
			} else if got != want {
				t.Errorf("chunk at %d, %d workers: the output differs from 1 worker's: %s", panicStart, workers, firstDiff(got, want))
			}
			if !strings.HasPrefix(all, got) || len(got) >= len(all) || strings.Count(got, "\n") < int(panicStart)/60 {
				t.Errorf("chunk at %d, %d workers: %d bytes of output, not the results before the panic (of %d)", panicStart, workers, len(got), len(all))
			}
			noSplitGoroutinesLeft(t, before)
			// The next file is read whole.
			got, _, err = splitFrom(file, int64(len(text)), Split{Workers: workers, ChunkSize: chunkSize, Format: lineFormat{}})
			if err != nil || got != all {
				t.Errorf("%d workers: the read after the panic: error %v, %s", workers, err, firstDiff(got, all))
			}
		}
	}
}

// noSplitGoroutinesLeft fails when more goroutines run than before, once
// those ending have had a moment.
func noSplitGoroutinesLeft(t *testing.T, before int) {
	t.Helper()
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 200 {
			t.Fatalf("%d goroutines left running, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
