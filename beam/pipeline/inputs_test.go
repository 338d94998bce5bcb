package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/urix-dev/urix/document"
)

// collect is what a DoFn emitted in one call.
type collect struct {
	lines, msgs []string
	keys        map[string]int64
}

func newCollect() *collect               { return &collect{keys: map[string]int64{}} }
func (c *collect) line(s string)         { c.lines = append(c.lines, s) }
func (c *collect) msg(s string)          { c.msgs = append(c.msgs, s) }
func (c *collect) key(k string, n int64) { c.keys[k] += n }

// path and paths: a listing's paths, kept as lines.
func (c *collect) path(p inputPath) { c.line(p.Path) }
func (c *collect) paths() []string  { return c.lines }

// flaky is a filesystem ("flaky://" before a local path) whose reads of
// a file fail half way (a connection reset) as many times as failures
// says for it, then succeed: a storage's passing failure.
type flakyFS struct{}

var (
	flakyMu       sync.Mutex
	flakyFailures = map[string]int{}
)

func init() {
	filesystem.Register("flaky", func(context.Context) filesystem.Interface { return flakyFS{} })
}

var errReset = errors.New("read tcp 10.0.0.1:443: connection reset by peer")

func (flakyFS) OpenRead(_ context.Context, name string) (io.ReadCloser, error) {
	local := strings.TrimPrefix(name, "flaky://")
	f, err := os.Open(local)
	if err != nil {
		return nil, err
	}
	flakyMu.Lock()
	defer flakyMu.Unlock()
	if flakyFailures[name] > 0 {
		flakyFailures[name]--
		fi, _ := f.Stat()
		return struct {
			io.Reader
			io.Closer
		}{io.MultiReader(io.LimitReader(f, fi.Size()/2), iotestErr{errReset}), f}, nil
	}
	return f, nil
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }

func (flakyFS) List(context.Context, string) ([]string, error) { return nil, nil }
func (flakyFS) OpenWrite(context.Context, string) (io.WriteCloser, error) {
	return nil, errors.New("read only")
}
func (flakyFS) Size(_ context.Context, name string) (int64, error) {
	fi, err := os.Stat(strings.TrimPrefix(name, "flaky://"))
	if err != nil {
		return -1, err
	}
	return fi.Size(), nil
}
func (flakyFS) Close() error { return nil }

