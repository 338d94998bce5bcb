package document

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/flate"
)

// gzipHeader is a member header with the optional fields asked for
// (RFC 1952 2.3.1); hcrc adds their CRC-16, right when hcrc is 1, wrong
// when 2.
func gzipHeader(name, comment string, extra []byte, hcrc int) []byte {
	h := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}
	if extra != nil {
		h[3] |= gzipFlagExtra
		h = binary.LittleEndian.AppendUint16(h, uint16(len(extra)))
		h = append(h, extra...)
	}
	if name != "" {
		h[3] |= gzipFlagName
		h = append(append(h, name...), 0)
	}
	if comment != "" {
		h[3] |= gzipFlagComment
		h = append(append(h, comment...), 0)
	}
	if hcrc > 0 {
		h[3] |= gzipFlagHeaderCRC
		h = binary.LittleEndian.AppendUint16(h, uint16(crc32.ChecksumIEEE(h))+uint16(hcrc-1))
	}
	return h
}

// gzipBody is the deflate data of text and the member's trailer.
func gzipBody(text []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.DefaultCompression)
	w.Write(text)
	w.Close()
	return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(b.Bytes(), crc32.ChecksumIEEE(text)), uint32(len(text)))
}

// A header is read as gzip -dc reads it: FNAME and FCOMMENT of any length
// (the library refused 512 bytes and more), FEXTRA, FHCRC. Issue 32: a
// file of 20,000 URIs was lost to a 512-byte name.
func TestGzipLongHeaderFields(t *testing.T) {
	text := sampleText(64 << 10)
	long := strings.Repeat("n", 1<<20)
	for _, h := range []struct {
		name string
		head []byte
	}{
		{"name of 511 bytes", gzipHeader(strings.Repeat("n", 511), "", nil, 0)},
		{"name of 512 bytes", gzipHeader(strings.Repeat("n", 512), "", nil, 0)},
		{"name of 1 MiB", gzipHeader(long, "", nil, 0)},
		{"comment of 600 bytes", gzipHeader("", strings.Repeat("c", 600), nil, 0)},
		{"Latin-1 name, comment, extra, header CRC", gzipHeader("na\xefve"+long, long, make([]byte, 65535), 1)},
	} {
		in := append(h.head, gzipBody(text)...)
		in = append(in, in...) // and the member after it
		for _, workers := range []int{0, 2} {
			b := &Buffer{Workers: workers}
			r, c, err := b.Decompress(bytes.NewReader(in), false)
			if err != nil || c != Gzip {
				t.Fatalf("%s: %v, %v", h.name, c, err)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, append(bytes.Clone(text), text...)) {
				t.Errorf("%s, %d workers: %d bytes, %v", h.name, workers, len(got), err)
			}
		}
	}
}

// What gzip(1) refuses is refused: reserved flags, a wrong header CRC, a
// header cut short in its name.
func TestGzipHeaderRefused(t *testing.T) {
	body := gzipBody(sampleText(4 << 10))
	reserved := gzipHeader("", "", nil, 0)
	reserved[3] |= 0x20
	for _, h := range []struct {
		name string
		in   []byte
		want error
	}{
		{"reserved flag", append(reserved, body...), gzip.ErrHeader},
		{"wrong header CRC", append(gzipHeader("name", "", nil, 2), body...), gzip.ErrHeader},
		{"cut in the name", gzipHeader(strings.Repeat("\xff", 100<<10), "", nil, 0)[:50<<10], io.ErrUnexpectedEOF},
	} {
		_, _, err := Decompress(bytes.NewReader(h.in), false)
		if !errors.Is(err, h.want) {
			t.Errorf("%s: %v, want %v", h.name, err, h.want)
		}
	}
}

