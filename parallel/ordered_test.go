package parallel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// fileText is the output of file i: lines, more than spoolLimit of them
// for the big ones, so that a spool fills its memory and spills.
func fileText(i int, big bool) []byte {
	var b bytes.Buffer
	n := 1000
	if big {
		n = spoolLimit/13 + 5000
	}
	for k := range n {
		fmt.Fprintf(&b, "f%02d:%08d\n", i, k) // 13 bytes
	}
	return b.Bytes()
}

// writeOrdered writes the texts through an Ordered on one goroutine
// per file, in pieces of random sizes, and returns what came out.
func writeOrdered(t *testing.T, texts [][]byte) []byte {
	t.Helper()
	var out bytes.Buffer
	o := NewOrdered(&out)
	var wg sync.WaitGroup
	for i, text := range texts {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			w := o.Writer(i)
			for p := text; len(p) > 0; {
				n := min(len(p), 1+rng.IntN(100<<10))
				if m, err := w.Write(p[:n]); m != n || err != nil {
					t.Errorf("file %d: Write = %d, %v; want %d, nil", i, m, err, n)
					return
				}
				p = p[n:]
			}
			if err := o.Done(i); err != nil {
				t.Errorf("file %d: finish: %v", i, err)
			}
		})
	}
	wg.Wait()
	return out.Bytes()
}

func TestOrderedOutput(t *testing.T) {
	for _, tmp := range []string{"writable", "unwritable"} {
		t.Run(tmp, func(t *testing.T) {
			if tmp == "unwritable" {
				// No temporary file can be made: a full spool waits for its
				// turn instead of spilling, and the order still holds.
				t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
			} else {
				t.Setenv("TMPDIR", t.TempDir())
			}
			var texts [][]byte
			var want []byte
			for i := range 4 {
				text := fileText(i, i%2 == 1)
				texts = append(texts, text)
				want = append(want, text...)
			}
			got := writeOrdered(t, texts)
			if !bytes.Equal(got, want) {
				t.Fatalf("output of %d bytes differs from the files' in order (%d bytes)", len(got), len(want))
			}
			if tmp == "writable" {
				left, _ := os.ReadDir(os.Getenv("TMPDIR"))
				if len(left) != 0 {
					t.Errorf("temporary files left behind: %v", left)
				}
			}
		})
	}
}

// TestOrderedOutputSpills: a file after the head whose output passes the
// memory limit goes on to its end while the head is still being read
// (it used to wait, which made -j 2 as slow as -j 1 on large outputs).
func TestOrderedOutputSpills(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var out bytes.Buffer
	o := NewOrdered(&out)
	second := fileText(1, true)
	done := make(chan error, 1)
	go func() {
		_, err := o.Writer(1).Write(second)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second file's writer waits for the first file to finish")
	}
	first := fileText(0, false)
	o.Writer(0).Write(first)
	o.Done(1)
	if out.Len() != len(first) {
		t.Fatalf("before the first file finished, %d bytes out; want the first file's %d", out.Len(), len(first))
	}
	o.Done(0)
	if want := append(first, second...); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("output of %d bytes differs from the files' in order (%d bytes)", out.Len(), len(want))
	}
}

// Stop(i) keeps the output of the inputs up to i, in order, and drops
// that of the ones after it: those already spooled (one spilled to a
// temporary file, which goes), written after Stop, and done before or
// after it.
func TestOrderedStop(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var out bytes.Buffer
	o := NewOrdered(&out)
	texts := [][]byte{fileText(0, false), fileText(1, false), fileText(2, false), fileText(3, true), fileText(4, false)}
	o.Writer(3).Write(texts[3]) // spilled
	o.Writer(2).Write(texts[2])
	o.Done(3)
	o.Writer(0).Write(texts[0])
	o.Stop(1)
	o.Writer(1).Write(texts[1])
	o.Writer(4).Write(texts[4])
	o.Stop(3) // a later Stop does not bring back what an earlier dropped
	o.Done(4)
	o.Done(2)
	o.Done(1)
	o.Done(0)
	if want := append(bytes.Clone(texts[0]), texts[1]...); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("output of %d bytes, want the first two inputs' %d", out.Len(), len(want))
	}
	if left, _ := os.ReadDir(os.Getenv("TMPDIR")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// A spool of a few lines (a count, a small file's URIs) holds them in
// a small chunk, not one of 64 KiB: many inputs wait at once when they
// are small. What passes the small chunk goes on in the large ones, in
// order, up to the spill.
func TestSpoolSmallFirst(t *testing.T) {
	var s spool
	if n := s.write([]byte("a.txt:3\n")); n != 8 || len(s.chunks) != 0 || s.ns != 8 {
		t.Fatalf("a line: kept %d, %d large chunks, %d bytes in the small one", n, len(s.chunks), s.ns)
	}
	var want bytes.Buffer
	want.WriteString("a.txt:3\n")
	for i := range 20000 { // past the small chunk, and past spoolLimit: spilled
		line := fmt.Appendf(nil, "file%d.txt:http://example.com/%d\n", i, i)
		if n := s.write(line); n != len(line) {
			t.Fatalf("line %d: kept %d of %d", i, n, len(line))
		}
		want.Write(line)
	}
	if s.file == nil {
		t.Fatalf("%d bytes in memory, none spilled", s.ns+s.n)
	}
	var got bytes.Buffer
	if err := s.flushTo(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("flushed %d bytes, want %d, or out of order", got.Len(), want.Len())
	}
	if s.small != nil || s.chunks != nil || s.file != nil {
		t.Error("the spool still holds memory or a file after flushing")
	}
}
