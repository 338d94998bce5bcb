package document

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// Compression is what Sniff found.
type Compression uint8

// The compressions Sniff recognises.
const (
	None Compression = iota
	Gzip
	Bzip2
	XZ
	Zstd
)

// String returns the format's usual lower-case name ("none", "gzip", "bzip2",
// "xz", "zstd").
func (c Compression) String() string {
	switch c {
	case None:
		return "none"
	case Gzip:
		return "gzip"
	case Bzip2:
		return "bzip2"
	case XZ:
		return "xz"
	case Zstd:
		return "zstd"
	}
	return fmt.Sprintf("Compression(%d)", uint8(c))
}

// SniffLen is the number of leading bytes Sniff needs to recognise every
// format it knows; a shorter prefix is fine when the input is shorter.
const SniffLen = 10

var (
	magicGzip     = []byte{0x1f, 0x8b, 0x08} // ID1 ID2 CM=deflate (RFC 1952)
	magicXZ       = []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}
	magicZstd     = []byte{0x28, 0xb5, 0x2f, 0xfd}             // RFC 8878 frame magic 0xFD2FB528
	bzipBlock     = []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59} // BCD pi: first block
	bzipEndStream = []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90} // BCD sqrt(pi): empty stream
)

// Sniff reports the compression of the data that starts with prefix, by
// magic bytes. It needs up to SniffLen bytes; None when nothing matches.
//
// bzip2 is recognised only by "BZh1".."BZh9" followed by a block or
// end-of-stream magic, so that text that merely starts with "BZh" is not
// taken for it. zstd skippable frames (magic 0x184D2A50..5F) count as zstd.
func Sniff(prefix []byte) Compression {
	switch {
	case bytes.HasPrefix(prefix, magicGzip):
		return Gzip
	case bytes.HasPrefix(prefix, magicXZ):
		return XZ
	case bytes.HasPrefix(prefix, magicZstd):
		return Zstd
	case len(prefix) >= 4 && prefix[0]&0xf0 == 0x50 && prefix[1] == 0x2a && prefix[2] == 0x4d && prefix[3] == 0x18:
		return Zstd
	case len(prefix) >= 10 && prefix[0] == 'B' && prefix[1] == 'Z' && prefix[2] == 'h' &&
		prefix[3] >= '1' && prefix[3] <= '9' &&
		(bytes.Equal(prefix[4:10], bzipBlock) || bytes.Equal(prefix[4:10], bzipEndStream)):
		return Bzip2
	}
	return None
}

// ErrNotCompressed is wrapped by the error Decompress returns when force is
// set and the input carries no known magic bytes.
var ErrNotCompressed = errors.New("input is not compressed (no gzip, bzip2, xz or zstd magic bytes)")

// Error is the error a decompressing reader returns when its stream is
// truncated or corrupt. Out bytes of output were delivered before it; In is
// the offset in the compressed input where it was noticed (after the
// decompressor's own read-ahead, so approximate for bzip2, xz and zstd).
type Error struct {
	Format Compression
	Out    int64
	In     int64
	Err    error
}

