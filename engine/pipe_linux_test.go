package engine

import (
	"os"
	"syscall"
	"testing"
)

func pipeSize(t *testing.T, f *os.File) int {
	t.Helper()
	n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETPIPE_SZ, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	return int(n)
}

// A pipe urix reads gets a buffer of pipeBuffer bytes (cat FILE | urix:
// a third less time than with the default 64 KiB).
func TestWidenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if pipeSize(t, r) >= pipeBuffer {
		t.Skip("pipes are that large already here")
	}
	widenPipe(r)
	if got := pipeSize(t, r); got < pipeBuffer {
		t.Errorf("pipe buffer %d bytes after widenPipe, want %d", got, pipeBuffer)
	}
	widenPipe(os.Stderr) // not a pipe, or one: no harm either way
}
