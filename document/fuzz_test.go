package document

import (
	"bytes"
	"io"
	"testing"
)

// FuzzDecompress feeds arbitrary bytes to Sniff and Decompress: no panic,
// Sniff agrees with what Decompress reports, plain input comes back
// unchanged, and a compressed one either decodes or fails with an *Error
// naming its format.
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
	f.Add([]byte("\x50\x2a\x4d\x18\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Sniff(data)
		r, got, err := Decompress(bytes.NewReader(data), false)
		if err != nil {
			if c == None {
				t.Fatalf("error on plain input: %v", err)
			}
			return
		}
		if got != c {
			t.Fatalf("Decompress says %v, Sniff %v", got, c)
		}
		// Bound the output: a tiny input can legitimately expand a lot.
		out, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if c == None {
			if err != nil || !bytes.Equal(out, data) {
				t.Fatalf("plain input changed: %v", err)
			}
			if _, _, err := Decompress(bytes.NewReader(data), true); err == nil {
				t.Fatal("force accepted plain input")
			}
			return
		}
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Format != c || e.Out != int64(len(out)) {
				t.Fatalf("error %v (%T) after %d bytes", err, err, len(out))
			}
		}
		if cl, ok := r.(io.Closer); ok {
			cl.Close()
		}
	})
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
