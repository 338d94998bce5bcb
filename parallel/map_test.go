package parallel

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/urix-dev/urix/extract"
)

// truncating is a Formatter that cuts its file to size at the first URI
// it formats: the file shrinks as Split reads it.
type truncating struct {
	lineFormat
	once *sync.Once
	path string
	size int64
}

func (f truncating) AppendMatch(b []byte, m *extract.Match) ([]byte, int) {
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
	want, _ := sequential(text, extract.Options{NoLines: true}, lineFormat{})
	for _, cut := range []int64{1 << 20, 3<<20 + 1000} {
		for _, workers := range []int{1, 2, 4} {
			f := textFile(t, text)
			if m := mapFile(f, int64(len(text))); m == nil {
				t.Skip("files are not mapped into memory here")
			} else {
				unmapFile(m)
			}
			format := truncating{once: new(sync.Once), path: f.Name(), size: cut}
			s := Split{Workers: workers, Options: extract.Options{NoLines: true}, Format: format}
			got, _, err := splitFrom(f, int64(len(text)), s)
			var fault *MapFaultError
			if !errors.As(err, &fault) || fault.Offset < cut || !strings.Contains(err.Error(), "shrank") {
				t.Fatalf("cut at %d, %d workers: error %v, want a fault past the cut", cut, workers, err)
			}
			// All the URIs that end before the cut's page, then maybe a
			// few of those that workers read before the cut was made.
			last := strings.LastIndex(text[:cut&^4095], "\n")
			before, _ := sequential(text[:last], extract.Options{NoLines: true}, lineFormat{})
			if !strings.HasPrefix(want, got) || !strings.HasPrefix(got, before) {
				t.Fatalf("cut at %d, %d workers: %d bytes of output, not a prefix of the whole file's holding the %d bytes before the cut", cut, workers, len(got), len(before))
			}
		}
	}
}
