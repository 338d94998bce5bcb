package extract

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urix-dev/urix/internal/scan"
)

var goSrc = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	root := filepath.Join(goRoot(), "src")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			if b, err := os.ReadFile(path); err == nil {
				buf.Write(b)
			}
		}
		return nil
	})
	return buf.Bytes()
})

// BenchmarkGoSource extracts the URIs of every .go file of GOROOT/src,
// read into memory once.
func BenchmarkGoSource(b *testing.B) {
	src := goSrc()
	if len(src) == 0 {
		b.Skip("no GOROOT sources")
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		s := NewScanner(bytes.NewReader(src), Options{})
		for s.Scan() {
			n++
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "uris/op")
}

// BenchmarkScanGoSource is the scanner alone over the same text.
func BenchmarkScanGoSource(b *testing.B) {
	src := goSrc()
	if len(src) == 0 {
		b.Skip("no GOROOT sources")
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s := scan.New(bytes.NewReader(src), scan.Config{})
		for s.Scan() {
		}
	}
}

// synthetic is prose with a URI every few hundred bytes, in each context.
func synthetic(size int) []byte {
	parts := []string{
		"Lorem ipsum dolor sit amet, consectetur adipiscing elit: see ",
		"http://example.com/a/b?c=d#e. ",
		"Sed do eiusmod (tempor http://en.wikipedia.org/wiki/Foo_(bar)) incididunt at 10:30, ",
		"ut labore <URL:http://www.example.org/some/long/\n    path/here.html> et dolore;\n",
		"> quoted <https://example.net/x-\n> y/z> magna \"mailto:a@b.example\" aliqua.\n",
		"Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip.\n",
	}
	var buf bytes.Buffer
	for buf.Len() < size {
		for _, p := range parts {
			buf.WriteString(p)
		}
	}
	return buf.Bytes()[:size]
}

func BenchmarkSynthetic(b *testing.B) {
	src := synthetic(16 << 20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewScanner(bytes.NewReader(src), Options{})
		for s.Scan() {
		}
	}
}

// The scanner allocates nothing per input byte, and a small constant per
// URI found.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	scanAllocs := func(in []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			s := scan.New(bytes.NewReader(in), scan.Config{})
			for s.Scan() {
			}
		})
	}
	noURI := func(n int) []byte {
		return []byte(strings.Repeat("plain text: no URI here, at 10:30 <not> \"quoted\" (x) [y]\n", n))
	}
	small, big := scanAllocs(noURI(100)), scanAllocs(noURI(100000))
	t.Logf("scanner, no URIs: %.0f allocs for 5 KiB, %.0f for 5 MiB", small, big)
	// The buffer starts at 8 KiB, doubles to 64 KiB and then takes its
	// largest size as the input shows itself large: 4 allocations.
	if big > small+2+5 {
		t.Errorf("allocations grow with the input: %.0f for 5 KiB, %.0f for 5 MiB", small, big)
	}
	withURIs := func(n int) []byte {
		return []byte(strings.Repeat("see <http://example.com/a/\n b> and (http://x.example/y) \"http://q/\n r\". ", n))
	}
	u1, u2 := scanAllocs(withURIs(1000)), scanAllocs(withURIs(100000))
	t.Logf("scanner, 3 URIs per line: %.0f allocs for 3000 URIs, %.0f for 300000", u1, u2)
	if u2 > u1+10 {
		t.Errorf("scanner allocations grow with the URIs: %.0f, %.0f", u1, u2)
	}
	// The library makes the strings of the matches into chunks of a few
	// KiB (Scanner.strs): far less than an allocation per URI.
	libAllocs := func(in []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			s := NewScanner(bytes.NewReader(in), Options{})
			for s.Scan() {
			}
		})
	}
	l0, l1 := libAllocs(noURI(100000)), libAllocs(withURIs(10000))
	perURI := (l1 - l0) / 30000
	t.Logf("extract: %.0f allocs with no URIs (5 MiB), %.2f per URI", l0, perURI)
	if l0 > small+10 || perURI > 0.1 {
		t.Errorf("extract allocates %.0f with no URIs, %.2f per URI", l0, perURI)
	}
}

// adversarial are the worst-case inputs of issue #17, those of
// bench/adversarial.sh: long runs of one pattern that makes each few bytes
// a candidate, or the start of one that validation throws away.
var adversarial = []struct{ name, pat string }{
	{"angle-open", "<http://"},
	{"quote-open", "\"http://"},
	{"scheme", "http://"},
	{"a-at", "a@"},
	{"at", "@"},
	{"www", "www."},
	{"angle-hyphen-eol", "<http://a/b-\n"},
	{"quote-prefix", "> > > > > see <http://example.com/a/\n"},
	{"colon", "a:"},
	{"lt", "<"},
	{"paren", "("},
	{"percent", "%"},
	{"bracket", "["},
	{"hyphen-eol", "a-\n"},
	{"url-prefix", "<URL:"},
	// Beyond the list: valid URIs packed as tight as they go,
	// each one validated and normalized.
	{"dense-http", "http://a/b "},
	{"dense-angle", "<http://a/b>"},
	{"dense-www", "www.a.com "},
	{"dense-email", "a@b.com "},
}

// BenchmarkAdversarial extracts 10 MiB of each adversarial input with
// --email and --www and no line numbers, as bench/adversarial.sh runs the
// CLI (urix -c), beside
// ordinary text (synthetic) for the ratio the issue asks for: a tenth of
// the speed on ordinary text at least.
func BenchmarkAdversarial(b *testing.B) {
	const size = 10 << 20
	inputs := []struct {
		name string
		data []byte
	}{{"text", synthetic(size)}}
	for _, a := range adversarial {
		inputs = append(inputs, struct {
			name string
			data []byte
		}{a.name, []byte(strings.Repeat(a.pat, size/len(a.pat)))})
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				s := NewScanner(bytes.NewReader(in.data), Options{Email: true, WWW: true, NoLines: true})
				for s.Scan() {
					n++
				}
			}
			b.ReportMetric(float64(n)/float64(b.N), "uris/op")
		})
	}
}

// goRoot is the root of the Go installation that runs the tests (the
// source of the Go benchmark corpus), as "go env GOROOT" says.
func goRoot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
