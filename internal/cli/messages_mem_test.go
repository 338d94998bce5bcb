package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// An mbox of many tiny messages read on two workers holds what its runs
// of messages take, not more: the runs are counted by the memory of the
// messages' buffers. (Counted by the messages' bytes, with 32 KiB buffers,
// a million 40-byte messages held 85 MB.) The heap is sampled while urix
// runs in this process.
func TestMboxRunsBoundedMemory(t *testing.T) {
	n := 300000
	if testing.Short() {
		n = 50000
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "From a x 00:00\n\nhttp://e.example/%d\n\n", i)
	}
	name := filepath.Join(t.TempDir(), "tiny.mbox")
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b = strings.Builder{}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)

	var peak atomic.Uint64
	done := make(chan bool)
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				close(done)
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	saved, savedArgs := stdout, os.Args
	counted := &strings.Builder{}
	stdout, os.Args = counted, []string{"urix", "-j", "2", "-c", name}
	status := Main()
	stdout, os.Args = saved, savedArgs
	done <- true
	<-done
	if status != exitFound || strings.TrimSpace(counted.String()) != fmt.Sprint(n) {
		t.Fatalf("status %d, output %q, want %d", status, counted.String(), n)
	}
	grew := int64(peak.Load()) - int64(base.HeapInuse)
	t.Logf("heap in use grew by %d KiB at most", grew>>10)
	if grew > 48<<20 {
		t.Errorf("heap in use grew by %d MiB reading tiny messages", grew>>20)
	}
}
