package scan

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// prose is ordinary text with a URI, an address and a "www." host every few
// hundred bytes, in each context, repeated up to size bytes.
func prose(size int) []byte {
	parts := []string{
		"Lorem ipsum dolor sit amet, consectetur adipiscing elit: see ",
		"http://example.com/a/b?c=d#e. Mail jane.doe@example.org or ",
		"Sed do eiusmod (tempor http://en.wikipedia.org/wiki/Foo_(bar)) incididunt at 10:30, ",
		"ut labore <URL:http://www.example.org/some/long/\n    path/here.html> et dolore;\n",
		"> quoted <https://example.net/x-\n> y/z> magna \"mailto:a@b.example\" aliqua.\n",
		"Re: Tel: +1 555 0100, visit www.example.com today; READ_DATA:ALLOW a=mid:1\n",
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

// runs are the inputs of issue #17: long runs of the optional anchors,
// where a look-back from each one would cost quadratic time.
var runs = []struct{ name, pat string }{
	{"at", "@"},
	{"a-at", "a@"},
	{"www", "www."},
	{"word-at", "john.smith@"},
	{"colon", "a:"},
	{"under-scheme", "x_http://"},
	{"lt", "<"},
	{"paren", "("},
	{"percent", "%"},
	{"bracket", "["},
	{"quote", "\""},
	{"hyphen-eol", "a-\n"},
	{"angle-hyphen-eol", "<http://a/b-\n"},
	{"angle-open", "<http://"},
	{"quote-open", "\"http://"},
	{"scheme", "http://"},
	{"paren-url", "http://a/(b"},
	{"quote-prefix", "> > > > > > > > > > see <http://example.com/a/\n"},
	{"deep-quote", strings.Repeat(">", 10000) + " <http://example.com/a/\n"},
	{"url-prefix", "<URL:"},
}

const benchSize = 10 << 20

// BenchmarkScan: the scanner over ordinary text and over 10 MB runs of
// '@' and "www." (issue #17), with --email and --www on, so that the MB/s
// of the runs compare with that of text.
func BenchmarkScan(b *testing.B) {
	inputs := []struct {
		name string
		data []byte
	}{{"prose", prose(benchSize)}}
	for _, r := range runs {
		inputs = append(inputs, struct {
			name string
			data []byte
		}{r.name, []byte(strings.Repeat(r.pat, benchSize/len(r.pat)))})
	}
	for _, in := range inputs {
		for _, opt := range []struct {
			name string
			cfg  Config
		}{{"default", Config{}}, {"email-www", Config{Email: true, WWW: true}}} {
			b.Run(in.name+"/"+opt.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					s := New(bytes.NewReader(in.data), opt.cfg)
					for s.Scan() {
						n++
					}
				}
				b.ReportMetric(float64(n)/float64(b.N), "cands/op")
			})
		}
	}
}

// BenchmarkCorpusFile scans the file named by $URIX_BENCH_FILE (a slice of
// the benchmark corpus, /tmp/urix-corpus/text-32m.txt say), read into
// memory once, with line counting on: the hot path on ordinary text.
// Skipped when the variable is not set.
func BenchmarkCorpusFile(b *testing.B) { benchCorpusFile(b, Config{}) }

// BenchmarkCorpusFileNoLines is BenchmarkCorpusFile with Config.NoLines,
// as the CLI scans when it prints no position.
func BenchmarkCorpusFileNoLines(b *testing.B) { benchCorpusFile(b, Config{NoLines: true}) }

func benchCorpusFile(b *testing.B, cfg Config) {
	name := os.Getenv("URIX_BENCH_FILE")
	if name == "" {
		b.Skip("URIX_BENCH_FILE not set")
	}
	src, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		s := New(bytes.NewReader(src), cfg)
		for s.Scan() {
		}
	}
}

// BenchmarkReset: a Reset to a short input, as each header field of a
// message (a document of its own) costs one.
func BenchmarkReset(b *testing.B) {
	var r strings.Reader
	s := New(&r, Config{})
	for b.Loop() {
		r.Reset("<https://lists.example.org/archive/x>")
		s.Reset(&r)
	}
}
