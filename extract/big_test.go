package extract

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The big-input tests read gigabytes made on the fly. They are skipped with
// -short and under the race detector; CI runs them in a step of their own:
//
//	go test -run BigInput -timeout 30m ./extract/

const heapLimit = 64 << 20

func skipBig(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("big input: skipped with -short")
	}
	if raceEnabled {
		t.Skip("big input: skipped under -race; run go test -run BigInput ./extract/")
	}
}

// plant is a string placed at an offset of a generated input.
type plant struct {
	at int64
	s  string
}

// genReader makes size bytes on the fly: filler repeated, with plants at
// their offsets (in increasing order, not overlapping). Every 16 MiB it
// samples the heap and records the peak.
type genReader struct {
	size, off int64
	filler    []byte
	plants    []plant
	nextCheck int64
	peak      uint64
}

func newGen(size int64, filler string, plants []plant) *genReader {
	f := []byte(strings.Repeat(filler, max(1, 64<<10/len(filler))))
	return &genReader{size: size, filler: f[:len(f)/len(filler)*len(filler)], plants: plants}
}

func (g *genReader) Read(p []byte) (int, error) {
	if g.off >= g.size {
		return 0, io.EOF
	}
	if g.off >= g.nextCheck {
		g.sample()
		g.nextCheck += 16 << 20
	}
	p = p[:min(int64(len(p)), g.size-g.off)]
	n := 0
	for n < len(p) {
		off := g.off + int64(n)
		if len(g.plants) > 0 && off >= g.plants[0].at {
			pl := g.plants[0]
			k := copy(p[n:], pl.s[off-pl.at:])
			n += k
			if off+int64(k) >= pl.at+int64(len(pl.s)) {
				g.plants = g.plants[1:]
			}
			continue
		}
		lim := len(p)
		if len(g.plants) > 0 {
			lim = int(min(int64(lim), int64(n)+g.plants[0].at-off))
		}
		fo := int(off % int64(len(g.filler)))
		n += copy(p[n:lim], g.filler[fo:])
	}
	g.off += int64(n)
	return n, nil
}

func (g *genReader) sample() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	g.peak = max(g.peak, ms.HeapInuse, ms.HeapAlloc)
}

func (g *genReader) checkHeap(t *testing.T) {
	t.Helper()
	g.sample()
	t.Logf("peak heap %.1f MiB", float64(g.peak)/(1<<20))
	if g.peak > heapLimit {
		t.Errorf("heap reached %d bytes, over %d", g.peak, heapLimit)
	}
}

// (a) 2 GiB without a line break, URIs planted at known offsets.
func TestBigInputNoLineBreak(t *testing.T) {
	skipBig(t)
	runtime.GC()
	const size = 2 << 30
	var plants []plant
	var want []string
	for i, at := range []int64{0, 1<<20 - 3, 64<<20 + 65535, 1 << 30, 1<<31 - 100, size - 40} {
		u := fmt.Sprintf("http://planted.example/%d/x", i)
		if i == 3 {
			u = "<URL:" + u + ">"
		}
		plants = append(plants, plant{at: at, s: " " + u + " "})
		want = append(want, fmt.Sprint(at+1+int64(strings.Index(u, "http"))))
	}
	g := newGen(size, "lorem ipsum: dolor sit amet, e.g. at 10:30 consectetur (adipiscing) elit ", plants)
	start := time.Now()
	var got []string
	for m, err := range All(g, Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		if m.Line != 1 || m.Column != m.Offset+1 {
			t.Errorf("%s at %d: line %d column %d", m.URI, m.Offset, m.Line, m.Column)
		}
		if !strings.HasPrefix(m.URI, "http://planted.example/") {
			t.Errorf("unexpected %q at %d", m.URI, m.Offset)
		}
		got = append(got, fmt.Sprint(m.Offset))
	}
	t.Logf("2 GiB in %v", time.Since(start))
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("offsets %v, want %v", got, want)
	}
	g.checkHeap(t)
}

// (b) 1 GiB of '<' with no '>', then a URI.
func TestBigInputOpenAngles(t *testing.T) {
	skipBig(t)
	runtime.GC()
	const size = 1 << 30
	g := newGen(size+20, "<", []plant{{at: size, s: "http://after.example"}})
	start := time.Now()
	var got []Match
	for m, err := range All(g, Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		m.Raw = nil
		got = append(got, m)
	}
	t.Logf("1 GiB of '<' in %v", time.Since(start))
	if len(got) != 1 || got[0].URI != "http://after.example" || got[0].Offset != size {
		t.Errorf("got %+v", got)
	}
	g.checkHeap(t)
}

// (c) a candidate longer than the limit, then a normal URI: the long one
// is reported to OnSkip with its offset, the normal one found.
func TestBigInputTooLong(t *testing.T) {
	skipBig(t)
	runtime.GC()
	const long = 1 << 30
	g := newGen(long+100, "a", []plant{{at: 10, s: " http://long.example/"}, {at: 10 + long, s: " http://normal.example/ "}})
	var skips []Skip
	start := time.Now()
	var got []string
	for m, err := range All(g, Options{OnSkip: func(s Skip) { skips = append(skips, s) }}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s@%d", m.URI, m.Offset))
	}
	t.Logf("1 GiB candidate in %v", time.Since(start))
	if len(got) != 1 || got[0] != fmt.Sprintf("http://normal.example/@%d", 11+long) {
		t.Errorf("got %v", got)
	}
	if len(skips) != 1 || skips[0].Offset != 11 || skips[0].End != 10+long || skips[0].Line != 1 || skips[0].Column != 12 {
		t.Errorf("skips %+v", skips)
	}
	g.checkHeap(t)
}
