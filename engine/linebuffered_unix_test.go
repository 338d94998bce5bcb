//go:build unix

package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// notifyingWriter records what is written and tells when it holds want
// lines.
type notifyingWriter struct {
	mu    sync.Mutex
	buf   strings.Builder
	want  int
	ready chan struct{}
}

func (w *notifyingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Count(w.buf.String(), "\n") == w.want {
		close(w.ready)
	}
	return len(p), nil
}

// TestLineBufferedNotHeldByBatch: with --line-buffered (a terminal's
// default) the line of each file, its name with -l, its count with -c,
// goes out when the file is read, at -j 2 as at -j 1, not when the batch
// of files it came in ends: a file that blocks (a FIFO no one writes
// to yet) after 50 small ones does not hold back their lines. The
// batch's output held to its end (issue 32) did (reviewed in session
// 19: 43 of 50 names before the FIFO).
func TestLineBufferedNotHeldByBatch(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for i := range 50 {
		name := filepath.Join(dir, fmt.Sprintf("a%02d.txt", i))
		if err := os.WriteFile(name, []byte("see http://example.com/x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, name)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	inputs = append(inputs, fifo)
	for _, mode := range []string{"-l", "-c", "uris"} {
		for _, jobs := range []int{1, 2} {
			w := &notifyingWriter{want: 50, ready: make(chan struct{})}
			o := DefaultOptions()
			o.Jobs = jobs
			o.Stdout, o.Stderr = w, w
			o.Output.LineBuffered = true
			switch mode {
			case "-l":
				o.List = ListWithMatches
			case "-c":
				o.Output.Count = true
			}
			done := make(chan Result)
			go func() { done <- Run(inputs, o) }()
			select {
			case <-w.ready:
			case <-time.After(10 * time.Second):
				w.mu.Lock()
				t.Errorf("%s -j %d: the lines of the 50 files before a FIFO not out while it blocks: %d lines", mode, jobs, strings.Count(w.buf.String(), "\n"))
				w.mu.Unlock()
			}
			// The FIFO's end: opened and closed by a writer.
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
			if res := <-done; res.Status != Found {
				t.Errorf("%s -j %d: status %v", mode, jobs, res.Status)
			}
		}
	}
}
