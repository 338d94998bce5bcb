// Benchmarks of package extract beside mvdan.cc/xurls/v2 (Strict and Relaxed)
// and a bytes.Count(':') floor, on the same inputs.
//
// Inputs: "synthetic" (4 MiB made here, always present) and, when
// URIX_CORPUS names a corpus built by shared/bench/mkcorpus.sh, its slices
// text-1m, text-8m, text-32m, mail-8m and the whole text.txt ("text").
// xurls runs at about 1 MB/s, so it runs on inputs over 8 MiB only with
// URIX_BENCH_ALL=1.
//
//	URIX_CORPUS=/tmp/urix-corpus go test -bench . -benchmem
package bench

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/scan"
	"mvdan.cc/xurls/v2"
)

type input struct {
	name string
	file string // "" for the synthetic input
}

// slowMax is the largest input given to the slow peers (xurls) unless
// URIX_BENCH_ALL=1.
const slowMax = 8<<20 + 1<<20

var inputs = []input{
	{name: "synthetic"},
	{name: "text-1m", file: "text-1m.txt"},
	{name: "text-8m", file: "text-8m.txt"},
	{name: "text-32m", file: "text-32m.txt"},
	{name: "mail-8m", file: "mail-8m.txt"},
	{name: "text", file: "text.txt"},
}

var (
	dataMu sync.Mutex
	data   = map[string][]byte{}
)