// A name of any length costs no memory: it is skipped, not held. What
// the reading costs (its buffers, the decoder, the first MiB of the input
// kept until something is decoded, to be read as text if nothing is) is
// the same for a name of 8 MiB as for one of 128 MiB.
func TestGzipLongNameMemory(t *testing.T) {
	text := sampleText(4 << 10)
	alloc := func(nameLen int64) uint64 {
		head := gzipHeader("x", "", nil, 0)
		in := io.MultiReader(bytes.NewReader(head[:10]), io.LimitReader(repeatByte('n'), nameLen),
			bytes.NewReader([]byte{0}), bytes.NewReader(gzipBody(text)))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, _, err := Decompress(in, false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		runtime.ReadMemStats(&after)
		if err != nil || !bytes.Equal(got, text) {
			t.Fatalf("name of %d bytes: %d bytes, %v", nameLen, len(got), err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	short, long := alloc(8<<20), alloc(128<<20)
	if long > short+1<<20 {
		t.Errorf("%d bytes allocated for a name of 128 MiB, %d for one of 8 MiB", long, short)
	}
}

type repeatByte byte

func (b repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// A corrupt deflate stream is reported at its offset in the input, not in
// the member (issue 32: "corrupt input before offset 9" in a file of
// thousands of members): after a whole member, a header of 611 bytes,
// a block of the reserved type 3 is noticed at the first byte of the data.
func TestGzipCorruptOffsetInFile(t *testing.T) {
	first := append(gzipHeader("", "", nil, 0), gzipBody(sampleText(4<<10))...)
	second := gzipHeader(strings.Repeat("n", 600), "", nil, 0)
	in := append(append(bytes.Clone(first), second...), 0x06, 0, 0, 0, 0)
	want := int64(len(first) + len(second) + 1)
	for _, workers := range []int{0, 2} {
		b := &Buffer{Workers: workers}
		r, _, err := b.Decompress(bytes.NewReader(in), false)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.ReadAll(r)
		var ce flate.CorruptInputError
		if !errors.As(err, &ce) || int64(ce) != want ||
			!strings.Contains(err.Error(), fmt.Sprintf("corrupt input before offset %d ", want)) {
			t.Errorf("%d workers: %v, want corrupt input before offset %d", workers, err, want)
		}
	}
}

// Members decoded ahead with long names and corrupt data give what the
// decoder alone gives, offsets included.
func TestGzipAheadLongNames(t *testing.T) {
	smallAhead(t)
	rng := rand.New(rand.NewPCG(5, 6))
	var in []byte
	for i := 0; ; i++ {
		name := strings.Repeat("n", rng.IntN(3000))
		if i == 0 {
			name = ""
		}
		in = append(in, gzipHeader(name, "", nil, 0)...)
		if i == 400 {
			in = append(in, 0x06, 0, 0, 0, 0) // a block of type 3
			break
		}
		in = append(in, gzipBody(sampleText(1+rng.IntN(2000)))...)
	}
	want, _, wantErr := decodeWith(t, rng, in, 0)
	got, ahead, err := decodeWith(t, rng, in, 2)
	var ce flate.CorruptInputError
	if !errors.As(wantErr, &ce) || int64(ce) != int64(len(in)-4) {
		t.Fatalf("without workers: %v, want corrupt input before offset %d", wantErr, len(in)-4)
	}
	if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) || ahead == 0 {
		t.Fatalf("with workers: %d bytes (%d decoded ahead), %v; want %d bytes, %v", len(got), ahead, err, len(want), wantErr)
	}
}

// FuzzGzipMember reads arbitrary bytes as one gzip member, and with the
// standard library's reader: what the library reads whole, memberReader
// reads the same (it reads more: names of 512 bytes and more), and never
// panics; its corrupt offsets lie inside the input.
func FuzzGzipMember(f *testing.F) {
	text := sampleText(300)
	f.Add(append(gzipHeader("", "", nil, 0), gzipBody(text)...))
	f.Add(append(gzipHeader("name", "comment", []byte("ex"), 1), gzipBody(text)...))
	f.Add(append(gzipHeader(strings.Repeat("n", 600), "", nil, 0), gzipBody(text)...))
	f.Add(append(gzipHeader("n", "", nil, 0), 0x06, 0, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		var z memberReader
		br := bufio.NewReaderSize(bytes.NewReader(data), 16)
		var got []byte
		err := z.reset(br, 0)
		if err == nil {
			got, err = io.ReadAll(io.LimitReader(&z, 1<<20))
		}
		var ce flate.CorruptInputError
		if errors.As(err, &ce) && (int64(ce) < 10 || int64(ce) > int64(len(data))) {
			t.Fatalf("corrupt input at %d, of %d bytes", int64(ce), len(data))
		}
		lib, lerr := gzip.NewReader(bytes.NewReader(data))
		if lerr != nil {
			return
		}
		lib.Multistream(false)
		want, lerr := io.ReadAll(io.LimitReader(lib, 1<<20))
		if lerr == nil && (err != nil || !bytes.Equal(got, want)) {
			t.Fatalf("%d bytes, %v; the library reads %d bytes", len(got), err, len(want))
		}
	})
}
