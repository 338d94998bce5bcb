package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent returns the current GOGC percentage.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// raiseStartingHeap puts the first collection at startingHeap, then GOGC
// back to 100 once it has come; with GOGC set, it leaves it alone.
func TestRaiseStartingHeap(t *testing.T) {
	defer debug.SetGCPercent(gcPercent())

	t.Setenv("GOGC", "50") // restored at the end, as Setenv does
	debug.SetGCPercent(50)
	raiseStartingHeap()
	if p := gcPercent(); p != 50 {
		t.Fatalf("with GOGC=50 set, GOGC is %d", p)
	}

	os.Unsetenv("GOGC")
	debug.SetGCPercent(100)
	raiseStartingHeap()
	if p, want := gcPercent(), 100*startingHeap/(4<<20); p != want {
		t.Fatalf("GOGC is %d before the first collection, want %d", p, want)
	}
	for deadline := time.Now().Add(10 * time.Second); gcPercent() != 100; {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC is %d after collections, want 100", gcPercent())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}
