package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// urix sets the garbage collector's pace by the size of the live heap,
// unless GOGC is set (then the user's choice stands).
//
// With GOGC=100 Go collects when the heap reaches twice what was live
// after the last collection, and never below 4 MB. Most of urix's runs
// keep little alive: its buffers, a few MB (five scanners of 321 KB and
// their results' blocks on two workers); an mbox read from a mapping of
// its file, 1 MB. Its garbage is short-lived: a mail message's header
// values, its documents' URIs. So collections came every 3 MB allocated,
// six in an mbox of 274 MB, each marking on one CPU of two and slowing
// the other with write barriers: `urix -c` on the corpus's mail.mbox took
// 3 % more than with collections at 12 MB (GOGC=300, interleaved, least
// of 41: 0.1328 against 0.1281 s; GOGC=200 0.1298, GOGC=400 0.1300).
// With GOGC=100, reading the 200 MB text.txt on two workers made a
// collection that had nothing to free, at 3 % of its time too.
//
// While the live heap is under smallLive, GOGC is smallHeapGOGC: the
// heap then reaches 12 MB before a collection (4 MB times 300/100, Go's
// least goal), and at most four times what is live. Once more is live
// (-u keeps every distinct URI), GOGC is 100: memory follows the live
// heap as it would without this. Not higher: at 16 MB an mbox's
// short-lived garbage was all fresh memory (a quarter more page faults,
// the CPU its fewer collections saved) and its peak RSS 4 MB larger
// (session 10, reading into blocks); at 12 MB it is 34 MB against 29.
//
// Past bigHeadroom live (the set of -u: up to 64 MiB of exact set, or a
// 64 MiB Bloom filter), the heap may grow bigHeadroom past what is live
// before a collection, not to twice it: GOGC is bigHeadroom over the
// live heap, in percent (50 at 64 MiB live), and 10 at least. So -u's
// peak RSS is its set and a bounded margin (behaviour §6.3), where it
// was twice its set.
const (
	smallHeapGOGC = 300
	smallLive     = 4 << 20
	bigHeadroom   = 32 << 20
	leastGOGC     = 10
)

// PaceGC sets GOGC as above, and again after each collection, until
// stop is called (by tests; the program lets it run).
func PaceGC() (stop func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	debug.SetGCPercent(smallHeapGOGC)
	p := &gcPacer{percent: smallHeapGOGC, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	p.arm()
	return func() { p.stopped.Store(true) }
}

// gcPacer sets GOGC after each collection by the heap then live.
type gcPacer struct {
	percent int
	sample  []metrics.Sample
	stopped atomic.Bool
}

// arm makes pace run after the next collection: a sentinel unreachable
// at once, whose cleanup runs then (64 bytes: not in the tiny allocator,
// whose objects may never be cleaned up).
func (p *gcPacer) arm() {
	runtime.AddCleanup(new([64]byte), func(*gcPacer) { p.pace() }, p)
}

func (p *gcPacer) pace() {
	if p.stopped.Load() {
		return
	}
	metrics.Read(p.sample)
	want := 100
	if v := p.sample[0].Value; v.Kind() == metrics.KindUint64 {
		want = percentFor(v.Uint64())
	}
	if want != p.percent {
		debug.SetGCPercent(want)
		p.percent = want
	}
	p.arm()
}

// percentFor is the GOGC for a live heap of live bytes.
func percentFor(live uint64) int {
	switch {
	case live < smallLive:
		return smallHeapGOGC
	case live > bigHeadroom:
		return max(leastGOGC, int(bigHeadroom*100/live))
	}
	return 100
}