// TestTransientReadRetried: a read of the storage that fails half way
// through a file is returned from the DoFn (the runner retries the
// file), not told as an error line; nothing of the failed attempt is
// counted or carried into the next: the attempt that reads the file
// whole, all the runner keeps, emits what a clean read does.
func TestTransientReadRetried(t *testing.T) {
	dir := t.TempDir()
	writeCollection(t, dir)
	path := "flaky://" + filepath.Join(dir, "crawl.warc.gz")
	flakyMu.Lock()
	flakyFailures[path] = 1
	flakyMu.Unlock()

	prefix := filepath.Join(t.TempDir(), "out", "res")
	fn := &searchFn{Prefix: prefix, Compress: None}
	if err := fn.Setup(); err != nil {
		t.Fatal(err)
	}
	// run runs one bundle of the file: its results are the lines of the
	// bundle's file (none when the bundle fails), its keys and messages
	// those emitted; written is what the attempt wrote before it ended.
	var written bool
	run := func() (*collect, error) {
		ctx := context.Background()
		c, names := newCollect(), newCollect()
		fn.StartBundle(ctx, names.line, c.key, c.msg)
		err := fn.ProcessElement(ctx, inputPath{Path: path}, names.line, c.key, c.msg)
		written = fn.results.name != "" // opened at the first line written
		if err != nil {
			return c, err
		}
		if err := fn.FinishBundle(ctx, names.line, c.key, c.msg); err != nil {
			return c, err
		}
		for _, name := range names.lines {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			c.lines = append(c.lines, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
		}
		return c, nil
	}
	failed, err := run()
	if err == nil || !errors.Is(err, errReset) {
		t.Fatalf("first attempt: error %v, want the storage's (%v)", err, errReset)
	}
	if len(failed.msgs) != 0 {
		t.Errorf("first attempt: told %q, want nothing (the error is returned)", failed.msgs)
	}
	if !written {
		t.Fatalf("first attempt: no result before the failure: the test reads too little")
	}
	retried, err := run()
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	clean, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(retried.lines, clean.lines) || len(retried.msgs) != 0 {
		t.Errorf("retry: %d lines, %q; a clean read: %d lines", len(retried.lines), retried.msgs, len(clean.lines))
	}
	if fmt.Sprint(retried.keys) != fmt.Sprint(clean.keys) {
		t.Errorf("retry: keys differ from a clean read's (the failed attempt's carried over):\n%v\n%v", retried.keys, clean.keys)
	}
}

// TestFileFailuresAreLines: what is wrong with a file itself, now and on
// any retry, is one error line and the DoFn goes on: a missing file, a
// directory, a dangling link, a corrupt gzip member, a name of no
// filesystem.
func TestFileFailuresAreLines(t *testing.T) {
	dir := t.TempDir()
	writeCollection(t, dir)
	fn := &searchFn{Prefix: filepath.Join(dir, "out")} // its bundle files in dir, not in the package
	if err := fn.Setup(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		filepath.Join(dir, "vanished.txt"), filepath.Join(dir, "sub"), filepath.Join(dir, "dangling.txt"),
		filepath.Join(dir, "corrupt-member.warc.gz"), filepath.Join(dir, "truncated.txt.gz"),
		filepath.Join(dir, "huge-window.txt.xz"), "nofs://bucket/file",
	} {
		c := newCollect()
		if err := fn.ProcessElement(context.Background(), inputPath{Path: p}, c.line, c.key, c.msg); err != nil {
			t.Errorf("%s: returned %v, want an error line", p, err)
			continue
		}
		if len(c.msgs) != 1 || !strings.Contains(c.msgs[0], `"level":"error"`) {
			t.Errorf("%s: told %q, want one error", p, c.msgs)
		}
	}
}

func TestTransient(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{errReset, true},
		{fmt.Errorf("x: %w", os.ErrNotExist), false},
		{&os.PathError{Op: "open", Path: "f", Err: syscall.EACCES}, false},
		{&os.PathError{Op: "read", Path: "d", Err: syscall.EISDIR}, false},
		{permanent{errors.New("flate: corrupt input")}, false},
		{statusErr(503), true},
		{statusErr(429), true},
		{statusErr(404), false},
		{statusErr(403), false},
	} {
		if got := transient(tt.err); got != tt.want {
			t.Errorf("transient(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// statusErr is an error that says its HTTP status, as S3's do.
type statusErr int

func (e statusErr) Error() string       { return fmt.Sprintf("status %d", int(e)) }
func (e statusErr) HTTPStatusCode() int { return int(e) }

// TestGlobLocal: "**" in a local pattern stands for any number of
// directories, none included, and "dir/**" lists the files the CLI's -r
// lists, in its order; a pattern without "**" is globbed as the shell
// does; a directory the walk cannot enter is told, and the walk goes on.
func TestGlobLocal(t *testing.T) {
	d := t.TempDir()
	for _, f := range []string{"a.txt", "b.warc.gz", "x/c.warc.gz", "x/y/e.warc.gz", "x/y/f.txt", "x/yy/g.warc.gz", "z.warc.gz.bak"} {
		p := filepath.Join(d, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("see http://"+strings.ReplaceAll(f, "/", "-")+".example/\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink(filepath.Join(d, "x"), filepath.Join(d, "link"))
	os.Symlink(filepath.Join(d, "nowhere"), filepath.Join(d, "dangling"))
	j := func(fs ...string) []string {
		for i, f := range fs {
			fs[i] = filepath.Join(d, f)
		}
		return fs
	}
	var none document.WalkFilesOptions
	for _, tt := range []struct {
		pattern string
		want    []string
		walk    document.WalkFilesOptions
	}{
		{"**/*.warc.gz", j("b.warc.gz", "x/c.warc.gz", "x/y/e.warc.gz", "x/yy/g.warc.gz"), none},
		{"x/**/*.warc.gz", j("x/c.warc.gz", "x/y/e.warc.gz", "x/yy/g.warc.gz"), none},
		{"*/**/f.txt", j("x/y/f.txt"), none},
		{"x/y*/**", j("x/y/e.warc.gz", "x/y/f.txt", "x/yy/g.warc.gz"), none},
		{"x/*/*.txt", j("x/y/f.txt"), none},
		{"x/y/**", j("x/y/e.warc.gz", "x/y/f.txt"), none},
		{"x/**/**/y/**/*.txt", j("x/y/f.txt"), none},
		// -r's --include, --exclude (pruning a directory) and -R.
		{"**", j("b.warc.gz", "x/c.warc.gz", "x/yy/g.warc.gz"), document.WalkFilesOptions{Include: []string{"*.warc.gz"}, Exclude: []string{"y"}}},
		{"**/c.warc.gz", j("link/c.warc.gz", "x/c.warc.gz"), document.WalkFilesOptions{Follow: true}},
	} {
		got, err := globLocal(filepath.Join(d, tt.pattern), tt.walk, func(p string, err error) {
			if !tt.walk.Follow { // -R: the dangling link is told
				t.Errorf("%s: %s: %v told", tt.pattern, p, err)
			}
		})
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, %v; want %q", tt.pattern, got, err, tt.want)
		}
	}
	// "dir/**" is -r dir, in its order: urix -r -l lists each file (each
	// has a URI) in the order it reads them.
	out, _ := exec.Command(urixCLI(t), "-r", "-l", "-j", "1", d).Output()
	got, err := globLocal(filepath.Join(d, "**"), document.WalkFilesOptions{}, nil)
	if want := lines(string(out)); err != nil || !slices.Equal(got, want) {
		t.Errorf("**: %q, %v; want what urix -r lists: %q", got, err, want)
	}

	if os.Geteuid() == 0 {
		return // root reads any directory
	}
	os.Chmod(filepath.Join(d, "x", "y"), 0)
	defer os.Chmod(filepath.Join(d, "x", "y"), 0o755)
	var told []string
	got, err = globLocal(filepath.Join(d, "**", "*.warc.gz"), document.WalkFilesOptions{}, func(p string, err error) { told = append(told, p) })
	if want := j("b.warc.gz", "x/c.warc.gz", "x/yy/g.warc.gz"); err != nil || !slices.Equal(got, want) || !slices.Equal(told, j("x/y")) {
		t.Errorf("an unreadable directory: %q, told %q; want %q", got, told, want)
	}
}

// TestInputList: an input list, gzip-compressed or not, gives its
// entries as paths, blank lines and comments skipped, the relative ones
// after the prefix; a list that does not exist is an error line.
func TestInputList(t *testing.T) {
	d := t.TempDir()
	body := "# Common Crawl's wet.paths, and more\ncrawl-data/CC/a.warc.wet.gz\n\n  crawl-data/CC/b.warc.wet.gz  \n/abs/c.txt\ngs://bucket/d.gz\n"
	plain, gz := filepath.Join(d, "paths"), filepath.Join(d, "paths.gz")
	os.WriteFile(plain, []byte(body), 0o644)
	os.WriteFile(gz, gzipMembers(t, body[:30], body[30:]), 0o644)
	for _, tt := range []struct {
		list, prefix string
		want         []string
	}{
		{plain, "s3://commoncrawl", []string{"s3://commoncrawl/crawl-data/CC/a.warc.wet.gz", "s3://commoncrawl/crawl-data/CC/b.warc.wet.gz", "/abs/c.txt", "gs://bucket/d.gz"}},
		{gz, "/data/", []string{"/data/crawl-data/CC/a.warc.wet.gz", "/data/crawl-data/CC/b.warc.wet.gz", "/abs/c.txt", "gs://bucket/d.gz"}},
		{gz, "", []string{"crawl-data/CC/a.warc.wet.gz", "crawl-data/CC/b.warc.wet.gz", "/abs/c.txt", "gs://bucket/d.gz"}},
	} {
		c := newCollect()
		if err := (&listFn{Prefix: tt.prefix}).ProcessElement(context.Background(), tt.list, c.path, c.msg); err != nil || len(c.msgs) > 0 {
			t.Errorf("%s: %v %q", tt.list, err, c.msgs)
		}
		if !slices.Equal(c.paths(), tt.want) {
			t.Errorf("%s with %q: %q, want %q", tt.list, tt.prefix, c.paths(), tt.want)
		}
	}
	c := newCollect()
	missing := filepath.Join(d, "missing.gz")
	if err := (&listFn{}).ProcessElement(context.Background(), missing, c.path, c.msg); err != nil {
		t.Errorf("a missing list: %v, want an error line", err)
	}
	if want := []string{encodeMessage(missing, "error", "no such file or directory")}; !slices.Equal(c.msgs, want) {
		t.Errorf("a missing list: told %q, want %q", c.msgs, want)
	}
}

// TestTransientFailsBundle: on a runner, the storage's failure fails
// the file's bundle (prism does not retry: the job fails, saying why)
// rather than end as an error line of a job that succeeds.
func TestTransientFailsBundle(t *testing.T) {
	dir := t.TempDir()
	writeCollection(t, dir)
	path := "flaky://" + filepath.Join(dir, "list.mbox")
	// The outputs: a directory of its own, removed as well as may be
	// (the failed job's other bundles may write on after it has ended:
	// a TempDir would fail its cleanup).
	out, err := os.MkdirTemp("", "urix-transient")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(out) })
	// Read whole, and listed in ranges (the listing reads the file).
	// Every opening fails half way: the listing may open the file more
	// than once (it reads the head of a file to tell whether it is text,
	// then its boundaries from the start), and a later opening that
	// succeeded would hide the failure this test is about.
	t.Cleanup(func() {
		flakyMu.Lock()
		delete(flakyFailures, path)
		flakyMu.Unlock()
	})
	for _, rangeBytes := range []int64{0, 1} {
		flakyMu.Lock()
		flakyFailures[path] = 1 << 20
		flakyMu.Unlock()
		p, s := beam.NewPipelineWithRoot()
		c := Config{Inputs: []string{path, filepath.Join(dir, "plain.txt")}, Output: filepath.Join(out, fmt.Sprint(rangeBytes), "res"), RangeBytes: rangeBytes, RangeForward: true}
		if err := Build(s, c); err != nil {
			t.Fatal(err)
		}
		if err := ptest.Run(p); err == nil || !strings.Contains(err.Error(), "connection reset") {
			t.Errorf("ranges of %d bytes: the job ended with %v, want the storage's error", rangeBytes, err)
		}
	}
}

// TestFlagsAreTheCLIs: every flag of the CLI's "What to find" and
// "Input" sections of --help is one of Flags, but those of the -r walk
// and of the workers (the pipeline's own business: "**" walks as -r).
func TestFlagsAreTheCLIs(t *testing.T) {
	out, err := exec.Command(urixCLI(t), "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	notTaken := map[string]bool{"recursive": true, "jobs": true}
	section := ""
	checked := 0
	for _, l := range lines(string(out)) {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "-") {
			section = l
			continue
		}
		if section != "What to find" && section != "Input" || !strings.HasPrefix(l, "--") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(l, "--"), " ")
		name = strings.TrimSuffix(name, ",")
		checked++
		if !notTaken[name] && !slices.Contains(Flags, name) {
			t.Errorf("--%s (%s) is not among the pipeline's Flags", name, section)
		}
	}
	if checked < 12 {
		t.Fatalf("%d flags read from --help: its form changed?\n%s", checked, out)
	}
}
