package engine

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/output"
)

// TestYieldingReader: the reader that yields passes its input through
// whole, whatever the reads, across several yields.
func TestYieldingReader(t *testing.T) {
	data := bytes.Repeat([]byte("see http://example.org/ now\n"), 3*yieldEvery/28+7)
	if err := iotest.TestReader(&yieldingReader{r: bytes.NewReader(data)}, data); err != nil {
		t.Fatal(err)
	}
	y := &yieldingReader{r: iotest.HalfReader(bytes.NewReader(data))}
	got, err := io.ReadAll(y)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d of %d bytes, err %v", len(got), len(data), err)
	}
	if y.since >= yieldEvery {
		t.Errorf("%d bytes read since the last yield, more than %d", y.since, yieldEvery)
	}
}

// writeLog records each write that reaches it.
type writeLog struct{ writes []string }

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

// TestSplitLineBuffered: with --line-buffered, a file read in chunks
// sends each URI out as it is joined, a line a write; without, the output
// leaves in one buffer at the end.
func TestSplitLineBuffered(t *testing.T) {
	var text bytes.Buffer
	for i := range 3000 {
		fmt.Fprintf(&text, "line %d http://u%d.example/p and more text\n", i, i)
	}
	name := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(name, text.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lineBuffered := range []bool{false, true} {
		r := &run{opts: extract.Options{MaxLength: 1 << 16, NoLines: true}, jobs: 2}
		r.out.LineBuffered = lineBuffered
		log := &writeLog{}
		f := &fileOutput{r: r, out: output.NewWriter(log, &r.out), name: name, msgs: &messages{r: r, w: io.Discard}, wk: r.newWorker(0)}
		file, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r.tuning.SplitChunk = 16 << 10
		err = r.readSplit(f, file, int64(text.Len()))
		file.Close()
		if err != nil {
			t.Fatal(err)
		}
		f.out.Flush()
		all := strings.Join(log.writes, "")
		if got := strings.Count(all, "\n"); got != 3000 || !strings.HasPrefix(all, "http://u0.example/p\n") {
			t.Fatalf("line-buffered %v: %d URIs, starting %.40q", lineBuffered, got, all)
		}
		switch {
		case lineBuffered && len(log.writes) != 3000:
			t.Errorf("line-buffered: %d writes for 3000 URIs, want one each", len(log.writes))
		case !lineBuffered && len(log.writes) > 4:
			t.Errorf("not line-buffered: %d writes, want the output in a few buffers", len(log.writes))
		}
	}
}

// counted is the reader that read gives readDocuments for file, as
// readDocuments counts it.
func counted(r *run, file *os.File) io.Reader {
	if p := r.probe(file); r.gzipAhead(p) {
		return newRegularFile(file, p.pos, p.size, &r.stats.shared().bytes)
	}
	return &yieldingReader{r: &countingReader{r: file, n: &r.stats.shared().bytes}}
}

// TestCountedRegularFile: a gzip file, the only input, read on several
// workers can also be read at any offset, from where it stands (what
// document's workers need to decode its members ahead), and how far its
// reading has got is counted for the progress bar; another file (a file
// of /proc has size 0), a pipe, -j 1, or one of several inputs read at
// once reads as a stream only.
func TestCountedRegularFile(t *testing.T) {
	type sized interface {
		io.ReaderAt
		io.Seeker
		Size() int64
	}
	file := openWritten(t, []byte("0123\x1f\x8b\x08789abcdef"))
	file.Seek(4, io.SeekStart) // standard input read in part before urix
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	r := &run{jobs: 2, oneInput: true}
	rd, ok := counted(r, file).(sized)
	if !ok {
		t.Fatalf("a regular file, -j 2: %T, want one that reads at any offset", counted(r, file))
	}
	var at [3]byte
	if n, _ := rd.ReadAt(at[:], 3); n != 3 || string(at[:]) != "789" || rd.Size() != 12 {
		t.Errorf("ReadAt(3) = %q, Size %d; want \"789\" of a file of 12 bytes from offset 4", at[:n], rd.Size())
	}
	// What Read has reached counts, not what was read at offsets.
	head := make([]byte, 2)
	if n, _ := io.ReadFull(rd.(io.Reader), head); n != 2 || string(head) != "\x1f\x8b" || r.stats.shared().bytes.Load() != 2 {
		t.Errorf("read %q, counted %d; want \"\\x1f\\x8b\", 2", head[:n], r.stats.shared().bytes.Load())
	}
	rd.Seek(8, io.SeekStart)
	rest, err := io.ReadAll(rd.(io.Reader))
	if err != nil || string(rest) != "cdef" || r.stats.shared().bytes.Load() != 12 {
		t.Errorf("after a seek to 8: read %q (%v), counted %d; want \"cdef\", 12", rest, err, r.stats.shared().bytes.Load())
	}
	if _, ok := counted(&run{jobs: 1, oneInput: true}, file).(sized); ok {
		t.Error("-j 1 reads at offsets")
	}
	if _, ok := counted(&run{jobs: 2}, file).(sized); ok {
		t.Error("one of several inputs, read while others are, reads at offsets")
	}
	tf := openWritten(t, []byte("0123456789abcdef"))
	if _, ok := counted(r, tf).(sized); ok {
		t.Error("a text file reads at offsets")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if _, ok := counted(r, pr).(sized); ok {
		t.Error("a pipe reads at offsets")
	}
}

// TestProgressOfGzipAhead: the bytes counted for progress (and --stats)
// of a gzip file of many members decoded on workers are its size, once
// read: what the workers read ahead at offsets is not counted again.
func TestProgressOfGzipAhead(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	for i := 0; b.Len() < 3<<19; i++ {
		z.Reset(&b)
		fmt.Fprintf(z, "record %d: http://example.com/%d\n", i, i)
		for k := range 200 {
			fmt.Fprintf(z, "%x ", (i*200+k)*2654435761)
		}
		z.Close()
	}
	file := openWritten(t, b.Bytes())
	r := &run{jobs: 2, oneInput: true}
	docs := document.NewReader(document.Options{Format: document.Text, Workers: 2})
	var text int64
	err := docs.Read(counted(r, file), "crawl.warc.gz", func(d *document.Document) error {
		n, err := io.Copy(io.Discard, d.Body)
		text += n
		return err
	})
	if err != nil || text == 0 {
		t.Fatalf("read %d bytes of text: %v", text, err)
	}
	if got := r.stats.shared().bytes.Load(); got != int64(b.Len()) {
		t.Errorf("counted %d bytes of a file of %d", got, b.Len())
	}
}

// Standard input that is a large regular file (urix < FILE) is read in
// chunks, as the file named would be; one that stands past its start (a
// shell read part of it before) is read as a stream, from where it stands.
func TestSplittableStdin(t *testing.T) {
	r := &run{jobs: 2, splitFiles: true}
	r.in.docFormat = document.Auto
	splitMin := r.splitMin()
	file := openWritten(t, []byte("text with http://example.com/ in it\n"))
	if err := os.Truncate(file.Name(), splitMin); err != nil {
		t.Fatal(err)
	}
	r.oneInput = true
	if p := r.probe(file); !r.splittable(inputFile{name: "-"}, p) || p.size != splitMin {
		t.Errorf("standard input, a file of %d bytes at its start: splittable %v, %d", splitMin, r.splittable(inputFile{name: "-"}, p), p.size)
	}
	file.Seek(5, io.SeekStart)
	if r.splittable(inputFile{name: "-"}, r.probe(file)) {
		t.Error("standard input 5 bytes into its file: read in chunks from the file's start")
	}
}

// openWritten writes data to a file of its own and opens it for reading,
// closed when the test ends.
func openWritten(t *testing.T, data []byte) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// The inputs of a walk go to the workers in batches of about batchBytes
// of input, as the mean size of the files read so far tells: one by one
// before any is read and when files are large, batchFiles at most.
func TestBatchSize(t *testing.T) {
	for _, c := range []struct {
		files, bytes int64
		want         int
	}{
		{0, 0, 1},
		{3, 0, 1},              // empty files so far: no mean to go by
		{10, 80 << 10, 8},      // a Maildir's 8 KiB messages
		{1, 1 << 30, 1},        // large files
		{2, 100 << 10, 1},      // 50 KiB each: 64 KiB is one
		{100, 100, batchFiles}, // tiny ones
	} {
		r := &run{}
		r.stats.shared().files.Store(c.files)
		r.stats.shared().bytes.Store(c.bytes)
		if got := r.batchSize(); got != c.want {
			t.Errorf("%d files, %d bytes: batches of %d, want %d", c.files, c.bytes, got, c.want)
		}
	}
}
