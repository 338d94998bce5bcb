package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
