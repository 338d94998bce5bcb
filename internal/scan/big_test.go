package scan

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// repeatReader gives pattern repeated up to size bytes.
type repeatReader struct {
	pat       []byte
	size, off int64
	peak      uint64
	nextCheck int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	if r.off >= r.nextCheck {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		r.peak = max(r.peak, ms.HeapInuse, ms.HeapAlloc)
		r.nextCheck += 16 << 20
	}
	p = p[:min(int64(len(p)), r.size-r.off)]
	n := 0
	for n < len(p) {
		n += copy(p[n:], r.pat[int((r.off+int64(n))%int64(len(r.pat))):])
	}
	r.off += int64(n)
	return n, nil
}

// countAll scans size bytes of pattern and returns the candidates and the
// time it took.
func countAll(t *testing.T, prefix, pattern string, size int64) (int, time.Duration) {
	t.Helper()
	r := &repeatReader{pat: []byte(pattern), size: size}
	start := time.Now()
	s := New(io.MultiReader(strings.NewReader(prefix), r), Config{})
	n := 0
	for s.Scan() {
		n++
	}
	d := time.Since(start)
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	if r.peak > 64<<20 {
		t.Errorf("heap reached %d bytes", r.peak)
	}
	return n, d
}

// (d) Many "<http://x " with no '>': each '<' opens an angle context that
// is abandoned at the end of input; the memo of angle.go keeps the whole in
// linear time. The ratio of the times for 64 and 32 MiB is logged (about 2
// when linear), not asserted: the machine is shared.
func TestBigInputUnclosedAngles(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("big input: run go test -run BigInput ./scan/ without -race")
	}
	// The quoted ones: a line with a quote prefix, whose '<' were once
	// followed to the length limit each (quadratic time); and lines of
	// alternating quote depths.
	for _, c := range [][2]string{{"", "<http://x "}, {"", "<http://x\n"}, {"> ", "<http://x "}, {">> ", "<http://x "}, {"", "> <http://x\n<http://x\n"}} {
		prefix, pat := c[0], c[1]
		n32, d32 := countAll(t, prefix, pat, 32<<20)
		n64, d64 := countAll(t, prefix, pat, 64<<20)
		want := int((64 << 20) / len(pat) * strings.Count(pat, "<"))
		if n64 < want-2 || n64 > want+2 || n32 < want/2-2 {
			t.Errorf("%q: %d and %d candidates, want about %d", pat, n32, n64, want)
		}
		t.Logf("%q: 32 MiB in %v, 64 MiB in %v: ratio %.2f", pat, d32, d64, float64(d64)/float64(d32))
		if d64 > 60*time.Second {
			t.Errorf("%q: 64 MiB took %v: not linear", pat, d64)
		}
	}
}
