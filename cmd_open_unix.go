//go:build unix

package main

import (
	"os"
	"syscall"
)

// openInput opens a file to read, as os.Open does but for the poller: on
// Linux os.Open sets every file non-blocking and offers it to epoll,
// which refuses regular files, then sets it back, five system calls of
// the nine a small file costs (-r over 2,863 man pages: os.Open was a
// quarter of the CPU time, SetNonblock and epoll 10 %). A file opened here
// is read with blocking reads, as a regular file is anyway; a named FIFO
// read so blocks its worker's thread, not the others.
func openInput(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
