package pipeline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/klauspost/compress/gzip"
	"github.com/urix-dev/urix/uri"
)

// TestMain runs the pipelines of the tests on prism, in this process, and
// removes the CLI that the tests built.
func TestMain(m *testing.M) {
	status := ptest.MainRetWithDefault(m, "prism")
	if cliPath != "" {
		os.RemoveAll(filepath.Dir(cliPath))
	}
	os.Exit(status)
}

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

// urixCLI builds the urix command of the main module (the parent
// directory of this module) once for the test run.
func urixCLI(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "urix-beam-cli")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "urix")
		cmd := exec.Command("go", "build", "-o", cliPath, ".")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			cliErr = err
			t.Logf("%s", out)
		}
	})
	if cliErr != nil {
		t.Fatalf("building urix: %v", cliErr)
	}
	return cliPath
}

// runCLI runs urix --json -H over files with args and returns its stdout
// lines and its stderr lines without the "urix: " prefix, each sorted.
func runCLI(t *testing.T, files []string, args ...string) (stdout, stderr []string) {
	t.Helper()
	cmd := exec.Command(urixCLI(t), append(append([]string{"--json", "-H"}, args...), files...)...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	for _, l := range lines(errs.String()) {
		stderr = append(stderr, strings.TrimPrefix(l, "urix: "))
	}
	slices.Sort(stderr)
	stdout = lines(out.String())
	slices.Sort(stdout)
	return stdout, stderr
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// readOutput reads the files of one output, which must be a whole set
// (PREFIX.KIND-i-of-N for each i below N, no other, and no temporary
// file left), each compressed as c says, and returns their lines,
// sorted.
func readOutput(t *testing.T, prefix, kind string, c Compression) []string {
	t.Helper()
	names, err := filepath.Glob(base(prefix, kind) + "-*")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatalf("%s: no files", base(prefix, kind))
	}
	n := len(names)
	var all []string
	for i := range n {
		name := ShardName(prefix, kind, i, n, c)
		if !slices.Contains(names, name) {
			t.Fatalf("%s: not among %q", name, names)
		}
		all = append(all, lines(readFile(t, name, c))...)
	}
	if left, _ := filepath.Glob(tempDir(prefix, kind) + "*"); len(left) > 0 {
		t.Errorf("left behind: %q", left)
	}
	slices.Sort(all)
	return all
}

// readFile reads a file of the outputs, which must be gzip unless c is
// None.
func readFile(t *testing.T, name string, c Compression) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if c == None {
		return string(data)
	}
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	plain, err := io.ReadAll(z)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(plain)
}

