package main

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"
)

// TestYieldingReader: the reader that yields passes its input through
// whole, whatever the reads, across several yields.
func TestYieldingReader(t *testing.T) {
	data := bytes.Repeat([]byte("see http://example.org/ now\n"), 3*yieldEvery/28+7)
	if err := iotest.TestReader(&yieldingReader{r: bytes.NewReader(data)}, data); err != nil {
		t.Fatal(err)
	}
	y := &yieldingReader{r: iotest.HalfReader(bytes.NewReader(data))}
	got, err := io.ReadAll(y)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d of %d bytes, err %v", len(got), len(data), err)
	}
	if y.since >= yieldEvery {
		t.Errorf("%d bytes read since the last yield, more than %d", y.since, yieldEvery)
	}
}
