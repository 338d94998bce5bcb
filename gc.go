package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// startingHeap is the heap at which urix's first garbage collection comes.
//
// With GOGC=100, Go collects first when the heap reaches 4 MB, and urix's
// own buffers come near that: a large file read on two workers holds five
// scanners of 321 KB and the blocks of their results, 3.3 MB in all. So
// reading the 200 MB text.txt of bench/ on two workers made a collection
// that had nothing to free, and cost the run 3 % of its time (its marking
// takes a CPU of two, and write barriers slow the rest). cmd/compile
// raises its starting heap for the same reason (AdjustStartingHeap in
// cmd/compile/internal/base). From the first collection on, GOGC is 100
// again: memory follows the live heap as it would without this. Not
// higher: at 16 MB an mbox's short-lived garbage was all fresh memory (a
// quarter more page faults, the CPU its fewer collections saved) and its
// peak RSS 4 MB larger; at 8 MB the split read makes no collection and
// the peaks are as they were.
const startingHeap = 8 << 20

// raiseStartingHeap makes the first collection come at startingHeap,
// unless GOGC is set: then the user's choice stands.
func raiseStartingHeap() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	// Go's first goal is 4 MB times GOGC/100.
	debug.SetGCPercent(100 * startingHeap / (4 << 20))
	// The sentinel is unreachable at once; its cleanup runs after the
	// first collection (64 bytes: not in the tiny allocator, whose
	// objects may never be cleaned up).
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, func(int) { debug.SetGCPercent(100) }, 0)
}