// TestSameAsCLI runs the pipeline on prism over a collection of every kind
// of input, hostile ones among them (a truncated gzip file, a corrupt
// member, a huge xz window, a bad WARC Content-Length, a dangling link, a
// path that names nothing, a directory), and wants, for each set of
// flags, given to both, the results to be the lines of `urix --json`
// over the same files, byte for byte (sorted: the shards hold them in no
// order), the errors output to be the lines the CLI says on stderr, and
// every count to be the count of the CLI's lines. The files are given
// as patterns, as an input list (gzip, entries relative to a prefix), or
// as "DIR/**", which is the CLI's -r DIR. Most sets read the mbox and
// WARC files in small ranges (ranges.go): the hostile ones among them
// (the corrupt member in the middle of a WARC file, an mbox gzipped a
// member a message and truncated, the bad Content-Length) too.
func TestSameAsCLI(t *testing.T) {
	dir := t.TempDir()
	writeCollection(t, dir)
	patterns := []string{filepath.Join(dir, "*"), filepath.Join(dir, "sub", "*.txt"), filepath.Join(dir, "vanished.txt")}
	var files []string
	for _, p := range patterns {
		m, _ := filepath.Glob(p)
		if len(m) == 0 {
			m = []string{p} // as the shell gives a word that matches nothing
		}
		files = append(files, m...)
	}
	list := filepath.Join(t.TempDir(), "paths.gz")
	entries := []string{"# the collection, relative to its directory", ""}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		entries = append(entries, rel)
	}
	if err := os.WriteFile(list, gzipMembers(t, strings.Join(entries, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The mbox and WARC files of the collection are read in ranges of
	// about rangeBytes (1: a range a message or record), as many as
	// minRanges at least; 0 is the default, larger than any of them:
	// read whole.
	tests := []struct {
		name       string
		flags      []string
		inputs     string // "": patterns; "list": an input list; "walk": DIR/**
		compress   Compression
		rangeBytes int64
		minRanges  int64
	}{
		{"default", nil, "", "", 0, 0},
		{"plain", nil, "", None, 1, 300},
		{"www-email-hyphen-both-embedded", []string{"--www", "--email", "--hyphen", "both", "--embedded"}, "list", "", 4 << 10, 25},
		{"invalid", []string{"--invalid", "--any-scheme", "--exclude=*.md", "--include=*.*"}, "walk", "", 1, 300},
		{"ascii-schemes", []string{"--ascii", "--scheme", "http,https", "--scheme=mailto", "--max-length", "200"}, "", "", 16 << 10, 6},
		{"format-text", []string{"--format=text", "--hyphen=drop", "--bare-break", "both", "--text"}, "walk", "", 1, 0},
		// A window smaller than the zstd file's: an error of the CLI's.
		{"max-window-warnings", []string{"--max-window=1K", "--warnings", "--fold-width", "--normalize"}, "", "", 1 << 10, 90},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out", "res")
			c := Config{Inputs: patterns, Output: out, Flags: tt.flags, Compress: tt.compress, Top: 7, RangeBytes: tt.rangeBytes}
			cliFiles := files
			switch tt.inputs {
			case "list":
				c.Inputs, c.InputLists, c.InputPrefix = nil, []string{list}, dir
			case "walk":
				c.Inputs, cliFiles = []string{filepath.Join(dir, "**")}, []string{"-r", dir}
			}
			p, s := beam.NewPipelineWithRoot()
			if err := Build(s, c); err != nil {
				t.Fatal(err)
			}
			res, err := ptest.RunWithMetrics(p)
			if err != nil {
				t.Fatal(err)
			}
			wantLines, wantErrs := runCLI(t, cliFiles, tt.flags...)
			if len(wantLines) < 100 {
				t.Fatalf("the CLI found %d results: the collection is too poor to compare", len(wantLines))
			}
			c.Compress, _ = ParseCompression(string(c.Compress))
			got := readOutput(t, out, "", c.Compress)
			diffLines(t, "results", got, wantLines)
			gotErrs, errors, warnings := messagesAsCLI(t, readOutput(t, out, "errors", c.Compress))
			diffLines(t, "errors", gotErrs, wantErrs)
			checkCounts(t, out, wantLines, c.Compress, 7)
			checkLinks(t, out, wantLines, c.Compress)

			n := counters(res)
			t.Logf("%d ranges, %d files", n["ranges"], n["files"])
			if n["ranges"] < tt.minRanges {
				t.Errorf("%d ranges read apart, want %d or more", n["ranges"], tt.minRanges)
			}
			if n["results"] != int64(len(wantLines)) {
				t.Errorf("results counter %d, want %d", n["results"], len(wantLines))
			}
			// Errors: the truncated file, the corrupt member, the huge
			// window; the dangling link, the vanished path and the
			// directory but with DIR/**, which skips them as -r does.
			// The bad Content-Length is a warning (the CLI's status 0:
			// the records before it are read).
			wantErrors := int64(6)
			if tt.inputs == "walk" {
				wantErrors = 3
			}
			if n["errors"] != errors || errors < wantErrors {
				t.Errorf("errors counter %d, %d error lines (want %d or more)", n["errors"], errors, wantErrors)
			}
			if n["warnings"] != warnings || warnings < 1 {
				t.Errorf("warnings counter %d, %d warnings told (want 1 or more: a skipped candidate)", n["warnings"], warnings)
			}
		})
	}
}

func counters(res beam.PipelineResult) map[string]int64 {
	n := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Key.Namespace == "urix" {
			n[c.Key.Name] += c.Result()
		}
	}
	return n
}

// TestNothingFound wants every output written, one empty file (an empty
// gzip stream), when nothing is found: the "-of-N" of a set names all its
// files.
func TestNothingFound(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "none.txt")
	if err := os.WriteFile(in, []byte("at 10:30, std::vector, ratio 3:2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out", "res")
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, Config{Inputs: []string{in}, Output: out}); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, kind := range []string{"", "schemes", "hosts", "domains", "uris", "hostlinks", "domainlinks", "errors", "top"} {
		want = append(want, ShardName(out, kind, 0, 1, Gzip))
	}
	got, _ := filepath.Glob(out + "*")
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("files\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range got {
		if data := readFile(t, f, Gzip); len(data) != 0 {
			t.Errorf("%s: %q, want nothing", f, data)
		}
	}
}

// messagesAsCLI writes the lines of the errors output as the CLI's
// stderr lines (FILE: MESSAGE), and counts the errors and the warnings
// they tell of (the line that ends the warnings of one cause past the
// cap, "N more warnings like ...", tells of N).
func messagesAsCLI(t *testing.T, msgs []string) (lines []string, errors, warnings int64) {
	for _, l := range msgs {
		var m struct{ File, Level, Message string }
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		lines = append(lines, m.File+": "+m.Message)
		switch n, _, more := strings.Cut(m.Message, " more warnings like "); {
		case m.Level == "error":
			errors++
		case more:
			k, err := strconv.ParseInt(n, 10, 64)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			warnings += k
		default:
			warnings++
		}
	}
	slices.Sort(lines)
	return lines, errors, warnings
}

func diffLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	t.Errorf("%s: %d lines, want %d", what, len(got), len(want))
	gotSet := make(map[string]int)
	for _, l := range got {
		gotSet[l]++
	}
	n := 0
	for _, l := range want {
		if gotSet[l] > 0 {
			gotSet[l]--
			continue
		}
		if n++; n <= 5 {
			t.Errorf("%s: missing %s", what, l)
		}
	}
	for l, k := range gotSet {
		if k > 0 {
			if n++; n <= 10 {
				t.Errorf("%s: extra %s", what, l)
			}
		}
	}
}

// checkCounts computes the counts from the CLI's lines and wants the
// pipeline's count outputs to hold them.
func checkCounts(t *testing.T, out string, cliLines []string, c Compression, topN int) {
	t.Helper()
	schemes := map[string]int64{}
	hosts := map[string]int64{} // "" key: no authority
	domains := map[string]int64{}
	urisN := map[string]int64{}
	for _, l := range cliLines {
		var r struct {
			URI        string  `json:"uri"`
			Normalized *string `json:"normalized"`
			Valid      bool    `json:"valid"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		key := r.URI
		if r.Valid {
			key = *r.Normalized
		}
		urisN[key]++
		scheme, _, _ := strings.Cut(key, ":")
		schemes[strings.ToLower(scheme)]++
		host, ok := hostOf(key, r.Valid)
		if !ok {
			hosts["null"]++
			domains["null"]++
			continue
		}
		hosts[jsonKey(host)]++
		if d := registrableDomain(host); d != "" {
			domains[jsonKey(d)]++
		} else {
			domains["null"]++
		}
	}
	compareCounts(t, "schemes", "scheme", readOutput(t, out, "schemes", c), quoted(schemes))
	compareCounts(t, "hosts", "host", readOutput(t, out, "hosts", c), hosts)
	compareCounts(t, "domains", "domain", readOutput(t, out, "domains", c), domains)
	compareCounts(t, "uris", "uri", readOutput(t, out, "uris", c), quoted(urisN))

	// The top N: the largest counts, ties broken by the URI.
	type uc struct {
		uri string
		n   int64
	}
	var all []uc
	for u, n := range urisN {
		all = append(all, uc{u, n})
	}
	slices.SortFunc(all, func(a, b uc) int { return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.uri, b.uri)) })
	var want []string
	for _, c := range all[:min(topN, len(all))] {
		want = append(want, uriLine(URICount{c.uri, c.n}))
	}
	if got := lines(readFile(t, ShardName(out, "top", 0, 1, c), c)); !slices.Equal(got, want) {
		t.Errorf("top: got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func quoted(m map[string]int64) map[string]int64 {
	q := make(map[string]int64, len(m))
	for k, v := range m {
		b, _ := json.Marshal(k)
		q[string(b)] = v
	}
	return q
}

// compareCounts wants the lines {"KEY":VALUE,...,"count":N} to be the
// counts of want, each value once, keyed by VALUE's JSON.
func compareCounts(t *testing.T, what, key string, got []string, want map[string]int64) {
	t.Helper()
	seen := map[string]int64{}
	for _, l := range got {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: %q: %v", what, l, err)
		}
		v := string(m[key])
		// json.Marshal's escaping, to compare with the keys of want.
		var s *string
		json.Unmarshal(m[key], &s)
		if s != nil {
			b, _ := json.Marshal(*s)
			v = string(b)
		}
		if _, dup := seen[v]; dup {
			t.Errorf("%s: %s counted twice", what, v)
		}
		var n int64
		json.Unmarshal(m["count"], &n)
		seen[v] = n
	}
	if len(seen) != len(want) {
		t.Errorf("%s: %d keys, want %d", what, len(seen), len(want))
	}
	for k, n := range want {
		if seen[k] != n {
			t.Errorf("%s: %s counted %d, want %d", what, k, seen[k], n)
		}
	}
}

// hostOf is the host of a result's counted form, told by the project's
// URI parser: ok false when it has no authority.
func hostOf(key string, valid bool) (host string, ok bool) {
	if !valid {
		return "", false
	}
	u, err := uri.Parse(key, uri.KindIRI)
	if err != nil || !u.HasAuthority {
		return "", false
	}
	return u.Host, true
}

// jsonKey is a count's value as compareCounts keys it.
func jsonKey(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
