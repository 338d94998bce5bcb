package pipeline

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// An asyncWriter writes what it is given, in order, whatever the sizes of
// the writes against its blocks.
func TestAsyncWriterWritesAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var want, got bytes.Buffer
	a := newAsyncWriter(&got)
	for want.Len() < 5*asyncBlock+123 {
		p := make([]byte, rng.IntN(asyncBlock/3)+rng.IntN(2)*asyncBlock)
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		want.Write(p)
		if n, err := a.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	if err := a.close(); err != nil {
		t.Fatal(err)
	}
	if err := a.close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%d bytes written, want %d", got.Len(), want.Len())
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// The writer's error fails the writes once it is known, and the close.
func TestAsyncWriterError(t *testing.T) {
	errDisk := errors.New("disk full")
	a := newAsyncWriter(failWriter{errDisk})
	var err error
	for i := 0; i < 8 && err == nil; i++ {
		_, err = a.Write(make([]byte, asyncBlock))
	}
	if !errors.Is(err, errDisk) {
		t.Errorf("Write: %v, want %v", err, errDisk)
	}
	if err := a.close(); !errors.Is(err, errDisk) {
		t.Errorf("close: %v, want %v", err, errDisk)
	}
}
