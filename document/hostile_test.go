package document

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os/exec"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// Hostile and broken compressed input (behaviour §1). Every file here is
// made by the test.

// xzStored makes an xz stream (check CRC32) of one block per data, each
// held in LZMA2 uncompressed chunks under a block header that declares the
// dictionary size code dicts[i] (lzma.DecodeDictCap: 16 is 1 MiB, 22 is 8
// MiB, 30 is 128 MiB, 31 is 192 MiB, 40 is 4 GiB - 1). The data is stored,
// not compressed, so a declared dictionary costs the file nothing.
func xzStored(dicts []byte, blocks ...[]byte) []byte {
	le := binary.LittleEndian
	flags := []byte{0x00, 0x01} // check: CRC32
	out := append([]byte{}, magicXZ...)
	out = append(out, flags...)
	out = le.AppendUint32(out, crc32.ChecksumIEEE(flags))
	var records []byte
	for i, data := range blocks {
		start := len(out)
		h := []byte{0, 0x00, lzma2FilterID, 1, dicts[i]} // size (below), flags: one filter, no sizes
		for (len(h)+4)%4 != 0 {
			h = append(h, 0)
		}
		h[0] = byte((len(h)+4)/4 - 1)
		out = append(out, le.AppendUint32(h, crc32.ChecksumIEEE(h))...)
		for j := 0; j < len(data); j += 64 << 10 {
			chunk := data[j:min(len(data), j+64<<10)]
			control := byte(2) // uncompressed, no dictionary reset
			if j == 0 {
				control = 1 // with a reset: a block starts with one
			}
			out = append(out, control, byte((len(chunk)-1)>>8), byte(len(chunk)-1))
			out = append(out, chunk...)
		}
		out = append(out, 0) // end of LZMA2 data
		unpadded := len(out) - start + 4
		for (len(out)-start)%4 != 0 {
			out = append(out, 0)
		}
		out = le.AppendUint32(out, crc32.ChecksumIEEE(data))
		records = binary.AppendUvarint(records, uint64(unpadded))
		records = binary.AppendUvarint(records, uint64(len(data)))
	}
	index := binary.AppendUvarint([]byte{0}, uint64(len(blocks)))
	index = append(index, records...)
	for len(index)%4 != 0 {
		index = append(index, 0)
	}
	index = le.AppendUint32(index, crc32.ChecksumIEEE(index))
	out = append(out, index...)
	footer := append(le.AppendUint32(nil, uint32(len(index)/4-1)), flags...)
	out = le.AppendUint32(out, crc32.ChecksumIEEE(footer))
	return append(append(out, footer...), 'Y', 'Z')
}

// xzOneBlockTail is the length of the index of a one-block stream of the
// test's sizes (indicator, count, two 3-byte sizes, padding, CRC32: 12
// bytes) and of the stream footer (12): what follows the block.
const xzOneBlockTail = 24

// zstdFrame makes a zstd frame with window descriptor wd (RFC 8878
// 3.1.1.1.2: 0x60 is 4 MiB, 0x68 8 MiB, 0x98 512 MiB), no checksum, holding
// data in raw blocks.
func zstdFrame(wd byte, data []byte) []byte {
	out := append(append([]byte{}, magicZstd...), 0x00, wd)
	for i := 0; ; {
		n := min(len(data)-i, 128<<10)
		last := 0
		if i+n == len(data) {
			last = 1
		}
		h := uint32(n)<<3 | uint32(last) // block type 0: raw
		out = append(out, byte(h), byte(h>>8), byte(h>>16))
		out = append(out, data[i:i+n]...)
		if i += n; last == 1 {
			return out
		}
	}
}

