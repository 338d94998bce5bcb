package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcPercent returns the current GOGC percentage.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// waitPercent collects until GOGC is want (the pacer sets it after a
// collection, on the cleanup goroutine), or fails after 10 s.
func waitPercent(t *testing.T, want int, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); gcPercent() != want; {
		if time.Now().After(deadline) {
			t.Fatalf("%s: GOGC is %d, want %d", what, gcPercent(), want)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// keep holds the test's live heap.
var keep [][]byte

// liveHeap returns the heap live after the last collection.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// PaceGC sets GOGC to smallHeapGOGC while little is live and to 100
// while more than smallLive is, after every collection; with GOGC set,
// it leaves it alone. (What else the test binary keeps alive counts too:
// the checks of "little live" are made only when it is little.)
func TestPaceGC(t *testing.T) {
	defer debug.SetGCPercent(gcPercent())

	t.Setenv("GOGC", "50") // restored at the end, as Setenv does
	debug.SetGCPercent(50)
	PaceGC()()
	if p := gcPercent(); p != 50 {
		t.Fatalf("with GOGC=50 set, GOGC is %d", p)
	}

	os.Unsetenv("GOGC")
	debug.SetGCPercent(100)
	stop := PaceGC()
	defer stop() // before GOGC is set back
	if p := gcPercent(); p != smallHeapGOGC {
		t.Fatalf("GOGC is %d before the first collection, want %d", p, smallHeapGOGC)
	}
	runtime.GC()
	little := liveHeap() < smallLive/2
	if little {
		waitPercent(t, smallHeapGOGC, "little live")
	} else {
		t.Logf("%d bytes live before the test: its checks of little live skipped", liveHeap())
	}
	for range 16 {
		keep = append(keep, make([]byte, smallLive/4))
	}
	waitPercent(t, 100, "4 times smallLive live")
	keep = nil
	if little {
		waitPercent(t, smallHeapGOGC, "that let go")
	}
}

// Past bigHeadroom live, the heap grows bigHeadroom over what is live
// before a collection, not to twice it (GOGC 100 let -u's set double).
func TestPercentFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, smallHeapGOGC}, {smallLive - 1, smallHeapGOGC}, {smallLive, 100}, {bigHeadroom, 100},
		{2 * bigHeadroom, 50}, {4 * bigHeadroom, 25}, {100 * bigHeadroom, leastGOGC},
	} {
		if got := percentFor(tc.live); got != tc.want {
			t.Errorf("percentFor(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}
