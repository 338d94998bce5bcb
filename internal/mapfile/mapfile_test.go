package mapfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// readAt reads m[i] with faults made panics, recovered by Recover.
func readAt(m []byte, i int) (c byte, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer Recover(m, &err)
	return m[i], nil
}

// A mapped file's bytes read as written; once it shrank, a read past its
// new end's page is a FaultError at that offset, no crash; a panic of
// another kind goes on through Recover.
func TestMapFault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	data := make([]byte, 64<<10)
	for i := range data {
		data[i] = byte(i)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := Map(f, int64(len(data)))
	if m == nil {
		t.Skip("files are not mapped into memory here")
	}
	defer Unmap(m)
	if c, err := readAt(m, 40000); c != byte(40000%256) || err != nil {
		t.Fatalf("m[40000] = %d, %v", c, err)
	}
	Drop(m[1000:50000]) // its pages come back from the file
	if c, err := readAt(m, 40000); c != byte(40000%256) || err != nil {
		t.Fatalf("m[40000] after Drop = %d, %v", c, err)
	}
	if err := os.Truncate(path, 8<<10); err != nil {
		t.Fatal(err)
	}
	_, err = readAt(m, 40000)
	var fe *FaultError
	if !errors.As(err, &fe) || fe.Offset != 40000 {
		t.Fatalf("m[40000] of the shrunk file: %v, want a FaultError at 40000", err)
	}
	if c, err := readAt(m, 100); c != 100 || err != nil {
		t.Fatalf("m[100] of the shrunk file = %d, %v", c, err)
	}
	defer func() {
		if e := recover(); e == nil {
			t.Error("an index out of range was recovered as a fault")
		}
	}()
	readAt(m, len(m)+1)
}
