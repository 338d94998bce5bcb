package engine

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openInput reads a file as os.Open's would, and fails as os.Open does,
// with the same error (the messages name it so).
func TestOpenInput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("see http://a.example/"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := openInput(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	if err != nil || string(b) != "see http://a.example/" || f.Name() != path {
		t.Errorf("read %q (%v) from %q", b, err, f.Name())
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
	missing := filepath.Join(dir, "missing")
	_, err = openInput(missing)
	_, want := os.Open(missing)
	if err == nil || err.Error() != want.Error() || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, os.Open says %v", err, want)
	}
}

// A file of a -r walk, read by its descriptor, reads as an *os.File
// reads, to io.EOF, and fails as one does, with the same errors (a
// file gone since the walk, a directory put in its place).
func TestWalkedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	text := strings.Repeat("see http://a.example/ ", 1000)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var f walkedFile
	for range 2 { // a worker's, from file to file
		if err := f.open(path); err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(struct{ io.Reader }{&f}) // small reads, to the end
		if err != nil || string(b) != text {
			t.Errorf("read %d bytes (%v), want %d", len(b), err, len(text))
		}
		if n, err := f.Read(make([]byte, 8)); n != 0 || err != io.EOF {
			t.Errorf("read past the end: %d, %v", n, err)
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	}
	missing := filepath.Join(dir, "missing")
	err := f.open(missing)
	_, want := os.Open(missing)
	if err == nil || err.Error() != want.Error() || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, os.Open says %v", err, want)
	}
	if err := f.open(dir); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, _ := os.Open(dir)
	defer d.Close()
	_, err = f.Read(make([]byte, 8))
	_, want = d.Read(make([]byte, 8))
	if err == nil || err.Error() != want.Error() {
		t.Errorf("directory: %v, os.File says %v", err, want)
	}
}