// The generators make what the libraries and, when installed, the
// reference tools read.
func TestGeneratedStreamsAreValid(t *testing.T) {
	text := sampleText(150 << 10)
	for _, tc := range []struct {
		name, tool string
		data       []byte
		want       []byte
		read       func([]byte) ([]byte, error)
	}{
		{"xz", "xz", xzStored([]byte{22, 16}, text, text[:1000]), append(append([]byte{}, text...), text[:1000]...), func(b []byte) ([]byte, error) {
			r, err := xz.NewReader(bytes.NewReader(b))
			if err != nil {
				return nil, err
			}
			return io.ReadAll(r)
		}},
		{"zstd", "zstd", zstdFrame(0x68, text), text, func(b []byte) ([]byte, error) {
			r, err := zstd.NewReader(bytes.NewReader(b))
			if err != nil {
				return nil, err
			}
			defer r.Close()
			return io.ReadAll(r)
		}},
	} {
		got, err := tc.read(tc.data)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: library reads %d bytes, %v", tc.name, len(got), err)
		}
		if path, err := exec.LookPath(tc.tool); err == nil {
			cmd := exec.Command(path, "-dc")
			cmd.Stdin = bytes.NewReader(tc.data)
			got, err := cmd.Output()
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Errorf("%s -dc reads %d bytes, %v", tc.name, len(got), err)
			}
		}
	}
}

// allocated returns how many bytes fn allocated on the heap.
func allocated(fn func()) uint64 {
	var before, after runtimeMem
	before.read()
	fn()
	after.read()
	return after.total - before.total
}

// A header that declares a window above the limit is refused before the
// decoder allocates it, with an error that names the limit.
func TestWindowLimit(t *testing.T) {
	text := sampleText(100 << 10)
	cases := []struct {
		name      string
		data      []byte
		maxWindow int64
		declared  int64 // 0: not said
		out       int   // bytes delivered before the error
		in        int64 // input offset of the error
	}{
		{"xz 4 GiB", xzStored([]byte{40}, text), 0, 1<<32 - 1, 0, 12},
		{"xz 192 MiB", xzStored([]byte{31}, text), 0, 192 << 20, 0, 12},
		{"xz 8 MiB, limit 4 MiB", xzStored([]byte{22}, text), 4 << 20, 8 << 20, 0, 12},
		// The first block is read, then the second one's header refused.
		{"xz second block", xzStored([]byte{16, 40}, text, text), 0, 1<<32 - 1, len(text), int64(len(xzStored([]byte{16}, text))) - xzOneBlockTail},
		{"zstd 512 MiB", zstdFrame(0x98, text), 0, 512 << 20, 0, 0},
		{"zstd 8 MiB, limit 4 MiB", zstdFrame(0x68, text), 4 << 20, 8 << 20, 0, 0},
		// Single segment: the window is the content size, here 4 GiB - 1.
		{"zstd single segment", append([]byte("\x28\xb5\x2f\xfd\xa0\xff\xff\xff\xff"), zstdFrame(0x50, text)[6:]...), 0, 1<<32 - 1, 0, 0},
		// The library checks the frames after the first.
		{"zstd second frame", append(zstdFrame(0x50, text), zstdFrame(0x98, text)...), 0, 0, len(text), -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []byte
			var err error
			grew := allocated(func() {
				b := Buffer{MaxWindow: tc.maxWindow}
				var r io.Reader
				r, _, err = b.Decompress(bytes.NewReader(tc.data), false)
				if err == nil {
					got, err = io.ReadAll(r)
				}
			})
			t.Logf("%v; allocated %d KiB", err, grew>>10)
			var de *Error
			var we *WindowError
			if !errors.As(err, &de) || !errors.As(err, &we) {
				t.Fatalf("error %v, want an *Error wrapping a *WindowError", err)
			}
			limit := tc.maxWindow
			if limit == 0 {
				limit = DefaultMaxWindow
			}
			if we.Limit != limit || we.Declared != tc.declared || !strings.Contains(err.Error(), "limit of "+sizeString(limit)) {
				t.Errorf("error %q: limit %d, declared %d", err, we.Limit, we.Declared)
			}
			if !bytes.Equal(got, text[:tc.out]) && !bytes.Equal(got, append(append([]byte{}, text...), text[:tc.out-len(text)]...)) {
				t.Errorf("%d bytes delivered, want %d", len(got), tc.out)
			}
			if de.Out != int64(tc.out) || tc.in >= 0 && de.In != tc.in {
				t.Errorf("error after %d bytes at input offset %d, want %d and %d", de.Out, de.In, tc.out, tc.in)
			}
			// The decoder's own buffers, a bufio.Reader of 64 KiB, the
			// test's copy of the output; never the declared window.
			if grew > 4<<20 {
				t.Errorf("allocated %d MiB", grew>>20)
			}
		})
	}
	// At the limit, a stream is read.
	for _, tc := range []struct {
		data  []byte
		limit int64
	}{
		{xzStored([]byte{22}, text), 8 << 20},
		{zstdFrame(0x68, text), 8 << 20},
		{xzStored([]byte{30}, text), 0},
	} {
		if got := decodeVia(tc.data, tc.limit, nil, 1<<30); got.err != "" || !bytes.Equal(got.out, text) {
			t.Errorf("window at the limit: %v", got)
		}
	}
}

