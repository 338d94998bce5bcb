//go:build linux

package document

import (
	"encoding/binary"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// osReadDir is what readDir stands for: os.ReadDir, its names joined to
// dir by filepath.Join.
func osReadDir(t *testing.T, dir string) []dirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []dirEntry
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		out = append(out, dirEntry{path: path, nameAt: len(path) - len(e.Name()), typ: e.Type()})
	}
	return out
}

// TestReadDirAsOS checks readDir against os.ReadDir and filepath.Join:
// the same entries, in the same order, with the same paths and types,
// for names that share their first eight bytes or more (the sort's key),
// are shorter than eight bytes, are prefixes of others, hold bytes of
// 0x80 and over (compared unsigned) or are not UTF-8; and for the ways a
// directory is named ("."-relative, trailing and doubled slashes, "..").
func TestReadDirAsOS(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{
		"a", "ab", "abc", "abcdefgh", "abcdefghi", "abcdefgh0", "abcdefgg",
		"1700000000.M1P2.host,S=10:2,S", "1700000000.M1P2.host,S=9:2,S",
		"1700000001.M1P2.host:2,S", "Z", "_", "~", "é", "\xff\xfe", "e\u0301",
		"1000:2,S", "1001:2,S", "999:2,S", ".hidden", "..x", "space name",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		b := make([]byte, 1+r.IntN(20))
		for i := range b {
			b[i] = "0123456789:,.Sabc\x80\xc3\xa9"[r.IntN(20)]
		}
		names = append(names, string(b))
	}
	for _, n := range names {
		if n == "." || n == ".." {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Log("no FIFO:", err)
	}
	t.Chdir(root)
	for _, name := range []string{dir, dir + "/", dir + "//", "d", "./d", "d/../d", "d/sub/..", "d/sub", "."} {
		got, err := readDir(name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		want := osReadDir(t, name)
		if viaOS, err := readDirOS(name); err != nil || !slices.Equal(viaOS, want) {
			t.Errorf("%q: readDirOS differs from os.ReadDir (%v)", name, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: readDir gives %d entries, os.ReadDir %d", name, len(got), len(want))
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Errorf("first difference at %d: %q %v, want %q %v", i, got[i].path, got[i].typ, want[i].path, want[i].typ)
					break
				}
			}
		}
	}
	// From the root too.
	if got, want := len(mustReadDir(t, "/")), len(osReadDir(t, "/")); got != want || mustReadDir(t, "/")[0].path[0] != '/' || strings.HasPrefix(mustReadDir(t, "/")[0].path, "//") {
		t.Errorf(`"/": %d entries (%q...), want %d`, got, mustReadDir(t, "/")[0].path, want)
	}
}

func mustReadDir(t *testing.T, dir string) []dirEntry {
	t.Helper()
	got, err := readDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestReadDirErrors checks readDir's errors: those of os.ReadDir.
func TestReadDirErrors(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "f")
	os.WriteFile(file, nil, 0o644)
	for _, name := range []string{filepath.Join(root, "missing"), file} {
		got, err := readDir(name)
		_, oerr := os.ReadDir(name)
		if len(got) != 0 || err == nil || oerr == nil || err.Error() != oerr.Error() {
			t.Errorf("%q: %d entries, %v; os.ReadDir: %v", name, len(got), err, oerr)
		}
	}
}

// dirent is a linux_dirent64 record (getdents(2)) of the name, of type
// typ, its length rounded up to 8 bytes.
func dirent(name string, typ byte) []byte {
	size := (19 + len(name) + 1 + 7) &^ 7
	b := make([]byte, size)
	binary.NativeEndian.PutUint64(b, 1)
	binary.NativeEndian.PutUint16(b[16:], uint16(size))
	b[18] = typ
	copy(b[19:], name)
	return b
}

// TestParseDirents checks the reading of getdents records: the names
// and types, "." and ".." left out; a record of no type (DT_UNKNOWN)
// stops the reading (readDir then reads the directory by os.ReadDir,
// which asks each such entry); a record whose length is wrong is an
// error, not a panic, and the names before it are kept.
func TestParseDirents(t *testing.T) {
	dir := t.TempDir()
	var b []byte
	for _, r := range [][]byte{
		dirent(".", syscall.DT_DIR), dirent("..", syscall.DT_DIR),
		dirent("b", syscall.DT_REG), dirent("a", syscall.DT_DIR), dirent("l", syscall.DT_LNK),
		dirent("p", syscall.DT_FIFO),
	} {
		b = append(b, r...)
	}
	var l nameList
	if err := l.parse(b, dir); err != nil {
		t.Fatal(err)
	}
	got := l.paths("x/")
	want := []dirEntry{{"x/a", 2, fs.ModeDir}, {"x/b", 2, 0}, {"x/l", 2, fs.ModeSymlink}, {"x/p", 2, fs.ModeNamedPipe}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if err := new(nameList).parse(append(dirent("b", syscall.DT_REG), dirent("known", syscall.DT_UNKNOWN)...), dir); err != errUnknownType {
		t.Errorf("a record of no type: %v, want errUnknownType", err)
	}
	for _, bad := range [][]byte{
		append(dirent("a", syscall.DT_REG), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0, 0, 8), // length 0
		append(dirent("a", syscall.DT_REG), dirent("toolong", syscall.DT_REG)[:24]...),                      // cut short
	} {
		var l nameList
		err := l.parse(bad, dir)
		if err == nil || len(l.ents) != 1 {
			t.Errorf("%q: %d names, %v; want 1 and an error", bad, len(l.ents), err)
		}
	}
}

// FuzzParseDirents: any bytes read as getdents records give an error or
// names, never a panic; no name is empty, "." or "..", or holds a NUL.
func FuzzParseDirents(f *testing.F) {
	f.Add(append(dirent("a", syscall.DT_REG), dirent("bb", syscall.DT_DIR)...))
	f.Add(dirent(".", syscall.DT_DIR))
	f.Fuzz(func(t *testing.T, b []byte) {
		var l nameList
		l.parse(b, t.TempDir())
		for _, e := range l.paths("") {
			if e.path == "" || e.path == "." || e.path == ".." || strings.IndexByte(e.path, 0) >= 0 {
				t.Errorf("name %q", e.path)
			}
		}
	})
}
