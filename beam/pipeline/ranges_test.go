package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/urix-dev/urix/engine"
)

// listed is what listRangesFn emitted for one file.
type listed struct {
	whole  []inputPath
	ranges []fileRange
}

func listOne(t *testing.T, fn *listRangesFn, in inputPath) listed {
	t.Helper()
	var l listed
	err := fn.ProcessElement(context.Background(), in,
		func(p inputPath) { l.whole = append(l.whole, p) },
		func(r fileRange) { l.ranges = append(l.ranges, r) })
	if err != nil {
		t.Fatalf("%s: %v", in.Path, err)
	}
	return l
}

// engineRanges are the ranges the engine lists for a local file, with
// the pipeline's options for flags.
func engineRanges(t *testing.T, path string, flags []string, target int64) []engine.Range {
	t.Helper()
	o, err := engineOptions(flags)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := engine.Ranges(path, bytes.NewReader(data), int64(len(data)), o, target)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestListRanges: the listing emits an mbox, WARC or text file of Target
// bytes or more as the engine's ranges, each once, numbered in file
// order, and any other file as its path, to be read whole: one smaller
// than Target, one compressed in a single stream, one that names nothing readable (the search tells
// the CLI's words for it), a binary file that a walk found (skipped by
// the CLI's -r, which the first range alone would not be), a file of a
// filesystem that reads only forward (unless Forward).
func TestListRanges(t *testing.T) {
	dir := t.TempDir()
	writeCollection(t, dir)
	binary := filepath.Join(dir, "binary.mbox")
	if err := os.WriteFile(binary, []byte(strings.Replace(mbox(rand.New(rand.NewPCG(34, 1)), 10), "Subject:", "X-Nul: \x00\nSubject:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	fn := &listRangesFn{Target: 1}
	if err := fn.Setup(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"list.mbox", "crawl.warc", "crawl.warc.gz", "corrupt-member.warc.gz", "truncated-members.mbox.gz"} {
		path := filepath.Join(dir, name)
		got := listOne(t, fn, inputPath{Path: path})
		want := engineRanges(t, path, nil, 1)
		if len(got.whole) != 0 || len(got.ranges) != len(want) || len(want) < 5 {
			t.Errorf("%s: %d whole, %d ranges; want %d ranges (5 or more)", name, len(got.whole), len(got.ranges), len(want))
			continue
		}
		for i, r := range got.ranges {
			if r.Index != i || r.Path != path || r.engineRange() != want[i] {
				t.Errorf("%s: range %d: %+v, want %+v", name, i, r, want[i])
			}
		}
	}
	for _, name := range []string{"plain.txt", "big.txt"} {
		// Text: cut at line ends, each range with its join (engine.Range.Text).
		path := filepath.Join(dir, name)
		got := listOne(t, fn, inputPath{Path: path})
		want := engineRanges(t, path, nil, 1)
		if len(got.whole) != 0 || len(got.ranges) != len(want) || len(want) < 5 {
			t.Errorf("%s: %d whole, %d ranges; want %d ranges (5 or more)", name, len(got.whole), len(got.ranges), len(want))
			continue
		}
		for i, r := range got.ranges {
			if e := r.engineRange(); r.Index != i || e.Start != want[i].Start || e.End != want[i].End || e.Text == nil || *e.Text != *want[i].Text {
				t.Errorf("%s: range %d: %+v, want %+v", name, i, r, want[i])
			}
		}
	}
	for _, name := range []string{"old-list.mbox.gz", "dangling.txt", "sub", "vanished.txt", "empty.txt"} {
		path := filepath.Join(dir, name)
		if got := listOne(t, fn, inputPath{Path: path}); len(got.ranges) != 0 || len(got.whole) != 1 || got.whole[0].Path != path {
			t.Errorf("%s: %+v, want the path alone", name, got)
		}
	}
	if got := listOne(t, fn, inputPath{Path: binary}); len(got.ranges) < 5 {
		t.Errorf("binary.mbox, named: %d ranges, want 5 or more", len(got.ranges))
	}
	if got := listOne(t, fn, inputPath{Path: binary, Walked: true}); len(got.ranges) != 0 || len(got.whole) != 1 || !got.whole[0].Walked {
		t.Errorf("binary.mbox, walked: %+v, want the walked path alone", got)
	}
	// A filesystem that reads only forward: whole, unless Forward.
	flaky := "flaky://" + filepath.Join(dir, "list.mbox")
	if got := listOne(t, fn, inputPath{Path: flaky}); len(got.ranges) != 0 {
		t.Errorf("%s: %d ranges, want the path alone", flaky, len(got.ranges))
	}
	forward := &listRangesFn{Target: 1, Forward: true}
	if err := forward.Setup(); err != nil {
		t.Fatal(err)
	}
	if got, want := listOne(t, forward, inputPath{Path: flaky}), engineRanges(t, filepath.Join(dir, "list.mbox"), nil, 1); len(got.ranges) != len(want) {
		t.Errorf("%s, Forward: %d ranges, want %d", flaky, len(got.ranges), len(want))
	}
	big := &listRangesFn{Target: 1 << 30}
	if err := big.Setup(); err != nil {
		t.Fatal(err)
	}
	if got := listOne(t, big, inputPath{Path: filepath.Join(dir, "list.mbox")}); len(got.ranges) != 0 {
		t.Errorf("list.mbox, ranges of 1 GiB: %d ranges, want the path alone", len(got.ranges))
	}
}

// TestRangesAsCLI runs the pipeline over an mbox and a WARC file gzipped
// a member a record, each read in ranges of a message or a record, and
// wants each range read once, as one element (the urix/ranges counter:
// the engine's ranges of the two files), the results the CLI's, and the
// errors output the CLI's stderr for the whole files: the mbox warns of
// twelve candidates longer than --max-length, one a message (a range),
// which the CLI tells as five and "7 more warnings like ..." (its cap is
// a file's, not a range's).
func TestRangesAsCLI(t *testing.T) {
	dir := t.TempDir()
	var long strings.Builder
	for i := range 12 {
		fmt.Fprintf(&long, "From a%d@example.com Mon Jan  1 00:00:00 2024\nSubject: %d\n\nsee http://example.com/%d/%s and http://ok.example/%d\n\n",
			i, i, i, strings.Repeat("a", 300+i), i)
	}
	r := rand.New(rand.NewPCG(35, 1))
	files := map[string][]byte{
		"long.mbox":       []byte(long.String()),
		"members.warc.gz": gzipMembers(t, warcRecords(r, 40)...),
	}
	var paths []string
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	flags := []string{"--max-length=200"}
	var wantRanges int64
	for _, p := range paths {
		n := len(engineRanges(t, p, flags, 1))
		if n < 12 {
			t.Fatalf("%s: %d ranges, want a message or record each", p, n)
		}
		wantRanges += int64(n)
	}

	out := filepath.Join(t.TempDir(), "out", "res")
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, Config{Inputs: paths, Output: out, Flags: flags, Compress: None, RangeBytes: 1}); err != nil {
		t.Fatal(err)
	}
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	n := counters(res)
	if n["ranges"] != wantRanges || n["files"] != 2 {
		t.Errorf("read %d ranges of %d files, want %d of 2", n["ranges"], n["files"], wantRanges)
	}
	wantLines, wantErrs := runCLI(t, paths, flags...)
	if !slices.ContainsFunc(wantErrs, func(l string) bool { return strings.Contains(l, ": 7 more warnings like ") }) {
		t.Fatalf("the CLI says %q: want a file's cap passed", wantErrs)
	}
	diffLines(t, "results", readOutput(t, out, "", None), wantLines)
	gotErrs, errs, warns := messagesAsCLI(t, readOutput(t, out, "errors", None))
	diffLines(t, "errors", gotErrs, wantErrs)
	if errs != 0 || warns != 12 || n["warnings"] != 12 {
		t.Errorf("%d errors, %d warnings told, counter %d; want 0, 12, 12", errs, warns, n["warnings"])
	}
}

// TestTransientRangeRetried: a range whose reading fails half way (the
// storage's passing failure, past the range's start on a filesystem read
// forward) fails its bundle, telling nothing; the retry reads what a
// clean read does.
func TestTransientRangeRetried(t *testing.T) {
	dir := t.TempDir()
	writeCollection(t, dir)
	local := filepath.Join(dir, "list.mbox")
	path := "flaky://" + local
	ranges := engineRanges(t, local, nil, 1)
	rg := newFileRange(path, len(ranges)-1, ranges[len(ranges)-1]) // past the half where the read fails
	fn := &rangeSearchFn{Prefix: filepath.Join(dir, "out", "res"), Compress: None}
	if err := fn.Setup(); err != nil {
		t.Fatal(err)
	}
	run := func() (*collect, error) {
		ctx := context.Background()
		c, names := newCollect(), newCollect()
		held := func(file, m string) { c.msg(m) }
		fn.StartBundle(ctx, names.line, c.key, held)
		if err := fn.ProcessElement(ctx, rg, names.line, c.key, held); err != nil {
			return c, err
		}
		if err := fn.FinishBundle(ctx, names.line, c.key, held); err != nil {
			return c, err
		}
		for _, name := range names.lines {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			c.lines = append(c.lines, lines(string(data))...)
		}
		return c, nil
	}
	flakyMu.Lock()
	flakyFailures[path] = 1
	flakyMu.Unlock()
	failed, err := run()
	if !errors.Is(err, errReset) || len(failed.msgs) != 0 {
		t.Fatalf("first attempt: error %v, told %q; want the storage's error (%v), nothing told", err, failed.msgs, errReset)
	}
	retried, err := run()
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	var want bytes.Buffer
	o, _ := engineOptions(nil)
	o.Stdout = &want
	f, err := os.Open(local)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	engine.RunRange(rg.engineRange(), f, o) // the file named as the pipeline names it
	if !slices.Equal(retried.lines, lines(want.String())) || len(retried.lines) == 0 {
		t.Errorf("retry: %d lines, want the range's %d", len(retried.lines), len(lines(want.String())))
	}
}

// TestForwardReader: a file of a filesystem that only opens streams
// from the start reads at any offset as the file does, forward and back.
func TestForwardReader(t *testing.T) {
	dir := t.TempDir()
	writeCollection(t, dir)
	local := filepath.Join(dir, "crawl.warc")
	data, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	r := &forwardReader{ctx: context.Background(), path: "flaky://" + local}
	defer r.Close()
	for _, at := range []int64{0, 10, 5000, 5000 + 4096, 100, int64(len(data)) - 10, int64(len(data))} {
		p := make([]byte, 4096)
		n, err := r.ReadAt(p, at)
		want := data[min(at, int64(len(data))):min(at+4096, int64(len(data)))]
		if !bytes.Equal(p[:n], want) {
			t.Errorf("at %d: read %d bytes, want %d", at, n, len(want))
		}
		if len(want) < len(p) && err != io.EOF {
			t.Errorf("at %d: %v, want EOF", at, err)
		}
	}
}

// TestRangeOfVanishedFile: a file listed in ranges and gone when a range
// is read is the file's error, as the CLI says it of a missing file,
// told once whichever ranges meet it.
func TestRangeOfVanishedFile(t *testing.T) {
	dir := t.TempDir()
	writeCollection(t, dir)
	path := filepath.Join(dir, "list.mbox")
	ranges := engineRanges(t, path, nil, 1)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	fn := &rangeSearchFn{Prefix: filepath.Join(dir, "out", "res"), Compress: None}
	if err := fn.Setup(); err != nil {
		t.Fatal(err)
	}
	var held []string
	ctx := context.Background()
	names := newCollect()
	fn.StartBundle(ctx, names.line, names.key, nil)
	for _, i := range []int{3, 1, 5} {
		err := fn.ProcessElement(ctx, newFileRange(path, i, ranges[i]), names.line, names.key, func(file, m string) {
			if file != path {
				t.Errorf("held for %q, want %q", file, path)
			}
			held = append(held, m)
		})
		if err != nil {
			t.Fatalf("range %d: %v, want an error line", i, err)
		}
	}
	msgs := newCollect()
	k := 0
	(&tellRangesFn{}).ProcessElement(ctx, path, func(s *string) bool {
		if k == len(held) {
			return false
		}
		*s, k = held[k], k+1
		return true
	}, msgs.msg)
	_, want := runCLI(t, []string{path})
	got, errs, _ := messagesAsCLI(t, msgs.msgs)
	if !slices.Equal(got, want) || errs != 1 {
		t.Errorf("told %q (%d errors), want the CLI's %q", got, errs, want)
	}
}
