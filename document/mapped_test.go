package document

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/urix-dev/urix/internal/mapfile"
)

// tempFile writes pre+text to a file and returns it open, at the end of
// pre.
func tempFile(t *testing.T, pre, text string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.mbox")
	if err := os.WriteFile(path, []byte(pre+text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.Seek(int64(len(pre)), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	return f
}

// countedFile is a FileReader as the CLI's: it counts what is read of
// the file, by Read and through the mapping.
type countedFile struct {
	f            *os.File
	read, mapped int64
}

func (c *countedFile) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.read += int64(n)
	return n, err
}
func (c *countedFile) File() *os.File { return c.f }
func (c *countedFile) Mapped(n int64) { c.mapped += n }

// mapList is an mbox in the shape of a list archive, made of testMbox's
// messages many times over with their numbers, some with a body longer
// than the messages held (read on, not held), one with a quoted "From "
// line (copied out of the mapping).
func mapList(n int) string {
	var b strings.Builder
	for i := range n {
		msg := strings.ReplaceAll(testMbox, "example.com/", fmt.Sprintf("example.com/%d/", i))
		if i%50 == 7 {
			msg = strings.Replace(msg, "\n\n", "\n\n"+strings.Repeat("a long body line http://example.net/long\n", 400), 1)
		}
		if i%50 == 11 {
			msg += ">From the list's archive http://example.com/quoted\n"
		}
		b.WriteString(msg + "\n")
	}
	return b.String()
}

// An mbox file is read through a mapping (its messages lie in it) and
// gives the documents and warnings it gives read with Read: from its
// start, or from an offset in it (standard input at a message), through
// an *os.File or a FileReader, which is told of every byte once, by Read
// or by Mapped; the file is left at its end.
func TestReadMessagesMapped(t *testing.T) {
	t.Run("mbox", func(t *testing.T) { testReadMapped(t, mapList(300), mapList(3)) })
	t.Run("warc", func(t *testing.T) { testReadMapped(t, warcList(300), warcList(3)) })
}

// warcList is a WARC file of n records, some too long to hold.
func warcList(n int) string {
	var b strings.Builder
	for i := range n {
		body := fmt.Sprintf("page %d http://example.com/%d/a\n", i, i)
		if i%50 == 7 {
			body += strings.Repeat("a long line http://example.net/long\n", 200)
		}
		b.WriteString(warcRecord(fmt.Sprint(i), fmt.Sprintf("http://example.org/%d", i), body))
	}
	return b.String()
}

// testReadMapped is TestReadMessagesMapped for the file pre+text, read
// from its start or from pre's end.
func testReadMapped(t *testing.T, text, pre string) {
	for _, max := range []int{0, 4 << 10} {
		for _, p := range []string{"", pre} {
			ref, refWarns, err := readMessages(t, tempFile(t, p, text), Options{NoMap: true}, max)
			if err != nil || len(ref) < 300 {
				t.Fatalf("NoMap: %d documents, %v", len(ref), err)
			}
			cf := &countedFile{f: tempFile(t, p, text)}
			mapped := 0
			opts := Options{Warn: func(Warning) {}}
			err = NewReader(opts).ReadMessages(cf, "in", max, func(m *Message) error {
				if m.mapped != nil {
					mapped++
				}
				m.Release()
				return nil
			})
			if !mapfile.Mappable(cf.f) {
				t.Skip("files are not mapped into memory here")
			}
			if err != nil || mapped < 300 {
				t.Fatalf("max %d, from %d: %d messages in the mapping, %v", max, len(p), mapped, err)
			}
			if cf.read+cf.mapped != int64(len(text)) || cf.mapped == 0 {
				t.Errorf("max %d, from %d: read %d, mapped %d, want %d in all", max, len(p), cf.read, cf.mapped, len(text))
			}
			if at, _ := cf.f.Seek(0, io.SeekCurrent); at != int64(len(p)+len(text)) {
				t.Errorf("max %d, from %d: the file left at %d, want its end %d", max, len(p), at, len(p)+len(text))
			}
			for name, r := range map[string]io.Reader{
				"os.File":    tempFile(t, p, text),
				"FileReader": &countedFile{f: tempFile(t, p, text)},
			} {
				got, warns, err := readMessages(t, r, Options{}, max)
				if err != nil || !reflect.DeepEqual(got, ref) || !reflect.DeepEqual(warns, refWarns) {
					t.Errorf("max %d, from %d, %s: %d documents, %d warnings, %v; want %d, %d", max, len(p), name, len(got), len(warns), err, len(ref), len(refWarns))
				}
			}
		}
	}
}

// A mapped mbox file that shrinks while its messages are read ends the
// reading with a MapFaultError, no crash (a fault in a mapping is
// SIGBUS): of the MessageReader of each held message past the cut, and of
// ReadMessages when its splitter gets there. The messages before the
// cut are read as from the whole file.
func TestReadMessagesMappedShrinks(t *testing.T) {
	text := mapList(2000)
	f := tempFile(t, "", text)
	if !mapfile.Mappable(f) {
		t.Skip("files are not mapped into memory here")
	}
	// The documents of each message, read whole before the cut.
	want := map[int]int{}
	var rw MessageReader
	if err := NewReader(Options{NoMap: true}).ReadMessages(tempFile(t, "", text), "in", 0, func(m *Message) error {
		defer m.Release()
		return rw.Documents(m, func(*Document) error { want[m.Origin.Message]++; return nil })
	}); err != nil {
		t.Fatal(err)
	}
	var held []*Message
	var cut int64
	var w MessageReader
	var walkErrs []error
	docs := map[int]int{} // by message number
	walk := func(m *Message) {
		err := w.Documents(m, func(d *Document) error {
			io.Copy(io.Discard, d.Body)
			docs[m.Origin.Message]++
			return nil
		})
		m.Release()
		if err != nil {
			var fault *MapFaultError
			if !asFault(err, &fault) || fault.Offset < cut&^4095 {
				t.Fatalf("message %d at %d: %v, want a MapFaultError past %d", m.Origin.Message, m.Origin.MessageOffset, err, cut)
			}
			walkErrs = append(walkErrs, err)
		}
	}
	err := NewReader(Options{}).ReadMessages(f, "in", 0, func(m *Message) error {
		held = append(held, m)
		if len(held) == 200 {
			// The file cut in the middle of the messages held.
			cut = held[100].Origin.MessageOffset
			if err := os.Truncate(f.Name(), cut); err != nil {
				t.Fatal(err)
			}
			for _, m := range held {
				walk(m)
			}
		}
		if len(held) > 200 {
			walk(m)
		}
		return nil
	})
	var fault *MapFaultError
	if !asFault(err, &fault) {
		t.Fatalf("ReadMessages: %v, want a MapFaultError", err)
	}
	if len(walkErrs) < 90 {
		t.Errorf("%d held messages past the cut gave a MapFaultError, want 99 or so", len(walkErrs))
	}
	for i := 1; i <= 100; i++ {
		if docs[i] != want[i] || want[i] == 0 {
			t.Errorf("message %d, before the cut: %d documents, want %d", i, docs[i], want[i])
		}
	}
}

func asFault(err error, f **MapFaultError) bool {
	e, ok := err.(*MapFaultError)
	*f = e
	return ok
}

// Reading a large mbox file through its mapping keeps few of its pages
// resident: those of the messages not yet released, and the window being
// read (8 MiB), not the whole file.
func TestReadMessagesMappedPagesLetGo(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB")
	}
	text := mapList(1)
	text = strings.Repeat(text, (64<<20)/len(text))
	f := tempFile(t, "", text)
	if !mapfile.Mappable(f) {
		t.Skip("files are not mapped into memory here")
	}
	base := mapfile.ResidentFile()
	if base < 0 {
		t.Skip("no RssFile in /proc/self/status")
	}
	var most int64
	var held []*Message
	n := 0
	err := NewReader(Options{}).ReadMessages(f, "in", 0, func(m *Message) error {
		// Released 100 messages later, as the workers do.
		if held = append(held, m); len(held) > 100 {
			held[0].Release()
			held = held[1:]
		}
		if n++; n%512 == 0 {
			most = max(most, mapfile.ResidentFile())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range held {
		m.Release()
	}
	grew := most - base
	t.Logf("file pages resident: %d MiB at most over %d MiB before, reading %d MiB", grew>>20, base>>20, len(text)>>20)
	if grew > 24<<20 {
		t.Errorf("file pages resident grew by %d MiB reading a file of %d MiB", grew>>20, len(text)>>20)
	}
}

// What a caller keeps of a document (its Origin's strings, an HTML
// attribute's Value) stays as it was after the message is released, its
// block or buffer reused for others and the mapping of its file gone.
func TestKeptStringsOutliveMessages(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <%d.%s@example.org>\nContent-Type: text/html; charset=iso-8859-%d\nContent-Base: http://example.com/%d/\n\n<a href=\"page%d\">x</a> <a href=\"\">y</a> http://example.net/%d\n\n", i, strings.Repeat("m", i%40), 1+i%2, i, i, i)
		if i%100 == 0 {
			fmt.Fprintf(&b, "From x Mon Jan  1 00:00:00 2024\nMessage-ID:\n <%d.folded@example.org>\n\n>From quoted http://example.com/q%d\n\n", i, i)
		}
	}
	text := b.String()
	keep := func(d *Document) string {
		return fmt.Sprintf("%d %q %q %q %q", d.Origin.Message, d.Origin.MessageID, d.Field, d.Value, d.Tag)
	}
	var want []string
	if err := NewReader(Options{}).Read(strings.NewReader(text), "in", func(d *Document) error {
		want = append(want, keep(d))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]func() io.Reader{
		"file":   func() io.Reader { return tempFile(t, "", text) },
		"stream": func() io.Reader { return strings.NewReader(text) },
	} {
		var got []*Document
		var w MessageReader
		err := NewReader(Options{}).ReadMessages(r(), "in", 0, func(m *Message) error {
			defer m.Release()
			return w.Documents(m, func(d *Document) error {
				c := *d
				c.Body = nil
				got = append(got, &c)
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		if len(got) != len(want) {
			t.Fatalf("%s: %d documents, want %d", name, len(got), len(want))
		}
		for i, d := range got {
			if s := keep(d); s != want[i] {
				t.Fatalf("%s: document %d kept as %s, want %s", name, i, s, want[i])
			}
		}
	}
}
