package document

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var (
	treeOnce                sync.Once
	treeGz, treeZst, treeXZ []byte
)

// makeTree builds, under a temporary directory, a tree with text, gzip
// (multi-member), zstd, xz, bzip2, WARC and binary files, a symlink to a
// file, a symlink to a directory, a symlink loop and a dangling link. It
// returns the root and the content each compressed or text file decodes to.
func makeTree(t *testing.T) (string, map[string][]byte) {
	t.Helper()
	root := t.TempDir()
	text := []byte("see https://example.com/a and http://example.org/b\n")
	warc := []byte("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n")
	treeOnce.Do(func() {
		treeGz = gzipData(t, text[:10], text[10:])
		treeZst = zstdData(t, text)
		treeXZ = xzData(t, text)
	})
	files := map[string][]byte{
		"a.txt":              text,
		"b/c.txt.gz":         treeGz,
		"b/d.zst":            treeZst,
		"b/e.xz":             treeXZ,
		"b/f.bz2":            readFile(t, "testdata/sample.bz2"),
		"b/sub/g.warc":       warc,
		"b/sub/g.warc.gz":    gzipData(t, warc, warc),
		"bin/prog":           []byte("\x7fELF\x02\x01\x01\x00\x00\x00https://not.text/"),
		"a b/space name.txt": text,
		"a.b/dot.txt":        text,
		"node_modules/x.txt": text,
		"z.md":               []byte("# readme https://example.net/\n"),
	}
	want := map[string][]byte{}
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(name, ".bz2"):
			want[name] = readFile(t, "testdata/plain.txt")
		case strings.HasSuffix(name, ".warc.gz"):
			want[name] = append(append([]byte{}, warc...), warc...)
		default:
			want[name] = text
		}
	}
	want["b/sub/g.warc"] = warc
	want["bin/prog"] = files["bin/prog"]
	want["z.md"] = files["z.md"]
	for link, target := range map[string]string{
		"b/sub/loop":     "../..",    // back to root: a loop
		"b/sub/self":     ".",        // itself: a loop
		"b/link.txt":     "../a.txt", // a file
		"linkdir":        "a.b",      // a directory
		"b/sub/dangling": "nowhere",
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	return root, want
}

func walkAll(t *testing.T, roots []string, opts WalkFilesOptions) (paths []string, errs map[string]error) {
	t.Helper()
	errs = map[string]error{}
	err := WalkFiles(roots, opts, func(p string) error {
		paths = append(paths, p)
		return nil
	}, func(p string, err error) {
		errs[p] = err
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths, errs
}

func rel(root string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		r, err := filepath.Rel(root, p)
		if err != nil {
			panic(err)
		}
		out[i] = filepath.ToSlash(r)
	}
	return out
}

func TestWalkNoFollow(t *testing.T) {
	root, _ := makeTree(t)
	paths, errs := walkAll(t, []string{root}, WalkFilesOptions{})
	want := []string{
		"a b/space name.txt",
		"a.b/dot.txt",
		"a.txt",
		"b/c.txt.gz",
		"b/d.zst",
		"b/e.xz",
		"b/f.bz2",
		"b/sub/g.warc",
		"b/sub/g.warc.gz",
		"bin/prog",
		"node_modules/x.txt",
		"z.md",
	}
	if got := rel(root, paths); !slices.Equal(got, want) {
		t.Errorf("walk =\n%q\nwant\n%q", got, want)
	}
	if len(errs) != 0 {
		t.Errorf("errors: %v", errs)
	}
	// Stable: the same again.
	again, _ := walkAll(t, []string{root}, WalkFilesOptions{})
	if !slices.Equal(paths, again) {
		t.Error("second walk differs")
	}
}

func TestWalkFollow(t *testing.T) {
	root, _ := makeTree(t)
	paths, errs := walkAll(t, []string{root}, WalkFilesOptions{Follow: true})
	want := []string{
		"a b/space name.txt",
		"a.b/dot.txt",
		"a.txt",
		"b/c.txt.gz",
		"b/d.zst",
		"b/e.xz",
		"b/f.bz2",
		"b/link.txt",
		"b/sub/g.warc",
		"b/sub/g.warc.gz",
		"bin/prog",
		"linkdir/dot.txt",
		"node_modules/x.txt",
		"z.md",
	}
	if got := rel(root, paths); !slices.Equal(got, want) {
		t.Errorf("walk =\n%q\nwant\n%q", got, want)
	}
	for _, p := range []string{"b/sub/loop", "b/sub/self"} {
		if err := errs[filepath.Join(root, p)]; !errors.Is(err, ErrLoop) {
			t.Errorf("%s: error %v, want a loop", p, err)
		}
	}
	if err := errs[filepath.Join(root, "b/sub/dangling")]; !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dangling: error %v", err)
	}
	if len(errs) != 3 {
		t.Errorf("errors: %v", errs)
	}
}

