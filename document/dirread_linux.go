//go:build linux

package document

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"slices"
	"sync"
	"syscall"
)

// readDir returns the entries of the directory dir, sorted by name, with
// their paths (filepath.Join(dir, name)). On an error it returns it with
// the entries read before it, as os.ReadDir does.
//
// It reads the directory as os.ReadDir does on Linux (getdents64), into
// one list of names rather than an entry and a string each (nameList).
// A directory that does not tell the type of an entry (DT_UNKNOWN: some
// filesystems) is read by os.ReadDir, which asks the entries relative to
// the directory it holds open.
func readDir(dir string) ([]dirEntry, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	var l nameList
	bp := direntBufs.Get().(*[direntBufSize]byte)
	defer direntBufs.Put(bp)
	buf := bp[:]
	var rerr error
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			rerr = &os.PathError{Op: "readdirent", Path: dir, Err: err}
			break
		}
		if n <= 0 {
			break
		}
		if err := l.parse(buf[:n], dir); err != nil {
			if err == errUnknownType {
				return readDirOS(dir)
			}
			rerr = err
			break
		}
	}
	return l.paths(childPrefix(dir)), rerr
}

// errUnknownType: a record gave no type (DT_UNKNOWN).
var errUnknownType = errors.New("an entry of unknown type")

// direntBufSize is the size of a getdents64 read: 32 KiB takes about
// 1,000 names of a Maildir a call (os.ReadDir's 8 KiB, 256).
const direntBufSize = 32 << 10

// direntBufs keeps the buffers of getdents64 from directory to
// directory: a walk of many small directories made one each.
var direntBufs = sync.Pool{New: func() any { return new([direntBufSize]byte) }}

// parse adds the names of the linux_dirent64 records in b (getdents(2)):
// an inode (8 bytes), an offset (8), the record's length (2), the type
// (1), and the name, ended by a NUL byte. It stops at a record of no
// type (errUnknownType) or of a length that cannot be.
func (l *nameList) parse(b []byte, dir string) error {
	for len(b) >= 19 {
		size := int(binary.NativeEndian.Uint16(b[16:18]))
		if size < 19 || size > len(b) {
			return &os.PathError{Op: "readdirent", Path: dir, Err: syscall.EIO}
		}
		name := b[19:size]
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		typ := direntType(b[18])
		b = b[size:]
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		if typ == unknownType {
			return errUnknownType
		}
		l.add(name, typ)
	}
	return nil
}

// unknownType is the type of an entry whose directory does not tell it.
const unknownType = ^fs.FileMode(0)

// direntType is the type a linux_dirent64 gives, as fs.FileMode.
func direntType(t byte) fs.FileMode {
	switch t {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	}
	return unknownType
}