// gzip is read as gzip(1) reads it: zero padding after the last member (a
// tape archiver's blocking) is ignored; a corrupt member in the middle is
// an error naming its offset, after everything decoded before it.
func TestGzipPaddingAndCorruptMember(t *testing.T) {
	a, b, c := sampleText(100<<10), sampleText(150 << 10)[50<<10:], []byte("the third member\n")
	ga, gb, gc := gzipData(t, a), gzipData(t, b), gzipData(t, c)
	all := bytes.Join([][]byte{a, b, c}, nil)
	joined := bytes.Join([][]byte{ga, gb, gc}, nil)

	// Padded to a multiple of 10240 bytes, as tar -b20 and tape drives do.
	padded := append(append([]byte{}, joined...), make([]byte, 10240-len(joined)%10240)...)
	if got := decodeVia(padded, 0, nil, 1<<30); got.err != "" || !bytes.Equal(got.out, all) {
		t.Errorf("padded: %v", got)
	}

	corruptData := append([]byte{}, joined...)
	mid := len(ga) + len(gb)/2
	for i := mid; i < mid+32; i++ {
		corruptData[i] ^= 0xa5
	}
	corruptHeader := append([]byte{}, joined...)
	corruptHeader[len(ga)+3] |= 0xe0 // reserved FLG bits (RFC 1952 2.3.1)
	for _, tc := range []struct {
		name     string
		data     []byte
		from, to int // the error's input offset lies in [from, to]
		good     int // bytes of output that must be there, good ones
	}{
		{"data", corruptData, mid, len(ga) + len(gb), len(a) + len(b)/4},
		{"header", corruptHeader, len(ga), len(ga) + 10, len(a)},
	} {
		got := decodeVia(tc.data, 0, nil, 1<<30)
		var de *Error
		if !errors.As(got.e, &de) || de.Format != Gzip {
			t.Fatalf("%s: %v, want a gzip *Error", tc.name, got)
		}
		t.Logf("%s: %v", tc.name, got.e)
		if de.In < int64(tc.from) || de.In > int64(tc.to) {
			t.Errorf("%s: input offset %d, want in [%d, %d]", tc.name, de.In, tc.from, tc.to)
		}
		if len(got.out) < tc.good || !bytes.Equal(got.out[:tc.good], all[:tc.good]) || de.Out != int64(len(got.out)) {
			t.Errorf("%s: %d bytes delivered, %d good wanted; error says %d", tc.name, len(got.out), tc.good, de.Out)
		}
		if !strings.Contains(got.err, fmt.Sprintf("(input offset %d)", de.In)) {
			t.Errorf("%s: message %q does not name the offset", tc.name, got.err)
		}
	}
}

// A zstd frame whose checksum is wrong: every block is delivered, the last
// one too, then the error with the offset of the checksum's end.
func TestZstdBadChecksum(t *testing.T) {
	text := sampleText(400 << 10) // several blocks of at most 128 KiB
	for _, data := range [][]byte{zstdData(t, text), zstdData(t, text[:1000])} {
		n := len(text)
		if len(data) < 1000 {
			n = 1000
		}
		data[len(data)-1] ^= 0xff // the last byte of the frame's checksum
		got := decodeVia(data, 0, nil, 1<<30)
		var de *Error
		if !errors.As(got.e, &de) || !errors.Is(got.e, zstd.ErrCRCMismatch) {
			t.Fatalf("error %v, want a CRC mismatch", got.e)
		}
		if !bytes.Equal(got.out, text[:n]) || de.Out != int64(n) || de.In != int64(len(data)) {
			t.Errorf("%d of %d bytes delivered; error %v", len(got.out), n, got.e)
		}
	}
}