func TestWalkGlobs(t *testing.T) {
	root, _ := makeTree(t)
	cases := []struct {
		opts WalkFilesOptions
		want []string
	}{
		{WalkFilesOptions{Include: []string{"*.txt"}}, []string{"a b/space name.txt", "a.b/dot.txt", "a.txt", "node_modules/x.txt"}},
		{WalkFilesOptions{Include: []string{"*.txt", "*.md"}, Exclude: []string{"node_modules", "a?b"}}, []string{"a.txt", "z.md"}},
		{WalkFilesOptions{Exclude: []string{"b", "*.txt", "bin", "node_modules", "a*"}}, []string{"z.md"}},
		{WalkFilesOptions{Include: []string{"*.warc*"}}, []string{"b/sub/g.warc", "b/sub/g.warc.gz"}},
		{WalkFilesOptions{Include: []string{"*.txt"}, Follow: true, Exclude: []string{"loop", "self", "a.b"}}, []string{"a b/space name.txt", "a.txt", "b/link.txt", "linkdir/dot.txt", "node_modules/x.txt"}},
	}
	for _, tc := range cases {
		got, _ := walkAll(t, []string{root}, tc.opts)
		if g := rel(root, got); !slices.Equal(g, tc.want) {
			t.Errorf("%+v: walk =\n%q\nwant\n%q", tc.opts, g, tc.want)
		}
	}
	if err := WalkFiles([]string{root}, WalkFilesOptions{Include: []string{"[x"}}, func(string) error { return nil }, nil); err == nil {
		t.Error("bad glob accepted")
	}
}

func TestWalkRoots(t *testing.T) {
	root, _ := makeTree(t)
	file := filepath.Join(root, "b", "d.zst")
	missing := filepath.Join(root, "missing")
	var got []string
	var errPaths []string
	err := WalkFiles([]string{file, missing, filepath.Join(root, "a.b"), filepath.Join(root, "linkdir"), file},
		WalkFilesOptions{Include: []string{"*.txt"}, Exclude: []string{"a.b", "*.zst"}},
		func(p string) error { got = append(got, p); return nil },
		func(p string, err error) { errPaths = append(errPaths, p) })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{file, filepath.Join(root, "a.b", "dot.txt"), filepath.Join(root, "linkdir", "dot.txt"), file}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !slices.Equal(errPaths, []string{missing}) {
		t.Errorf("errors on %q", errPaths)
	}
}

func TestWalkStop(t *testing.T) {
	root, _ := makeTree(t)
	stop := errors.New("stop")
	n := 0
	err := WalkFiles([]string{root}, WalkFilesOptions{}, func(string) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	}, nil)
	if err != stop || n != 3 {
		t.Errorf("err %v after %d files", err, n)
	}
	n = 0
	err = WalkFiles([]string{root, root}, WalkFilesOptions{}, func(string) error {
		n++
		return filepath.SkipAll
	}, nil)
	if err != nil || n != 1 {
		t.Errorf("SkipAll: err %v after %d files", err, n)
	}
}

func TestWalkUnreadableDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every directory")
	}
	root, _ := makeTree(t)
	locked := filepath.Join(root, "b", "sub")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	paths, errs := walkAll(t, []string{root}, WalkFilesOptions{})
	if _, ok := errs[locked]; !ok || len(paths) != 10 {
		t.Errorf("errors %v, %d paths", errs, len(paths))
	}
}

// The whole pipeline over the tree: walk, sniff and decompress, skip binary.
func TestTreeDecodes(t *testing.T) {
	root, want := makeTree(t)
	paths, _ := walkAll(t, []string{root}, WalkFilesOptions{})
	for _, p := range paths {
		name := rel(root, []string{p})[0]
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		r, c, err := Decompress(f, false)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := io.ReadAll(r)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want[name]) {
			t.Errorf("%s (%v): decoded %q, want %q", name, c, got, want[name])
		}
		if bin := IsBinary(got[:min(len(got), 8<<10)]); bin != (name == "bin/prog") {
			t.Errorf("%s: IsBinary = %v", name, bin)
		}
	}
}
