package extract

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/urix-dev/urix/internal/mapfile"
)

// truncating is a Formatter that cuts its file to size at the first URI
// it formats: the file shrinks as Split reads it.
type truncating struct {
	lineFormat
	once *sync.Once
	path string
	size int64
}

func (f truncating) AppendMatch(b []byte, m *Match) ([]byte, int) {
	f.once.Do(func() {
		if err := os.Truncate(f.path, f.size); err != nil {
			panic(err)
		}
	})
	return f.lineFormat.AppendMatch(b, m)
}

// A mapped file that shrinks while it is read ends where its pages end,
// with an error that says so, as a read error would end it: no crash
// (a fault in a mapping is SIGBUS), and the URIs before the cut are all
// written, in order, as from the whole file.
func TestSplitMappedFileShrinks(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 12<<20; i++ {
		fmt.Fprintf(&b, "line %d http://example.com/%d and more text\n", i, i)
	}
	text := b.String()
	want, _ := sequential(text, Options{NoLines: true}, lineFormat{})
	for _, cut := range []int64{1 << 20, 3<<20 + 1000} {
		for _, workers := range []int{1, 2, 4} {
			f := textFile(t, text)
			if !mapfile.Mappable(f) {
				t.Skip("files are not mapped into memory here")
			}
			format := truncating{once: new(sync.Once), path: f.Name(), size: cut}
			s := Split{Workers: workers, Options: Options{NoLines: true}, Format: format}
			got, _, err := splitFrom(f, int64(len(text)), s)
			var fault *mapfile.FaultError
			if !errors.As(err, &fault) || fault.Offset < cut || !strings.Contains(err.Error(), "shrank") {
				t.Fatalf("cut at %d, %d workers: error %v, want a fault past the cut", cut, workers, err)
			}
			// All the URIs that end before the cut's page, then maybe a
			// few of those that workers read before the cut was made.
			last := strings.LastIndex(text[:cut&^4095], "\n")
			before, _ := sequential(text[:last], Options{NoLines: true}, lineFormat{})
			if !strings.HasPrefix(want, got) || !strings.HasPrefix(got, before) {
				t.Fatalf("cut at %d, %d workers: %d bytes of output, not a prefix of the whole file's holding the %d bytes before the cut", cut, workers, len(got), len(before))
			}
		}
	}
}

// rssSampler is a Formatter that notes the most file pages resident while
// Split reads, every few hundred URIs.
type rssSampler struct {
	lineFormat
	n, most *atomic.Int64
}

func (f rssSampler) AppendMatch(b []byte, m *Match) ([]byte, int) {
	if f.n.Add(1)%256 == 0 {
		if r := mapfile.ResidentFile(); r > f.most.Load() {
			f.most.Store(r)
		}
	}
	return f.lineFormat.AppendMatch(b, m)
}

// The pages of a mapped file are let go as the join passes them: the
// resident pages of the file stay a few chunks' worth, not the file's
// size (README: memory; behaviour §1).
func TestSplitMappedPagesLetGo(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 48 MiB")
	}
	var b strings.Builder
	for i := 0; b.Len() < 48<<20; i++ {
		fmt.Fprintf(&b, "line %d of text with http://example.com/%d in it\n", i, i)
	}
	text := b.String()
	f := textFile(t, text)
	if !mapfile.Mappable(f) {
		t.Skip("files are not mapped into memory here")
	}
	base := mapfile.ResidentFile()
	if base < 0 {
		t.Skip("no RssFile in /proc/self/status")
	}
	var n, most atomic.Int64
	s := Split{Workers: 2, Options: Options{NoLines: true}, Format: rssSampler{n: &n, most: &most}}
	if _, _, err := splitFrom(f, int64(len(text)), s); err != nil {
		t.Fatal(err)
	}
	grew := most.Load() - base
	t.Logf("file pages resident: %d MiB at most over %d MiB before, reading %d MiB", grew>>20, base>>20, len(text)>>20)
	if grew > 16<<20 {
		t.Errorf("file pages resident grew by %d MiB reading a file of %d MiB", grew>>20, len(text)>>20)
	}
}
