//go:build unix

package engine

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWalkedFileEndOnce: once a read of a walked file meets its end, the
// next reads return io.EOF without asking the kernel again (the reader
// that peeks the head and the format's reader each met it: two reads of
// nothing a file), also if the file has grown since; the next file
// opened starts afresh.
func TestWalkedFileEndOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("see http://a.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var f walkedFile
	if err := f.open(path); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(&f); err != nil {
		t.Fatal(err)
	}
	appended, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	appended.WriteString("more http://b.example/\n")
	appended.Close()
	if n, err := f.Read(make([]byte, 64)); n != 0 || err != io.EOF {
		t.Errorf("read after the end: %d bytes, %v; want 0, EOF without a read", n, err)
	}
	f.Close()
	if err := f.open(path); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, err := io.ReadAll(&f); err != nil || len(b) != 45 {
		t.Errorf("the file opened again: %d bytes (%v), want 45", len(b), err)
	}
}
