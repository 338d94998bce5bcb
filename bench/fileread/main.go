// Command fileread times the ways of opening, reading and closing every
// file of a directory (a Maildir's cur/), to tell what the kernel's part
// of urix -r costs for each file, apart from the search: each way is run
// over all the files, the ways in turn, ROUNDS rounds (default 15), and
// the least wall, user and system time of each is printed. The files
// should be in the page cache (read them once first).
//
//	go run ./fileread /tmp/urix-corpus/maildir/cur
//
// The ways: an *os.File opened by path (urix before session 16), a
// descriptor opened by path (urix -r since), openat(2) in the directory's
// descriptor, with O_NOATIME, with fstat(2) so that the size known
// spares the read that finds the end, a single read (a lower bound: a
// short read is not the end of every file, /proc's), and a mapping.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var (
	buf  = make([]byte, 64<<10) // as urix reads: a 64 KiB buffer
	sink int
)

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// readAll reads fd to the end: to a read that returns 0. With size > 0,
// it stops once size bytes are read and a read was short.
func readAll(fd int, size int64) {
	got := 0
	for {
		n, _ := syscall.Read(fd, buf)
		sink += n
		got += n
		if n <= 0 || size > 0 && int64(got) >= size && n < len(buf) {
			return
		}
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fileread DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	entries, err := os.ReadDir(dir)
	check(err)
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	dirfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	check(err)
	openAt := func(name string, flags int) int {
		fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_CLOEXEC|flags, 0)
		check(err)
		return fd
	}
	ways := []struct {
		name string
		read func(name string)
	}{
		{"os.File by path", func(name string) {
			fd, err := syscall.Open(filepath.Join(dir, name), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			check(err)
			f := os.NewFile(uintptr(fd), name)
			for {
				n, err := f.Read(buf)
				sink += n
				if err != nil {
					break
				}
			}
			f.Close()
		}},
		{"descriptor by path", func(name string) {
			fd, err := syscall.Open(filepath.Join(dir, name), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			check(err)
			readAll(fd, 0)
			syscall.Close(fd)
		}},
		{"openat", func(name string) {
			fd := openAt(name, 0)
			readAll(fd, 0)
			syscall.Close(fd)
		}},
		{"openat O_NOATIME", func(name string) {
			fd := openAt(name, unix.O_NOATIME)
			readAll(fd, 0)
			syscall.Close(fd)
		}},
		{"openat fstat", func(name string) {
			fd := openAt(name, 0)
			var st unix.Stat_t
			check(unix.Fstat(fd, &st))
			readAll(fd, st.Size)
			syscall.Close(fd)
		}},
		{"openat one read", func(name string) {
			fd := openAt(name, 0)
			n, _ := syscall.Read(fd, buf)
			sink += n
			syscall.Close(fd)
		}},
		{"openat mmap", func(name string) {
			fd := openAt(name, 0)
			var st unix.Stat_t
			check(unix.Fstat(fd, &st))
			if st.Size > 0 {
				m, err := unix.Mmap(fd, 0, int(st.Size), unix.PROT_READ, unix.MAP_SHARED)
				check(err)
				for i := 0; i < len(m); i += 4096 {
					sink += int(m[i])
				}
				unix.Munmap(m)
			}
			syscall.Close(fd)
		}},
	}
	rounds := 15
	if s := os.Getenv("ROUNDS"); s != "" {
		rounds, err = strconv.Atoi(s)
		check(err)
	}
	type times struct{ wall, user, sys time.Duration }
	best := make([]times, len(ways))
	rusage := func() (time.Duration, time.Duration) {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
	}
	for r := range rounds {
		for i, w := range ways {
			u0, s0 := rusage()
			t0 := time.Now()
			for _, name := range names {
				w.read(name)
			}
			wall := time.Since(t0)
			u1, s1 := rusage()
			if r == 0 || wall < best[i].wall {
				best[i] = times{wall, u1 - u0, s1 - s0}
			}
		}
	}
	fmt.Printf("%d files, least of %d rounds\n", len(names), rounds)
	for i, w := range ways {
		b := best[i]
		fmt.Printf("| %s | %.1f ms | %.2f µs | %.1f | %.1f |\n", w.name, b.wall.Seconds()*1e3,
			b.wall.Seconds()*1e6/float64(len(names)), b.user.Seconds()*1e3, b.sys.Seconds()*1e3)
	}
}
