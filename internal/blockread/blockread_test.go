package blockread

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"testing/iotest"
	"unsafe"
)

// ops runs a sequence of calls, chosen by seed, on a reader with
// bufio.Reader's methods, and describes what each gave.
type bufioLike interface {
	Peek(int) ([]byte, error)
	Discard(int) (int, error)
	ReadSlice(byte) ([]byte, error)
	ReadByte() (byte, error)
	Read([]byte) (int, error)
}

func ops(r bufioLike, seed int64) string {
	rng := rand.New(rand.NewSource(seed))
	var b strings.Builder
	buf := make([]byte, 3000)
	for i := 0; i < 400; i++ {
		var err error
		switch rng.Intn(5) {
		case 0:
			var p []byte
			p, err = r.Peek(rng.Intn(5000))
			fmt.Fprintf(&b, "peek %q|", p)
		case 1:
			var n int
			n, err = r.Discard(rng.Intn(20000))
			fmt.Fprintf(&b, "discard %d|", n)
		case 2:
			var p []byte
			p, err = r.ReadSlice('\n')
			fmt.Fprintf(&b, "slice %q|", p)
		case 3:
			var c byte
			c, err = r.ReadByte()
			fmt.Fprintf(&b, "byte %q|", c)
		case 4:
			// Read gives what is buffered, which differs from bufio's
			// buffer: compare what a ReadFull gives.
			var n int
			n, err = io.ReadFull(r, buf[:rng.Intn(len(buf))])
			fmt.Fprintf(&b, "read %q|", buf[:n])
		}
		if err != nil {
			fmt.Fprintf(&b, "err %v|", err)
			if err != bufio.ErrBufferFull && err != io.ErrUnexpectedEOF {
				break
			}
		}
	}
	return b.String()
}

// A Reader gives what a bufio.Reader of SliceMax bytes gives, whatever
// the reads of its input, across blocks (lines longer than SliceMax
// included); a mapped Reader too (TestMappedWindows crosses its windows).
func TestReaderAsBufio(t *testing.T) {
	var text bytes.Buffer
	for i := 0; text.Len() < 3*MinBlock; i++ {
		fmt.Fprintf(&text, "line %d %s\n", i, strings.Repeat("x", i%300))
		if i%997 == 0 {
			text.WriteString(strings.Repeat("long", 20000) + "\n")
		}
	}
	in := text.Bytes()
	for seed := int64(0); seed < 12; seed++ {
		want := ops(bufio.NewReaderSize(bytes.NewReader(in), SliceMax), seed)
		for name, r := range map[string]*Reader{
			"whole":  NewReader(bytes.NewReader(in), 0),
			"half":   NewReader(iotest.HalfReader(bytes.NewReader(in)), 0),
			"data":   NewReader(iotest.DataErrReader(bytes.NewReader(in)), 0),
			"mapped": NewMappedReader(Mapped{Data: in}),
		} {
			if got := ops(r, seed); got != want {
				t.Fatalf("seed %d, %s: differs from bufio", seed, name)
			}
		}
	}
}

// A piece held from its Mark keeps its bytes while the Reader moves on
// through blocks that are reused.
func TestHeldSurvivesBlocks(t *testing.T) {
	var text bytes.Buffer
	for i := 0; text.Len() < 8*MinBlock; i++ {
		fmt.Fprintf(&text, "record %d %s\n", i, strings.Repeat("y", i%5000))
	}
	r := NewReader(iotest.HalfReader(bytes.NewReader(text.Bytes())), 64<<10)
	type held struct {
		want string
		data []byte
		blk  *Block
	}
	var keep []held
	for i := 0; ; i++ {
		r.Mark()
		line, err := r.ReadSlice('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		want := string(line)
		data, blk := r.Held()
		r.ClearMark()
		keep = append(keep, held{want, data, blk})
		if len(keep) > 1000 {
			// Release the oldest, as a worker done with it would.
			h := keep[0]
			if string(h.data) != h.want {
				t.Fatalf("held %q, want %q", h.data, h.want)
			}
			h.blk.Release()
			keep = keep[1:]
		}
	}
	for _, h := range keep {
		if string(h.data) != h.want {
			t.Fatalf("held %q, want %q", h.data, h.want)
		}
	}
}

// A mapped Reader's pieces are slices of its input, held in order and
// released out of order (as workers do): Free is given every window of
// the input once, in all the whole input, never one a piece held
// still holds, and Done comes once, after Close and the last Release.
func TestMappedWindows(t *testing.T) {
	var text bytes.Buffer
	for i := 0; text.Len() < 9*mapWindow; i++ {
		fmt.Fprintf(&text, "record %d %s\n", i, strings.Repeat("y", i%7000))
	}
	in := text.Bytes()
	freed := make([]int, len(in)) // times each byte was freed
	type held struct {
		data []byte
		blk  *Block
	}
	var keep []held
	done := 0
	r := NewMappedReader(Mapped{
		Data: in,
		Free: func(w []byte) {
			at := offsetIn(in, w)
			for _, h := range keep {
				if hs := offsetIn(in, h.data); hs >= at && hs < at+len(w) {
					t.Fatalf("window [%d, %d) freed while a piece at %d holds it", at, at+len(w), hs)
				}
			}
			for i := at; i < at+len(w); i++ {
				freed[i]++
			}
		},
		Done: func() { done++ },
	})
	rng := rand.New(rand.NewSource(3))
	for {
		r.Mark()
		line, err := r.ReadSlice('\n')
		if err == io.EOF {
			r.ClearMark()
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, blk := r.Held()
		r.ClearMark()
		if &data[0] != &line[0] || offsetIn(in, data) < 0 {
			t.Fatal("a held piece is not a slice of the input")
		}
		keep = append(keep, held{data, blk})
		for len(keep) > 500 || len(keep) > 0 && rng.Intn(3) == 0 {
			k := rng.Intn(min(len(keep), 40))
			blk := keep[k].blk
			keep = append(keep[:k], keep[k+1:]...)
			blk.Release()
		}
	}
	r.Close()
	if done != 0 {
		t.Fatalf("Done with %d pieces held", len(keep))
	}
	for len(keep) > 0 {
		blk := keep[0].blk
		keep = keep[1:]
		blk.Release()
	}
	if done != 1 {
		t.Fatalf("Done called %d times, want 1", done)
	}
	for i, n := range freed {
		if n != 1 {
			t.Fatalf("byte %d freed %d times", i, n)
		}
	}
}

// offsetIn returns where p, a slice of in, starts in it; -1 when p does
// not lie in in.
func offsetIn(in, p []byte) int {
	at := int(uintptr(unsafe.Pointer(unsafe.SliceData(p))) - uintptr(unsafe.Pointer(unsafe.SliceData(in))))
	if at < 0 || at+len(p) > len(in) {
		return -1
	}
	return at
}
