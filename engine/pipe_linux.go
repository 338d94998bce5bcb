package engine

import (
	"os"
	"syscall"
)

// pipeBuffer is the size asked of the kernel for a pipe urix reads: the
// most it gives a user who is not root, by default (pipe-max-size).
const pipeBuffer = 1 << 20

// widenPipe asks for a larger buffer on file when it is a pipe (standard
// input in cat FILE | urix, or a named FIFO): with the default 64 KiB,
// each read found a quarter of what the scanner asks for, and the writer
// and urix took turns on the CPUs, a switch for every 64 KiB. bench's
// text.txt through cat: 0.125 -> 0.084 s (interleave.py 11, least). The
// kernel may refuse (a user over the pipe quota): the pipe then stays as
// it was.
func widenPipe(file *os.File) {
	fi, err := file.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	rc, err := file.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETPIPE_SZ, pipeBuffer)
	})
}
