package document

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// smallAhead makes the segments, holds and blocks of gzipahead.go small,
// so that inputs of a few hundred KiB span many segments, for the test.
func smallAhead(t testing.TB) { aheadSizes(t, 4<<10, 16<<10, 1<<10, 1<<10) }

// aheadSizes sets them, and the workers' reads to an eighth of a segment.
func aheadSizes(t testing.TB, segment, hold int64, block int, firstMember int64) {
	was := []int64{aheadSegment, aheadHold, int64(aheadBlock), aheadFirstMember, int64(aheadRead)}
	aheadSegment, aheadHold, aheadBlock, aheadFirstMember, aheadRead = segment, hold, block, firstMember, int(segment/8)
	t.Cleanup(func() {
		aheadSegment, aheadHold, aheadBlock, aheadFirstMember, aheadRead = was[0], was[1], int(was[2]), was[3], int(was[4])
	})
}

// aheadMember returns one gzip member of a kind a WARC file or a test of
// its reading may hold.
func aheadMember(rng *rand.Rand) []byte {
	var body []byte
	level := gzip.DefaultCompression
	switch k := rng.IntN(10); {
	case k < 4: // a record of text, a few KiB
		body = sampleText(rng.IntN(6 << 10))
		body = body[rng.IntN(len(body)/2+1):]
	case k == 4: // nothing
	case k == 5: // bytes that do not compress: stored blocks
		body = make([]byte, rng.IntN(8<<10))
		for i := range body {
			body[i] = byte(rng.Uint32())
		}
	case k == 6: // a gzip file stored as it is: members whose start is false
		inner := gzipMember(sampleText(rng.IntN(4<<10)), gzip.DefaultCompression, "inner.txt")
		body = append(append([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n"), inner...), inner...)
		level = gzip.NoCompression
	case k == 7: // larger than a segment may hold
		body = sampleText(20<<10 + rng.IntN(40<<10))
	default: // a short record
		body = fmt.Appendf(nil, "WARC/1.0\r\nWARC-Type: conversion\r\n\r\nhttp://example.com/%d\r\n", rng.Int())
	}
	return gzipMember(body, level, "")
}

func gzipMember(body []byte, level int, name string) []byte {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		panic(err)
	}
	w.Name = name
	w.Write(body)
	w.Close()
	return b.Bytes()
}

// aheadInput is a file of many members (the first one small, so that the
// workers start), and how it ends.
func aheadInput(rng *rand.Rand, size int) []byte {
	in := gzipMember([]byte("WARC/1.0\r\nWARC-Type: warcinfo\r\n\r\n"), gzip.DefaultCompression, "")
	for len(in) < size {
		in = append(in, aheadMember(rng)...)
	}
	return in
}

// damage spoils in as real files are spoiled, or leaves it whole.
func damage(rng *rand.Rand, in []byte) ([]byte, string) {
	in = bytes.Clone(in)
	switch rng.IntN(8) {
	case 0:
		at := len(in)/4 + rng.IntN(len(in)*3/4)
		in[at] ^= 1 << rng.IntN(8)
		return in, fmt.Sprintf("bit flipped at %d", at)
	case 1:
		at := len(in)/4 + rng.IntN(len(in)*3/4)
		return in[:at], fmt.Sprintf("cut at %d", at)
	case 2:
		return append(in, make([]byte, 1+rng.IntN(5000))...), "zero padding"
	case 3:
		return append(in, "trailing garbage"...), "garbage"
	}
	return in, "whole"
}

// readRandomly reads r by reads of random sizes, to its end or error.
func readRandomly(rng *rand.Rand, r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf[:1+rng.IntN(len(buf))])
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// decodeWith decompresses in with so many workers; ahead is how many bytes
// of the output come from members the workers decoded ahead.
func decodeWith(t testing.TB, rng *rand.Rand, in []byte, workers int) (out []byte, ahead int64, err error) {
	t.Helper()
	b := &Buffer{Workers: workers}
	r, _, err := b.Decompress(bytes.NewReader(in), false)
	if err != nil {
		return nil, 0, err
	}
	out, err = readRandomly(rng, r)
	if d, ok := r.(*decoder); ok {
		ahead = d.aheadOut
		d.Close()
	}
	return out, ahead, err
}

// noGoroutinesLeft fails when more goroutines run than before, once
// those ending have had a moment.
func noGoroutinesLeft(t *testing.T, before int) {
	t.Helper()
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 200 {
			t.Fatalf("%d goroutines left running, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Decoding ahead changes nothing a reader gets: not a byte, not an error,
// not an offset, whatever the members (nested gzip files whose starts are
// false, members too large to hold, empty ones) and whatever is wrong with
// the file (a bit flipped, cut short, padding, garbage after it).
func TestGzipAheadSame(t *testing.T) {
	smallAhead(t)
	before := runtime.NumGoroutine()
	rng := rand.New(rand.NewPCG(1, 2))
	var ahead int64
	for i := range 40 {
		in, how := damage(rng, aheadInput(rng, 40<<10+rng.IntN(120<<10)))
		want, _, wantErr := decodeWith(t, rng, in, 0)
		for _, workers := range []int{2, 3} {
			got, n, err := decodeWith(t, rng, in, workers)
			ahead += n
			if !bytes.Equal(got, want) {
				t.Fatalf("input %d (%s), %d workers: %d bytes, want %d (first difference at %d)", i, how, workers, len(got), len(want), firstDiff(got, want))
			}
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("input %d (%s), %d workers: error %v, want %v", i, how, workers, err, wantErr)
			}
		}
	}
	// How much is decoded ahead depends on how the workers are
	// scheduled (4 to 6 MB here, on two CPUs; less under the load of
	// other packages' tests): a least that says the path was taken.
	t.Logf("%d bytes decoded ahead were handed out", ahead)
	if ahead < 1<<20 {
		t.Fatalf("only %d bytes decoded ahead were handed out: the test does not test them", ahead)
	}
	noGoroutinesLeft(t, before)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A corrupt member far into the file is reported as without workers: its
// offsets, after the output of every member before it.
func TestGzipAheadCorruptMember(t *testing.T) {
	smallAhead(t)
	rng := rand.New(rand.NewPCG(3, 4))
	in := aheadInput(rng, 300<<10)
	// Spoil the CRC-32 of a member in the last third.
	var members []int
	for at := 0; at < len(in); {
		members = append(members, at)
		at += memberLen(t, in[at:])
	}
	k := members[len(members)*2/3]
	bad := bytes.Clone(in)
	bad[k+memberLen(t, in[k:])-8] ^= 0xff
	want, _, wantErr := decodeWith(t, rng, bad, 0)
	got, ahead, err := decodeWith(t, rng, bad, 2)
	var e *Error
	if !errors.As(wantErr, &e) || !errors.Is(e.Err, gzip.ErrChecksum) {
		t.Fatalf("without workers: %v, want a checksum error", wantErr)
	}
	if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) || ahead == 0 {
		t.Fatalf("with workers: %d bytes (%d decoded ahead), %v; want %d bytes, %v", len(got), ahead, err, len(want), wantErr)
	}
}

// memberLen is the length of the gzip member at the start of b.
func memberLen(t *testing.T, b []byte) int {
	t.Helper()
	r := bytes.NewReader(b)
	z, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	z.Multistream(false)
	if _, err := io.Copy(io.Discard, z); err != nil {
		t.Fatal(err)
	}
	return len(b) - r.Len()
}

// A reader closed part way stops the workers: none is left waiting with
// its output.
func TestGzipAheadClose(t *testing.T) {
	smallAhead(t)
	before := runtime.NumGoroutine()
	rng := rand.New(rand.NewPCG(5, 6))
	in := aheadInput(rng, 400<<10)
	for _, stopAt := range []int{0, 10 << 10, 100 << 10, 300 << 10} {
		b := &Buffer{Workers: 4}
		r, _, err := b.Decompress(bytes.NewReader(in), false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.CopyN(io.Discard, r, int64(stopAt)); err != nil {
			t.Fatal(err)
		}
		r.(io.Closer).Close()
	}
	noGoroutinesLeft(t, before)
}

// Workers decode only from a reader that can be read at any offset, and
// only a file of many members: one large member is decoded on the
// reader's goroutine alone (its magic bytes inside would all be false
// starts).
func TestGzipAheadWhen(t *testing.T) {
	smallAhead(t)
	rng := rand.New(rand.NewPCG(7, 8))
	many := aheadInput(rng, 200<<10)
	one := gzipMember(sampleText(600<<10), flate.BestSpeed, "")
	for _, tc := range []struct {
		name   string
		in     io.Reader
		chains bool
	}{
		{"many members, bytes.Reader", bytes.NewReader(many), true},
		{"many members, io.SectionReader", io.NewSectionReader(bytes.NewReader(many), 0, int64(len(many))), true},
		{"many members, a reader of the stream only", bytes.NewBuffer(many), false},
		{"one member", bytes.NewReader(one), false},
	} {
		b := &Buffer{Workers: 2}
		r, _, err := b.Decompress(tc.in, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, r); err != nil {
			t.Fatal(err)
		}
		if got := r.(*decoder).aheadOut > 0; got != tc.chains {
			t.Errorf("%s: chains decoded ahead %v, want %v", tc.name, got, tc.chains)
		}
	}
}

// In a file of small members, as a WET file is, the workers decode all but
// the first segment: the decoder takes each chain where the one before it
// ends, without decoding a member of its own in between.
func TestGzipAheadShare(t *testing.T) {
	smallAhead(t)
	rng := rand.New(rand.NewPCG(13, 14))
	in := gzipMember([]byte("WARC/1.0\r\n\r\n"), gzip.DefaultCompression, "")
	for len(in) < 400<<10 {
		in = append(in, gzipMember(sampleText(rng.IntN(4<<10)), gzip.DefaultCompression, "")...)
	}
	out, ahead, err := decodeWith(t, rng, in, 2)
	if err != nil {
		t.Fatal(err)
	}
	// The first segment is the decoder's own, and the members that start
	// in it.
	first, _, _ := decodeWith(t, rng, in[:memberEnd(t, in, aheadSegment)], 0)
	if own := int64(len(out)) - ahead; own != int64(len(first)) {
		t.Fatalf("the decoder decoded %d bytes of %d itself, want %d (the first segment's)", own, len(out), len(first))
	}
}

// memberEnd is the end of the first member of in that ends at or past at.
func memberEnd(t *testing.T, in []byte, at int64) int {
	t.Helper()
	end := 0
	for int64(end) < at {
		end += memberLen(t, in[end:])
	}
	return end
}

// A reader that does not start at offset 0 is read from where it stands.
func TestGzipAheadOffset(t *testing.T) {
	smallAhead(t)
	rng := rand.New(rand.NewPCG(9, 10))
	in := aheadInput(rng, 200<<10)
	want, _, _ := decodeWith(t, rng, in, 0)
	r := bytes.NewReader(append([]byte("0123456789"), in...))
	r.Seek(10, io.SeekStart)
	dec, _, err := (&Buffer{Workers: 2}).Decompress(r, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(dec)
	if err != nil || !bytes.Equal(got, want) || dec.(*decoder).aheadOut == 0 {
		t.Fatalf("from offset 10: %d bytes (%d decoded ahead), %v; want %d bytes", len(got), dec.(*decoder).aheadOut, err, len(want))
	}
}

// FuzzGzipAhead compares the decoding of any input with and without
// workers.
func FuzzGzipAhead(f *testing.F) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 4 {
		f.Add(aheadInput(rng, 20<<10))
	}
	aheadSizes(f, 1<<10, 4<<10, 256, 512)
	f.Fuzz(func(t *testing.T, in []byte) {
		rng := rand.New(rand.NewPCG(uint64(len(in)), 0))
		want, _, wantErr := decodeWith(t, rng, in, 0)
		got, _, err := decodeWith(t, rng, in, 2)
		if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("with workers: %d bytes, %v; without: %d bytes, %v", len(got), err, len(want), wantErr)
		}
	})
}

// countingSource counts the bytes read from a bytes.Reader at offsets
// (by the workers, at once).
type countingSource struct {
	*bytes.Reader
	at atomic.Int64
}

func (c *countingSource) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.Reader.ReadAt(p, off)
	c.at.Add(int64(n))
	return n, err
}

// A file whose members hold magic bytes by the thousand (a binary stored
// in a record, gzip headers repeated) costs the workers a bounded number
// of reads: they try a few candidate starts in a segment, not each one.
func TestGzipAheadManyFalseStarts(t *testing.T) {
	smallAhead(t)
	rng := rand.New(rand.NewPCG(15, 16))
	junk := bytes.Repeat([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"), 2000)
	in := aheadInput(rng, 2<<10)
	for len(in) < 300<<10 {
		in = append(in, gzipMember(junk, gzip.NoCompression, "")...)
		in = append(in, aheadMember(rng)...)
	}
	want, _, wantErr := decodeWith(t, rng, in, 0)
	src := &countingSource{Reader: bytes.NewReader(in)}
	r, _, err := (&Buffer{Workers: 2}).Decompress(src, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readRandomly(rng, r)
	if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("with workers: %d bytes, %v; want %d bytes, %v", len(got), err, len(want), wantErr)
	}
	if at := src.at.Load(); at > 4*int64(len(in)) {
		t.Errorf("the workers read %d bytes at offsets of a file of %d", at, len(in))
	}
}

// A panic of a worker (a bug that some member meets) ends the input with
// an error worded as the engine's contained panics are, where the decoder
// comes to the segment it panicked in: the output of every member before
// that segment's first member is handed out, the same whatever the
// workers, no goroutine is left running, and the next input is decoded
// as usual.
func TestGzipAheadWorkerPanicContained(t *testing.T) {
	smallAhead(t)
	before := runtime.NumGoroutine()
	rng := rand.New(rand.NewPCG(5, 6))
	in := aheadInput(rng, 300<<10)
	whole, _, err := decodeWith(t, rng, in, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The segment the worker panics in, and the output before its first
	// member.
	panicSeg := int64(len(in)/2) &^ (aheadSegment - 1)
	wantLen := 0
	for at := 0; int64(at) < panicSeg; {
		n := memberLen(t, in[at:])
		z, err := gzip.NewReader(bytes.NewReader(in[at : at+n]))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(z)
		wantLen += len(body)
		at += n
	}
	for _, workers := range []int{2, 3} {
		panicAhead = func(segStart int64) {
			if segStart == panicSeg {
				panic("boom")
			}
		}
		got, _, err := decodeWith(t, rng, in, workers)
		panicAhead = nil
		want := fmt.Sprintf("gzip: internal error reading the input: boom (the rest of it was not read; please report this) after %d bytes", wantLen)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%d workers: error %v, want %q", workers, err, want)
		}
		if !bytes.Equal(got, whole[:wantLen]) {
			t.Errorf("%d workers: %d bytes, want the %d before the segment (first difference at %d)", workers, len(got), wantLen, firstDiff(got, whole))
		}
		noGoroutinesLeft(t, before)
		got, _, err = decodeWith(t, rng, in, workers)
		if err != nil || !bytes.Equal(got, whole) {
			t.Errorf("%d workers: the input after: error %v, %d bytes of %d", workers, err, len(got), len(whole))
		}
	}
}
