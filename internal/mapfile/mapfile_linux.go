//go:build linux

package mapfile

import (
	"math"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// Map maps the first size bytes of f into memory, read-only, or returns
// nil where it cannot (a file system without mmap, a 32-bit address
// space): the caller then reads f.
func Map(f *os.File, size int64) []byte {
	if size <= 0 || strconv.IntSize < 64 || size > math.MaxInt {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var b []byte
	rc.Control(func(fd uintptr) {
		b, err = syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	})
	if err != nil {
		return nil
	}
	return b
}

// Unmap unmaps what Map mapped.
func Unmap(b []byte) { syscall.Munmap(b) }

// Drop takes the pages that lie whole within b, a piece of a mapping, out
// of the process's memory: they stay in the page cache, and come back
// from it if read again.
func Drop(b []byte) {
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	from := (start + page - 1) &^ (page - 1)
	to := (start + uintptr(len(b))) &^ (page - 1)
	if to <= from {
		return
	}
	syscall.Madvise(b[from-start:to-start], syscall.MADV_DONTNEED)
}
