//go:build linux

package parallel

import (
	"math"
	"os"
	"strconv"
	"syscall"
)

// mapFile maps the size bytes of f into memory, read-only, or returns nil
// where it cannot (a file system without mmap, a 32-bit address space):
// Split then reads it with ReadAt.
func mapFile(f *os.File, size int64) []byte {
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

func unmapFile(b []byte) { syscall.Munmap(b) }

// dropPages takes b's pages out of the process's memory: they stay in the
// page cache, and come back from it if read again.
func dropPages(b []byte) { syscall.Madvise(b, syscall.MADV_DONTNEED) }
