package document

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkDecompress reads 1 MiB of text in each format, and 1,000 small
// gzip files through one Buffer (the cost per file: sniffing, the first
// output decoded before Decompress returns).
func BenchmarkDecompress(b *testing.B) {
	text := sampleText(1 << 20)
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"gzip", gzipData(b, text)},
		{"zstd", zstdData(b, text)},
		{"xz", xzData(b, text)},
		{"plain", text},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			var buf Buffer
			for b.Loop() {
				r, _, err := buf.Decompress(bytes.NewReader(tc.data), false)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.Copy(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("small-gzip-files", func(b *testing.B) {
		small := gzipData(b, text[:2000])
		var buf Buffer
		for b.Loop() {
			r, _, err := buf.Decompress(bytes.NewReader(small), false)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
