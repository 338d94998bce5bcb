//go:build unix

package engine

import (
	"io"
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

// walkedFile is a regular file found by a -r walk, read by its
// descriptor, a worker's from file to file. An *os.File cost, for each
// of a Maildir's small files, an allocation, a finalizer set and
// cleared, and a system call (fcntl, to learn whether the descriptor is
// non-blocking), with locks on every read: 6,013 files of 7.8 KB, 3.6
// ms of the 40 it took to open, read and close them (bench/README.md,
// session 16). Its errors are those of an *os.File (*os.PathError).
type walkedFile struct {
	fd   int
	name string
	// eof: a read returned 0 bytes. The layers above (a bufio.Reader that
	// peeks the head, then the format's reader) each met the end once:
	// two reads of 0 bytes for most of a Maildir's files, 16,036 reads
	// for 6,013 files. A walked file is a regular file read once.
	eof bool
}

func (f *walkedFile) open(name string) error {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "open", Path: name, Err: err}
		}
		f.fd, f.name, f.eof = fd, name, false
		return nil
	}
}

func (f *walkedFile) Read(p []byte) (int, error) {
	if f.eof && len(p) > 0 {
		return 0, io.EOF
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0 && len(p) > 0:
			f.eof = true
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *walkedFile) Close() error {
	err := syscall.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &os.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}