func (e *Error) Error() string {
	msg := e.Err.Error()
	if errors.Is(e.Err, io.ErrUnexpectedEOF) {
		msg = "unexpected EOF"
	}
	// The libraries prefix their own messages inconsistently; keep one prefix.
	for _, p := range []string{"gzip: ", "flate: ", "bzip2 data invalid: ", "bzip2: ", "xz: ", "zstd: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return fmt.Sprintf("%s: %s after %d bytes (input offset %d)", e.Format, msg, e.Out, e.In)
}

func (e *Error) Unwrap() error { return e.Err }

// countingReader counts the bytes read from the underlying source.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

const bufSize = 64 << 10

// Decompress returns a reader of r's decompressed content, chosen by the
// magic bytes (it peeks through a bufio.Reader, so no byte is lost: with
// None the returned reader yields r's content unchanged).
//
// With force set, input that is not compressed is an error wrapping
// ErrNotCompressed (the -z flag). Concatenated gzip members are read whole
// (as are concatenated bzip2, xz and zstd streams); trailing zero padding
// after the last gzip member is ignored, other trailing garbage is an error.
// A truncated or corrupt stream makes Read return an *Error that names the
// format and how far it got ("gzip: unexpected EOF after N bytes (input
// offset M)"); the bytes before it are still delivered (for xz, only those
// the decoder had handed out: github.com/ulikunitz/xz decodes ahead into its
// dictionary buffer, a few MiB, and loses what it holds there when the
// stream breaks).
//
// The returned reader also implements io.Closer; Close releases the
// decoder's resources early (it is done by itself at EOF or error) and does
// not close r.
func Decompress(r io.Reader, force bool) (io.Reader, Compression, error) {
	return new(Buffer).Decompress(r, force)
}

// Buffer is the read buffer of Decompress, kept from input to input: a
// reader of many small files allocated more buffers than it read bytes.
// The reader that Decompress returns is valid until its next call.
type Buffer struct {
	br *bufio.Reader
}

// Decompress is the package's Decompress, reading through b.
func (b *Buffer) Decompress(r io.Reader, force bool) (io.Reader, Compression, error) {
	cr := &countingReader{r: r}
	if b.br == nil {
		b.br = bufio.NewReaderSize(cr, bufSize)
	} else {
		b.br.Reset(cr)
	}
	br := b.br
	prefix, err := br.Peek(SniffLen)
	if err != nil && err != io.EOF {
		return nil, None, err
	}
	c := Sniff(prefix)
	d := &decoder{format: c, src: cr, br: br}
	switch c {
	case None:
		if force {
			return nil, None, ErrNotCompressed
		}
		return br, None, nil
	case Gzip:
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, c, d.wrap(err)
		}
		z.Multistream(false)
		d.gz = z
		d.r = z
	case Bzip2:
		d.r = bzip2.NewReader(br)
	case XZ:
		z, err := xz.NewReader(br)
		if err != nil {
			return nil, c, d.wrap(err)
		}
		d.r = z
	case Zstd:
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, c, d.wrap(err)
		}
		d.zs = z
		d.r = z
	}
	return d, c, nil
}

// decoder wraps a library decompressor to count output, name the format in
// errors, handle gzip member boundaries and make errors sticky.
type decoder struct {
	format Compression
	src    *countingReader
	br     *bufio.Reader
	r      io.Reader
	gz     *gzip.Reader
	zs     *zstd.Decoder
	out    int64
	err    error
}

func (d *decoder) inOffset() int64 { return d.src.n - int64(d.br.Buffered()) }

func (d *decoder) wrap(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &Error{Format: d.format, Out: d.out, In: d.inOffset(), Err: err}
}

func (d *decoder) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := d.r.Read(p)
		d.out += int64(n)
		if err == io.EOF && d.gz != nil {
			err = d.nextMember()
			if err == nil {
				if n > 0 {
					return n, nil
				}
				continue
			}
		}
		if err != nil {
			if err != io.EOF {
				err = d.wrap(err)
			}
			d.err = err
			d.Close()
		}
		return n, err
	}
}

// nextMember is called at the end of a gzip member: it starts the next one
// (nil), or reports io.EOF at the end of the input or after zero padding, or
// an error for trailing garbage.
func (d *decoder) nextMember() error {
	prefix, err := d.br.Peek(len(magicGzip))
	if len(prefix) == 0 && err == io.EOF {
		return io.EOF
	}
	if err != nil && err != io.EOF {
		return err
	}
	if bytes.Equal(prefix, magicGzip) {
		return d.gz.Reset(d.br)
	}
	// Trailing data that is not a gzip member: zero padding (as tape and
	// some tar tools leave) is accepted, anything else is garbage.
	at := d.inOffset()
	for {
		b, err := d.br.ReadByte()
		if err == io.EOF {
			return io.EOF
		}
		if err != nil {
			return err
		}
		if b != 0 {
			return fmt.Errorf("trailing garbage at input offset %d", at)
		}
		at++
	}
}

// Close releases the decoder's resources. It does not close the source.
func (d *decoder) Close() error {
	if d.zs != nil {
		d.zs.Close()
		d.zs = nil
	}
	if d.err == nil {
		d.err = errors.New("input: read after Close")
	}
	return nil
}

// IsBinary reports whether the first block of a file (up to 8 KiB, as given)
// looks binary: it holds a NUL byte (grep's rule).
func IsBinary(block []byte) bool {
	return bytes.IndexByte(block, 0) >= 0
}