// Bytes that begin like a compressed format but do not decode as one, and
// are text after the magic, are read as text, with a warning (Fallback);
// compressed data cut short or corrupt before its first byte of output is
// an error, as it is further on.
func TestNotDecodedReadAsText(t *testing.T) {
	text := sampleText(100 << 10)
	xzBroken := xzData(t, text)
	for i := 100; i < 164; i++ {
		xzBroken[i] ^= 0x55 // in the first LZMA2 chunk, which xz hands out whole
	}
	gz := gzipData(t, text)
	for _, tc := range []struct {
		name string
		in   string
		c    Compression // the format named in the warning or error
		text bool        // read as text; false: an error
	}{
		{"bzip2 magic", "BZh91AY&SY is how a bzip2 stream starts, see https://sourceware.org/bzip2/\n", Bzip2, true},
		{"bzip2 magic, short", "BZh91AY&SY\n", Bzip2, true},
		{"gzip magic", "\x1f\x8b\x08 then https://example.com/ text\n", Gzip, true},
		{"xz magic", "\xfd7zXZ\x00 but https://example.com/ is text\n", XZ, true},
		{"zstd magic", "\x28\xb5\x2f\xfd and then https://example.com/\n", Zstd, true},
		{"zstd skippable magic", "P*M\x18 is a skippable frame; https://example.com/\n", Zstd, true},
		{"latin-1 after the magic is not text", "\x1f\x8b\x08caf\xe9 https://example.com/\n", Gzip, false},
		{"gzip cut in its header", "\x1f\x8b\x08", Gzip, false},
		{"xz cut in its header", "\xfd7zXZ\x00\x00\x00", XZ, false},
		{"gzip cut before output", string(gz[:len(gz)/3]), Gzip, false},
		{"xz corrupt before output", string(xzBroken), XZ, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := decodeVia([]byte(tc.in), 0, nil, 1<<30)
			if tc.text {
				if got.c != None || got.err != "" || got.out == nil && tc.in != "" || string(got.out) != tc.in {
					t.Fatalf("not read as text: %v", got)
				}
				if !strings.HasPrefix(got.fallback, tc.c.String()+": ") || !strings.Contains(got.fallback, "input offset") {
					t.Errorf("warning %q does not name %v and the offset", got.fallback, tc.c)
				}
				if _, _, err := Decompress(strings.NewReader(tc.in), true); err == nil {
					t.Error("read as text with force (-z)")
				}
				return
			}
			var de *Error
			if got.fallback != "" || !errors.As(got.e, &de) || de.Format != tc.c {
				t.Fatalf("%v, want a %v error", got, tc.c)
			}
		})
	}
	// The Buffer says nothing of the next input.
	var b Buffer
	b.Decompress(strings.NewReader("BZh91AY&SY text\n"), false)
	if b.Fallback() == nil {
		t.Fatal("no fallback")
	}
	if r, _, err := b.Decompress(bytes.NewReader(gz), false); err != nil || b.Fallback() != nil {
		t.Fatalf("next input: %v, fallback %v", err, b.Fallback())
	} else if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, text) {
		t.Fatalf("next input: %d bytes, %v", len(got), err)
	}
}

