// Package mapfile maps regular files into memory, read-only, for the
// readers that read a file in place rather than copy it with read(2)
// (extract.Split's chunks, document's mbox messages), and turns a fault
// in such a mapping (the file shrank as it was read, its storage failed)
// into an error where the Go runtime would crash on SIGBUS.
//
// A goroutine that reads a mapping sets debug.SetPanicOnFault, and a
// function that reads it defers Recover:
//
//	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
//	defer mapfile.Recover(m, &err)
package mapfile

import (
	"fmt"
	"os"
	"strings"
	"unsafe"
)

// FaultError is the error of a file mapped into memory whose bytes could
// not be read: it shrank as it was read, or its storage failed.
type FaultError struct {
	Offset int64 // where in the mapping
}

func (e *FaultError) Error() string {
	return fmt.Sprintf("no data at offset %d: the file shrank as it was read, or its storage failed", e.Offset)
}

// Fault returns the FaultError of e, a value recovered from a panic, when
// it is a fault at an address in m; nil for anything else.
func Fault(e any, m []byte) *FaultError {
	fault, ok := e.(interface{ Addr() uintptr })
	if !ok || len(m) == 0 {
		return nil
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	if fault.Addr() < start || fault.Addr() >= start+uintptr(len(m)) {
		return nil
	}
	return &FaultError{Offset: int64(fault.Addr() - start)}
}

// Recover, deferred by a function that reads the mapping m with
// debug.SetPanicOnFault set, sets *err to the FaultError of a fault in m;
// any other panic goes on.
func Recover(m []byte, err *error) {
	e := recover()
	if e == nil {
		return
	}
	f := Fault(e, m)
	if f == nil {
		panic(e)
	}
	*err = f
}

// ResidentFile returns the bytes of file pages resident in the process's
// memory (RssFile of /proc/self/status: its mappings of files), -1 where
// that is not known. The tests of the readers check by it that a
// mapping's pages are let go as they are read.
func ResidentFile() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "RssFile:"); ok {
			var kb int64
			if _, err := fmt.Sscan(rest, &kb); err == nil {
				return kb << 10
			}
		}
	}
	return -1
}

// Mappable reports whether f can be mapped into memory here (Map gives
// nil where it cannot): tests of what a mapping does skip where not.
func Mappable(f *os.File) bool {
	m := Map(f, 1)
	if m == nil {
		return false
	}
	Unmap(m)
	return true
}
