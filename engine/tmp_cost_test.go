package engine

import (
	"io"
	"os"
	"testing"
	"time"
)

func TestTmpCost(t *testing.T) {
	for _, name := range []string{"/tmp/textrange-dense.txt"} {
		for _, lines := range []bool{false, true} {
			f, _ := os.Open(name)
			fi, _ := f.Stat()
			o := DefaultOptions()
			o.Output.Line = lines
			o.Stdout, o.Stderr = io.Discard, io.Discard
			o.Jobs = 1
			t0 := time.Now()
			Run([]string{name}, o)
			run := time.Since(t0)
			t0 = time.Now()
			rs, _ := Ranges(name, f, fi.Size(), o, 8<<20)
			list := time.Since(t0)
			t0 = time.Now()
			for _, rg := range rs {
				RunRange(rg, f, o)
			}
			ranged := time.Since(t0)
			mb := float64(fi.Size()) / 1e6
			t.Logf("%s lines=%v: Run -j1 %v (%.0f MB/s); Ranges %v (%.0f MB/s, GOMAXPROCS 1); RunRange x%d %v (%.0f MB/s)", name, lines, run, mb/run.Seconds(), list, mb/list.Seconds(), len(rs), ranged, mb/ranged.Seconds())
			f.Close()
		}
	}
}
