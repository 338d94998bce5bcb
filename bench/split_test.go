// Benchmarks of split reading (package parallel): one file read by several
// workers, as `urix -c FILE` reads a large plain-text file. The input is
// held in memory (a bytes.Reader as the io.ReaderAt), so the figures are
// of the scanners and the joins, without the kernel's copy.
//
//	URIX_CORPUS=/tmp/urix-corpus go test -bench Split -benchmem
package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/urix-dev/urix/extract"
)

// countFormat selects every URI and formats none: what -c asks of split
// reading.
type countFormat struct{}

func (countFormat) Selects(*extract.Match) bool { return true }
func (countFormat) AppendMatch(b []byte, _ *extract.Match) ([]byte, int) {
	return b, -1
}
func (countFormat) AppendPosition(b []byte, _, _ int64) []byte { return b }

// lineFormat writes each URI on a line: the plain output.
type lineFormat struct{}

func (lineFormat) Selects(*extract.Match) bool { return true }
func (lineFormat) AppendMatch(b []byte, m *extract.Match) ([]byte, int) {
	return append(append(b, m.URI...), '\n'), -1
}
func (lineFormat) AppendPosition(b []byte, _, _ int64) []byte { return b }

// BenchmarkSplit: text.txt (synthetic without the corpus) on 1 and 2
// workers, counted and printed. MB/s are of the input's bytes.
func BenchmarkSplit(b *testing.B) {
	for _, in := range []input{{name: "synthetic"}, textInput} {
		for _, format := range []struct {
			name string
			f    extract.Formatter
		}{{"count", countFormat{}}, {"plain", lineFormat{}}} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/j%d", in.name, format.name, workers), func(b *testing.B) {
					data := load(b, in)
					src := bytes.NewReader(data)
					var want int64 = -1
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						s := extract.Split{Workers: workers, Options: extract.Options{NoLines: true}, Format: format.f}
						c, err := s.Read(io.Discard, src, int64(len(data)))
						if err != nil {
							b.Fatal(err)
						}
						if want >= 0 && c.Found != want {
							b.Fatalf("%d URIs, %d the first time", c.Found, want)
						}
						want = c.Found
					}
				})
			}
		}
	}
}

// BenchmarkSplitFile: the corpus's text.txt as a file, counted, as urix -c
// reads it: mapped into memory, and read with ReadAt (NoMap, as before
// session 14), on 1 and 2 workers.
func BenchmarkSplitFile(b *testing.B) {
	dir := os.Getenv("URIX_CORPUS")
	if dir == "" {
		b.Skip("URIX_CORPUS not set (see shared/bench/mkcorpus.sh)")
	}
	f, err := os.Open(filepath.Join(dir, textInput.file))
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	for _, noMap := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			name := fmt.Sprintf("mapped/j%d", workers)
			if noMap {
				name = fmt.Sprintf("read/j%d", workers)
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(fi.Size())
				b.ReportAllocs()
				for b.Loop() {
					s := extract.Split{Workers: workers, NoMap: noMap, Options: extract.Options{NoLines: true}, Format: countFormat{}}
					if _, err := s.Read(io.Discard, f, fi.Size()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