// Results never depend on read splits (behaviour §1): the hostile and
// broken inputs give the same output, warning and error, offsets included,
// whether read whole, a byte at a time, by halves, or cut in two reads at
// every point (the small ones).
func TestBrokenInputReadSplits(t *testing.T) {
	text := sampleText(3000)
	big := sampleText(200 << 10) // two zstd blocks and more
	gz := gzipData(t, text[:1500], text[1500:])
	gzCorrupt := append([]byte{}, gz...)
	gzCorrupt[len(gz)-200] ^= 0x40
	zs := zstdData(t, big)
	zs[len(zs)-1] ^= 1
	zsCorrupt := zstdData(t, big)
	zsCorrupt[len(zsCorrupt)*2/3] ^= 0x40
	xzCut := xzData(t, big)
	xzCut = xzCut[:len(xzCut)*3/4]
	cases := map[string][]byte{
		"gzip truncated":          gz[:len(gz)-10],
		"gzip corrupt":            gzCorrupt,
		"gzip trailing garbage":   append(append([]byte{}, gz...), "\x00\x00garbage"...),
		"gzip padding":            append(append([]byte{}, gz...), make([]byte, 700)...),
		"zstd bad checksum":       zs,
		"zstd corrupt":            zsCorrupt,
		"xz truncated":            xzCut,
		"xz window":               xzStored([]byte{16, 40}, text, text),
		"zstd window":             append(zstdFrame(0x50, text), zstdFrame(0x98, text)...),
		"bzip2 truncated":         readFile(t, "testdata/sample.bz2")[:200],
		"text with a bzip2 magic": []byte("BZh91AY&SY is how a bzip2 stream starts, https://example.com/\n"),
	}
	for name, data := range cases {
		whole := decodeVia(data, 0, nil, 1<<30)
		if whole.err == "" && whole.fallback == "" && name != "gzip padding" {
			t.Errorf("%s: no error", name)
		}
		readers := map[string]func(io.Reader) io.Reader{}
		for k, v := range splitReaders {
			readers[k] = v
		}
		if len(data) <= 4000 {
			for k := 1; k < len(data); k++ {
				readers[fmt.Sprintf("cut at %d", k)] = func(io.Reader) io.Reader {
					return io.MultiReader(bytes.NewReader(data[:k]), bytes.NewReader(data[k:]))
				}
			}
		}
		for how, wrap := range readers {
			if got := decodeVia(data, 0, wrap, 1<<30); !got.equal(whole) {
				t.Errorf("%s read %s: %v\nwhole: %v", name, how, got, whole)
			}
		}
	}
}

// The xz watch follows every structure an xz file may hold: several blocks
// and streams, stream padding, every check, uncompressed chunks (random
// data), compressed block sizes in the block headers (xz(1)), and reads them
// all; so does the library behind it.
func TestXZStructures(t *testing.T) {
	text := sampleText(40 << 10)
	noise := make([]byte, 66<<10) // more than an LZMA2 chunk's 64 KiB
	for i, x := 0, uint64(1); i < len(noise); i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		noise[i] = byte(x)
	}
	mixed := append(append(append([]byte{}, text[:10<<10]...), noise...), text...)
	write := func(cfg xz.WriterConfig, data []byte) []byte {
		var out bytes.Buffer
		w, err := cfg.NewWriter(&out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	type xzCase struct {
		name       string
		data, want []byte
	}
	cases := []xzCase{
		{"blocks of 16 KiB, CRC32", write(xz.WriterConfig{BlockSize: 16 << 10, CheckSum: xz.CRC32}, mixed), mixed},
		{"SHA-256", write(xz.WriterConfig{CheckSum: xz.SHA256}, text), text},
		{"no check", write(xz.WriterConfig{NoCheckSum: true, BlockSize: 15 << 10}, text), text},
		{"streams with padding between", bytes.Join([][]byte{
			write(xz.WriterConfig{}, text[:1000]), make([]byte, 8),
			write(xz.WriterConfig{BlockSize: 10 << 10}, text), make([]byte, 4),
		}, nil), append(append([]byte{}, text[:1000]...), text...)},
		{"stored", xzStored([]byte{22, 16, 30}, text, noise, text[:10]), bytes.Join([][]byte{text, noise, text[:10]}, nil)},
	}
	if path, err := exec.LookPath("xz"); err == nil {
		for _, args := range [][]string{{"-0"}, {"-1", "--check=none"}, {"-6", "--check=sha256", "--block-size=50KiB"}, {"--check=crc32", "--block-size=16KiB", "-T2"}} {
			cmd := exec.Command(path, append(args, "-c")...)
			cmd.Stdin = bytes.NewReader(mixed)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("xz %v: %v", args, err)
			}
			cases = append(cases, xzCase{"xz " + strings.Join(args, " "), out, mixed})
		}
	} else {
		t.Log("xz(1) not installed: the library's files only")
	}
	for _, tc := range cases {
		got := decodeVia(tc.data, 0, nil, 1<<30)
		if got.c != XZ || got.err != "" || !bytes.Equal(got.out, tc.want) {
			t.Errorf("%s: %v, want %d bytes", tc.name, got, len(tc.want))
		}
		if got := decodeVia(tc.data, 0, iotest.HalfReader, 1<<30); got.err != "" || !bytes.Equal(got.out, tc.want) {
			t.Errorf("%s read by halves: %v", tc.name, got)
		}
	}
}
