//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// stdoutClosedAtStart reports whether standard output was closed when the
// program started (urix f >&-). The Go runtime opens /dev/null, read and
// write, in place of a closed descriptor 0, 1 or 2 (runtime/fds_unix.go),
// so the writes would succeed and the output vanish with exit status 0;
// grep says "write error" and exits 2. A shell's >/dev/null opens it
// write-only, so /dev/null open for reading and writing on descriptor 1
// is taken as the runtime's stand-in (1<>/dev/null, which no one writes,
// would be taken for it too).
func stdoutClosedAtStart() bool {
	flags, err := unix.FcntlInt(1, unix.F_GETFL, 0)
	if err != nil || flags&unix.O_ACCMODE != unix.O_RDWR {
		return false
	}
	var out, null unix.Stat_t
	if unix.Fstat(1, &out) != nil || unix.Stat(os.DevNull, &null) != nil {
		return false
	}
	return out.Mode&unix.S_IFMT == unix.S_IFCHR && out.Rdev == null.Rdev
}
