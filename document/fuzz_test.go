package document

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzDecompress feeds arbitrary bytes to Sniff and Decompress: no panic,
// Sniff agrees with what Decompress reports, plain input comes back
// unchanged, input read as text despite its magic bytes comes back
// unchanged with a Fallback naming the format, a compressed one either
// decodes or fails with an *Error naming its format, and none of it
// depends on how the input is split into reads (behaviour §1).
func FuzzDecompress(f *testing.F) {
	text := []byte("see https://example.com/ and ftp://example.org/\n")
	f.Add([]byte{})
	f.Add(text)
	f.Add(gzipData(f, text, text))
	f.Add(zstdData(f, text))
	f.Add(xzData(f, text))
	f.Add(readFile(f, "testdata/sample.bz2"))
	f.Add([]byte("\x1f\x8b\x08"))
	f.Add([]byte("BZh91AY&SY"))
	f.Add([]byte("BZh91AY&SY is how a bzip2 stream starts, https://example.com/\n"))
	f.Add([]byte("\x50\x2a\x4d\x18\x00\x00\x00\x00"))
	f.Add(xzStored([]byte{40}, text))
	f.Add(zstdFrame(0x98, text))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Sniff(data)
		// A tiny input can legitimately expand a lot: bound the output.
		const limit = 1 << 20
		whole := decodeVia(data, 0, nil, limit)
		for name, wrap := range splitReaders {
			if got := decodeVia(data, 0, wrap, limit); !got.equal(whole) {
				t.Fatalf("read %s: %v\nwhole: %v", name, got, whole)
			}
		}
		switch {
		case c == None:
			if whole.c != None || whole.err != "" || whole.fallback != "" || !bytes.Equal(whole.out, data[:min(len(data), limit)]) {
				t.Fatalf("plain input: %v", whole)
			}
			if _, _, err := Decompress(bytes.NewReader(data), true); !errors.Is(err, ErrNotCompressed) {
				t.Fatalf("force on plain input: %v", err)
			}
		case whole.fallback != "":
			if whole.c != None || whole.err != "" || !bytes.Equal(whole.out, data[:min(len(data), limit)]) || !strings.HasPrefix(whole.fallback, c.String()+": ") {
				t.Fatalf("read as text: %v", whole)
			}
			if _, _, err := Decompress(bytes.NewReader(data), true); err == nil {
				t.Fatal("force read as text")
			}
		default:
			if whole.c != c {
				t.Fatalf("Decompress says %v, Sniff %v", whole.c, c)
			}
			var de *Error
			if whole.e != nil && (!errors.As(whole.e, &de) || de.Format != c || de.Out != int64(len(whole.out))) {
				t.Fatalf("error %v (%T) after %d bytes", whole.e, whole.e, len(whole.out))
			}
		}
	})
}

// splitReaders read the input in pieces of other sizes than whole.
var splitReaders = map[string]func(io.Reader) io.Reader{
	"one byte at a time": iotest.OneByteReader,
	"by halves":          iotest.HalfReader,
	"with EOF on data":   iotest.DataErrReader,
}

// decoded is what reading an input through Decompress gave.
type decoded struct {
	c        Compression
	fallback string
	out      []byte
	err      string
	e        error
}

func (d decoded) equal(o decoded) bool {
	return d.c == o.c && d.fallback == o.fallback && bytes.Equal(d.out, o.out) && d.err == o.err
}

func (d decoded) String() string {
	return fmt.Sprintf("%v, %d bytes out, fallback %q, error %q", d.c, len(d.out), d.fallback, d.err)
}

// decodeVia decompresses data read through wrap (nil: whole) with the
// given window limit (0: the default), reading at most limit bytes of output.
func decodeVia(data []byte, maxWindow int64, wrap func(io.Reader) io.Reader, limit int64) decoded {
	b := Buffer{MaxWindow: maxWindow}
	var src io.Reader = bytes.NewReader(data)
	if wrap != nil {
		src = wrap(src)
	}
	r, c, err := b.Decompress(src, false)
	d := decoded{c: c, e: err}
	if err == nil {
		if fb := b.Fallback(); fb != nil {
			d.fallback = fb.Error()
		}
		d.out, d.e = io.ReadAll(io.LimitReader(r, limit))
	}
	if d.e != nil {
		d.err = d.e.Error()
	}
	return d
}

// FuzzSniff: Sniff never panics and is decided by the first SniffLen bytes.
func FuzzSniff(f *testing.F) {
	f.Add([]byte("BZh91AY&SY more"))
	f.Add([]byte("\xfd7zXZ\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Sniff(data)
		if len(data) > SniffLen && Sniff(data[:SniffLen]) != c {
			t.Fatalf("Sniff depends on more than %d bytes", SniffLen)
		}
		_ = c.String()
	})
}