// load returns the bytes of in, or skips b when the corpus is absent.
func load(tb testing.TB, in input) []byte {
	tb.Helper()
	dataMu.Lock()
	defer dataMu.Unlock()
	if d, ok := data[in.name]; ok {
		return d
	}
	var d []byte
	if in.file == "" {
		d = synthetic(4 << 20)
	} else {
		dir := os.Getenv("URIX_CORPUS")
		if dir == "" {
			tb.Skip("URIX_CORPUS not set (see shared/bench/mkcorpus.sh)")
		}
		var err error
		d, err = os.ReadFile(filepath.Join(dir, in.file))
		if os.IsNotExist(err) {
			tb.Skipf("%s not in the corpus", in.file)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	data[in.name] = d
	return d
}

// synthetic makes about n bytes of prose-like text, deterministic, with
// URIs in the usual wrappers and many ':' that start no URI (times, labels,
// Windows paths), at roughly the density of the real corpus.
func synthetic(n int) []byte {
	r := rand.New(rand.NewPCG(5, 2025))
	words := strings.Fields(`the of and to in is that for it as with was on be by
		this are or from at which an not have has but all were when there can
		been more one if will their also into only other new some could these
		server client option value default file line buffer input output read`)
	uris := []string{
		"http://example.com/", "https://www.example.org/path/to/page.html",
		"https://example.net/search?q=urix&lang=en#top", "ftp://ftp.example.com/pub/file.tar.gz",
		"mailto:someone@example.com", "https://en.wikipedia.org/wiki/Foo_(bar)",
		"http://[2001:db8::1]:8080/a/b", "https://bugs.debian.org/123456",
		"urn:isbn:0451450523", "http://xn--bcher-kva.example/ü/ß",
	}
	var b bytes.Buffer
	col := 0
	for b.Len() < n {
		var tok string
		switch k := r.IntN(100); {
		case k < 2:
			u := uris[r.IntN(len(uris))]
			switch r.IntN(5) {
			case 0:
				tok = "<" + u + ">"
			case 1:
				tok = "(see " + u + ")."
			case 2:
				tok = `"` + u + `",`
			default:
				tok = u
			}
		case k < 4:
			tok = fmt.Sprintf("%02d:%02d:%02d", r.IntN(24), r.IntN(60), r.IntN(60))
		case k < 5:
			tok = "Note:"
		case k < 6:
			tok = `C:\Program Files\x`
		default:
			tok = words[r.IntN(len(words))]
		}
		if col+len(tok) > 72 {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(tok)
		col += len(tok)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

var sink int

func runExtract(tb testing.TB, d []byte, opts extract.Options) int {
	n := 0
	for m, err := range extract.All(bytes.NewReader(d), opts) {
		if err != nil {
			tb.Fatal(err)
		}
		n += len(m.URI)
	}
	return n
}

func benchEach(b *testing.B, slow bool, f func(b *testing.B, d []byte)) {
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			d := load(b, in)
			if slow && len(d) > slowMax && os.Getenv("URIX_BENCH_ALL") != "1" {
				b.Skip("slow peer on an input over 8 MiB: set URIX_BENCH_ALL=1")
			}
			b.SetBytes(int64(len(d)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				f(b, d)
			}
		})
	}
}

// BenchmarkExtract: extract.All with the default options (what `urix` does).
func BenchmarkExtract(b *testing.B) {
	benchEach(b, false, func(b *testing.B, d []byte) { sink += runExtract(b, d, extract.Options{}) })
}

// BenchmarkExtractNoLines: the same without line and column counting.
func BenchmarkExtractNoLines(b *testing.B) {
	benchEach(b, false, func(b *testing.B, d []byte) { sink += runExtract(b, d, extract.Options{NoLines: true}) })
}

// BenchmarkScan: the streaming scanner alone (package scan), no
// validation, no line counting: where the time of BenchmarkExtractNoLines
// goes before extract's share.
func BenchmarkScan(b *testing.B) {
	benchEach(b, false, func(b *testing.B, d []byte) {
		s := scan.New(bytes.NewReader(d), scan.Config{NoLines: true})
		for s.Scan() {
			sink += len(s.Candidate().Text)
		}
	})
}

// BenchmarkXurlsStrict: xurls.Strict().FindAllIndex over the whole input.
func BenchmarkXurlsStrict(b *testing.B) {
	rx := xurls.Strict()
	benchEach(b, true, func(b *testing.B, d []byte) { sink += len(rx.FindAllIndex(d, -1)) })
}

// BenchmarkXurlsRelaxed: xurls.Relaxed().FindAllIndex over the whole input.
func BenchmarkXurlsRelaxed(b *testing.B) {
	rx := xurls.Relaxed()
	benchEach(b, true, func(b *testing.B, d []byte) { sink += len(rx.FindAllIndex(d, -1)) })
}

// BenchmarkFloor: bytes.Count(':') over 64 KiB chunks, the floor.
func BenchmarkFloor(b *testing.B) {
	benchEach(b, false, func(b *testing.B, d []byte) {
		for i := 0; i < len(d); i += 64 << 10 {
			sink += bytes.Count(d[i:min(i+64<<10, len(d))], []byte{':'})
		}
	})
}

// tinyReader returns at most n bytes per Read.
type tinyReader struct {
	r io.Reader
	n int
}

func (t tinyReader) Read(p []byte) (int, error) {
	if len(p) > t.n {
		p = p[:t.n]
	}
	return t.r.Read(p)
}

// TestTinyReads: the matches do not depend on how the input is cut into
// reads (the synthetic input, and text-1m when the corpus is there).
func TestTinyReads(t *testing.T) {
	for _, in := range inputs[:2] {
		t.Run(in.name, func(t *testing.T) {
			d := load(t, in)
			collect := func(r io.Reader) []extract.Match {
				var ms []extract.Match
				for m, err := range extract.All(r, extract.Options{}) {
					if err != nil {
						t.Fatal(err)
					}
					m.Raw = nil
					ms = append(ms, m)
				}
				return ms
			}
			want := collect(bytes.NewReader(d))
			if len(want) == 0 {
				t.Fatal("no URI found")
			}
			for _, n := range []int{997, 4093} {
				got := collect(tinyReader{bytes.NewReader(d), n})
				if len(got) != len(want) {
					t.Fatalf("reads of %d: %d matches, want %d", n, len(got), len(want))
				}
				for i := range want {
					if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
						t.Fatalf("reads of %d: match %d = %+v, want %+v", n, i, got[i], want[i])
					}
				}
			}
		})
	}
}
