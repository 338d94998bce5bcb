package document

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
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

// DefaultMaxWindow is the largest decoding window (an xz dictionary, a zstd
// window) accepted when Buffer.MaxWindow is 0 (behaviour §1). It admits
// what xz -9 (64 MiB) and zstd --ultra -22 (128 MiB) write; only streams
// made with a larger window on purpose (zstd --long=31) need more.
const DefaultMaxWindow = 128 << 20

// Error is the error a decompressing reader returns when its stream is
// truncated or corrupt. Out bytes of output were delivered before it; In is
// the offset in the compressed input where it was noticed: the bytes the
// decoder had consumed (for zstd, up to the end of the block it was
// decoding: it takes a block whole), the same however the input was split
// into reads.
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
	for _, p := range []string{"gzip: ", "flate: ", "bzip2 data invalid: ", "bzip2: ", "xz: ", "lzma: ", "zstd: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return fmt.Sprintf("%s: %s after %d bytes (input offset %d)", e.Format, msg, e.Out, e.In)
}

func (e *Error) Unwrap() error { return e.Err }

// WindowError is the cause (the Err of an *Error) when a stream header asks
// for a decoding window above the limit. It is found before the decoder
// allocates anything of that size (behaviour §1), so a hostile header costs
// nothing but the error.
type WindowError struct {
	Format   Compression
	Declared int64 // what the header asks for; 0 when the decoder did not say
	Limit    int64 // the limit in force (Buffer.MaxWindow or DefaultMaxWindow)
}

func (e *WindowError) Error() string {
	what := "window"
	if e.Format == XZ {
		what = "dictionary"
	}
	if e.Declared > 0 {
		return fmt.Sprintf("%s of %s declared, above the window limit of %s", what, sizeString(e.Declared), sizeString(e.Limit))
	}
	return fmt.Sprintf("%s declared above the window limit of %s", what, sizeString(e.Limit))
}

// sizeString writes n in the largest binary unit that divides it.
func sizeString(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

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

// maxReplay bounds how much of a compressed input Decompress keeps while it
// finds whether the input decodes at all; an input that fails later than
// this without having decoded a byte is an error, not text (behaviour §1
// bounds memory first).
const maxReplay = 1 << 20

// Decompress returns a reader of r's decompressed content, chosen by the
// magic bytes (it peeks through a bufio.Reader, so no byte is lost: with
// None the returned reader yields r's content unchanged). It is
// new(Buffer).Decompress: use a Buffer to set a window limit other than
// DefaultMaxWindow or to learn that an input was read as text (Fallback).
func Decompress(r io.Reader, force bool) (io.Reader, Compression, error) {
	return new(Buffer).Decompress(r, force)
}

// Buffer is the read buffer of Decompress, kept from input to input: a
// reader of many small files allocated more buffers than it read bytes.
// The reader that Decompress returns is valid until its next call.
type Buffer struct {
	// MaxWindow is the largest xz dictionary or zstd window accepted, in
	// bytes (the CLI's --max-window); 0 means DefaultMaxWindow. A stream
	// that declares more fails with an *Error wrapping a *WindowError
	// before its decoder allocates the window.
	MaxWindow int64

	// Workers is how many goroutines decode a gzip input of many
	// members (a WARC file as crawlers write it) ahead of the reader,
	// when the input given to Decompress is also an io.ReaderAt, an
	// io.Seeker and has a Size (an *io.SectionReader of a regular file,
	// a *bytes.Reader): see gzipahead.go. 0 or 1: none, all is decoded
	// on the reader's goroutine. What the reader gets is the same.
	Workers int

	br       *bufio.Reader
	rec      recorder
	fallback error
	// from is where in a whole input the input given to Decompress
	// starts, and onMember is told of each gzip member's start (both
	// for ranges of a file: ranges.go).
	from     Boundary
	onMember func(in, out int64)
}

// Decompress reads r through b, decompressing it by its magic bytes.
//
// With force set, input that is not compressed is an error wrapping
// ErrNotCompressed (the -z flag). Concatenated gzip members are read whole
// (as are concatenated bzip2, xz and zstd streams); trailing zero padding
// after the last gzip member is ignored, other trailing garbage is an error.
//
// Decompress decodes until the first byte of output before it returns, so
// that it knows whether the input decodes at all. When it does not, and the
// bytes after the magic are text (see looksLikeText), the input is read as
// plain text (behaviour §1): the reader yields r's content unchanged, the
// Compression is None, and Fallback says why. Otherwise it is an error: a
// compressed file cut short or corrupt before its first byte of output is
// one as much as a file broken further on. It is an error too with force
// set, when the stream asks for a window above MaxWindow, when reading r
// failed, or when the decoder read more than maxReplay (1 MiB) of input
// without a byte of output.
//
// Once output has been decoded, a truncated or corrupt stream makes Read
// return an *Error that names the format and how far it got ("gzip:
// unexpected EOF after N bytes (input offset M)"); the bytes before it are
// still delivered (for xz, only those the decoder had handed out:
// github.com/ulikunitz/xz decodes ahead into its dictionary buffer, up to a
// chunk of 2 MiB, and loses what it holds there when the stream breaks).
//
// The returned reader also implements io.Closer; Close releases the
// decoder's resources early (it is done by itself at EOF or error) and does
// not close r.
func (b *Buffer) Decompress(r io.Reader, force bool) (io.Reader, Compression, error) {
	b.fallback = nil
	src, base := b.source(r)
	cr := &countingReader{r: r, n: b.from.Offset}
	b.rec.reset(cr)
	if b.br == nil {
		b.br = bufio.NewReaderSize(&b.rec, bufSize)
	} else {
		b.br.Reset(&b.rec)
	}
	br := b.br
	prefix, err := br.Peek(SniffLen)
	if err != nil && err != io.EOF {
		return nil, None, err
	}
	c := Sniff(prefix)
	if c == None {
		if force {
			return nil, None, ErrNotCompressed
		}
		return br, None, nil
	}
	// Keep what the decoder reads until it has decoded something, to read
	// it again as text if it never does. Nothing is consumed yet: what br
	// holds is all that was read.
	held, _ := br.Peek(br.Buffered())
	b.rec.start(held)
	d := &decoder{format: c, src: cr, br: br, limit: b.maxWindow(), out: b.from.Decoded, onMember: b.onMember}
	err = d.open()
	if err == nil {
		err = d.prime()
	}
	if err == nil {
		b.rec.stop()
		if c == Gzip && src != nil {
			d.in, d.base, d.workers = src, base, b.Workers
			d.at = io.NewSectionReader(src, base, src.Size()-base)
		}
		return d, c, nil
	}
	d.release()
	// Whether the input is text is decided on its first textProbe bytes
	// (or all of it), not on what the decoder happened to read.
	b.rec.fill(textProbe)
	replay, whole := b.rec.stop()
	var we *WindowError
	if force || errors.As(err, &we) || b.rec.err != nil || !whole || !looksLikeText(replay[min(len(replay), magicLen(c)):min(len(replay), textProbe)]) {
		return nil, c, err
	}
	b.fallback = err
	br.Reset(io.MultiReader(bytes.NewReader(replay), cr))
	return br, None, nil
}

// source returns r, to be read at any offset, and where it stands, when
// workers may decode ahead in it; else nil.
func (b *Buffer) source(r io.Reader) (sizedSource, int64) {
	s, ok := r.(sizedSource)
	if b.Workers < 2 || !ok {
		return nil, 0
	}
	pos, err := s.Seek(0, io.SeekCurrent)
	if err != nil || pos > s.Size() {
		return nil, 0
	}
	return s, pos
}

// magicLen is the length of the magic bytes Sniff recognises c by.
func magicLen(c Compression) int {
	switch c {
	case Gzip:
		return len(magicGzip)
	case XZ:
		return len(magicXZ)
	case Zstd:
		return len(magicZstd) // skippable frames' magic too
	case Bzip2:
		return SniffLen
	}
	return 0
}

// textProbe is how much of an input that does not decode is looked at to
// tell whether it is text.
const textProbe = 4 << 10

// looksLikeText reports whether b, the first bytes of an input after its
// magic bytes, is text: not empty, no NUL, valid UTF-8 (a character cut by
// the end of b aside). Compressed data, truncated or corrupt, is not: it
// is all but never valid UTF-8 for more than a few bytes. A text that
// happens to begin with magic bytes ("BZh91AY&SY is how a bzip2 stream
// starts") is.
func looksLikeText(b []byte) bool {
	if len(b) == 0 || bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			return !utf8.FullRune(b)
		}
		b = b[n:]
	}
	return true
}

// Fallback reports why the input last given to Decompress is read as plain
// text although it begins with the magic bytes of a compressed format (an
// *Error naming the format, the fault and its offset), or nil when it is
// not. The caller warns with it: such a file is read, not refused
// (behaviour §1).
func (b *Buffer) Fallback() error { return b.fallback }

func (b *Buffer) maxWindow() int64 {
	if b.MaxWindow > 0 {
		return b.MaxWindow
	}
	return DefaultMaxWindow
}

// recorder passes reads through and, while started, keeps a copy of what
// it passed, up to maxReplay bytes.
type recorder struct {
	r    io.Reader
	on   bool
	over bool  // more than maxReplay bytes passed while on
	eof  bool  // the input has ended
	err  error // the first error other than io.EOF while on
	buf  []byte
}

func (rc *recorder) reset(r io.Reader) {
	if cap(rc.buf) > bufSize {
		rc.buf = nil // one large input does not pin its replay for the next
	}
	*rc = recorder{r: r, buf: rc.buf[:0]}
}

func (rc *recorder) start(held []byte) {
	rc.on = true
	rc.buf = append(rc.buf[:0], held...)
}

// fill reads on, recording, until the recording holds n bytes or the
// input ends or fails.
func (rc *recorder) fill(n int) {
	var scratch [1024]byte
	for empty := 0; rc.on && len(rc.buf) < n && !rc.eof && rc.err == nil && empty < 100; {
		if k, err := rc.Read(scratch[:min(len(scratch), n-len(rc.buf))]); k == 0 && err == nil {
			empty++ // a reader that returns nothing, again and again
		}
	}
}

// stop ends the recording and returns what was recorded, and whether that
// is all that was read.
func (rc *recorder) stop() ([]byte, bool) {
	rc.on = false
	return rc.buf, !rc.over
}

func (rc *recorder) Read(p []byte) (int, error) {
	n, err := rc.r.Read(p)
	if err == io.EOF {
		rc.eof = true
	}
	if rc.on {
		if len(rc.buf)+n > maxReplay {
			rc.on, rc.over, rc.buf = false, true, rc.buf[:0]
		} else {
			rc.buf = append(rc.buf, p[:n]...)
		}
		if err != nil && err != io.EOF && rc.err == nil {
			rc.err = err
		}
	}
	return n, err
}

// decoder wraps a library decompressor to count output, name the format in
// errors, handle gzip member boundaries and make errors sticky.
type decoder struct {
	format  Compression
	src     *countingReader
	br      *bufio.Reader
	limit   int64
	r       io.Reader
	gz      *memberReader
	zs      *zstd.Decoder
	xw      *xzWatch
	drained bool   // zstd: a read after an error gave nothing more
	head    []byte // decoded by prime, not yet delivered
	first   [512]byte
	out     int64
	err     error

	// Gzip members decoded ahead (gzipahead.go): in is the input, when
	// it may be, base where the decoder began in it, and at in from
	// there on; ahead, the workers once started; serving, the chain
	// whose output Read hands out.
	in       sizedSource
	base     int64
	at       *io.SectionReader
	workers  int
	ahead    *gzipAhead
	serving  *aheadSeg
	aheadOut int64 // output handed out from chains: what the tests look at
	// onMember is told where each gzip member starts (Buffer.onMember).
	onMember func(in, out int64)
}

func (d *decoder) inOffset() int64 { return d.src.n - int64(d.br.Buffered()) }

// open makes the library decoder. For xz and zstd the window is checked
// before the library can allocate it.
func (d *decoder) open() error {
	switch d.format {
	case Gzip:
		d.gz = &memberReader{}
		d.memberStarts()
		if err := d.gz.reset(d.br, d.inOffset()); err != nil {
			return d.wrap(err)
		}
		d.r = d.gz
	case Bzip2:
		d.r = bzip2.NewReader(d.br)
	case XZ:
		// The library makes a dictionary of what each block header asks
		// (at least its DictCap, whose default is 8 MiB): the watch sees
		// the headers first.
		d.xw = &xzWatch{br: d.br, limit: d.limit}
		z, err := xz.ReaderConfig{DictCap: lzma.MinDictCap}.NewReader(d.xw)
		if err != nil {
			return d.wrap(err)
		}
		d.r = z
	case Zstd:
		// The library checks every frame against WithDecoderMaxWindow
		// before it allocates; the first frame is also checked here, to
		// say what it declares.
		h, _ := d.br.Peek(zstdMaxHeader)
		if w, ok := zstdWindow(h); ok && w > d.limit {
			return d.wrap(&WindowError{Format: Zstd, Declared: w, Limit: d.limit})
		}
		z, err := zstd.NewReader(d.br, zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxWindow(uint64(min(max(d.limit, zstd.MinWindowSize), zstdMaxWindow))))
		if err != nil {
			return d.wrap(err)
		}
		d.zs, d.r = z, z
	}
	return nil
}

// prime decodes up to the first byte of output; it returns the error when
// none came, nil at the end of an empty stream.
func (d *decoder) prime() error {
	n, err := d.step(d.first[:])
	d.head = d.first[:n]
	if n == 0 && err != io.EOF {
		return err
	}
	return nil
}

// zstdMaxHeader is the longest zstd frame header: magic, descriptor,
// window, dictionary id, content size (RFC 8878 3.1.1.1).
const zstdMaxHeader = 4 + 1 + 1 + 4 + 8

// zstdMaxWindow is the largest limit github.com/klauspost/compress/zstd
// accepts for WithDecoderMaxWindow.
const zstdMaxWindow = (1 << 41) + 7*(1<<38)

// zstdWindow returns the window size that the zstd frame header at the
// start of h declares (RFC 8878 3.1.1.1.2; a single-segment frame's window
// is its content size), and false when h does not start with a whole frame
// header.
func zstdWindow(h []byte) (int64, bool) {
	if len(h) < 6 || !bytes.HasPrefix(h, magicZstd) {
		return 0, false
	}
	fhd := h[4]
	if fhd&0x20 == 0 {
		exp, mantissa := int64(h[5]>>3), int64(h[5]&7)
		base := int64(1) << (10 + exp)
		return base + base/8*mantissa, true
	}
	at := 5 + [4]int{0, 1, 2, 4}[fhd&3]
	size := [4]int{1, 2, 4, 8}[fhd>>6]
	if len(h) < at+size {
		return 0, false
	}
	var v uint64
	for i := size - 1; i >= 0; i-- {
		v = v<<8 | uint64(h[at+i])
	}
	if size == 2 {
		v += 256
	}
	return int64(min(v, 1<<62)), true
}

func (d *decoder) wrap(err error) error {
	if d.xw != nil && d.xw.err != nil {
		err = d.xw.err // the library may have reworded it
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if d.format == Zstd && (errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded)) {
		err = &WindowError{Format: Zstd, Limit: d.limit}
	}
	return &Error{Format: d.format, Out: d.out, In: d.inOffset(), Err: err}
}

func (d *decoder) Read(p []byte) (int, error) {
	if len(d.head) > 0 {
		n := copy(p, d.head)
		d.head = d.head[n:]
		return n, nil
	}
	if d.err != nil {
		return 0, d.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	return d.step(p)
}

// step reads from the library decoder once (and on to the next gzip
// member); an error is made sticky.
func (d *decoder) step(p []byte) (int, error) {
	for {
		var n int
		var err error
		switched := false // to another member, or to or from a chain
		if d.serving != nil {
			if n = d.serving.read(d.ahead, p); n > 0 {
				d.out += int64(n)
				d.aheadOut += int64(n)
				return n, nil
			}
			switched, err = true, d.resume()
		} else {
			n, err = d.r.Read(p)
			d.out += int64(n)
			if err == io.EOF && d.gz != nil {
				switched = true
				var served bool
				if served, err = d.jump(); !served && err == nil {
					err = d.nextMember()
				}
			}
		}
		if switched && err == nil {
			if n > 0 {
				return n, nil
			}
			continue
		}
		if err != nil && err != io.EOF && d.zs != nil && (n > 0 || !d.drained) {
			// The zstd decoder reports a bad checksum or frame size with
			// the block it has just decoded still to hand out (it decodes
			// no further after an error): read until it has none left.
			d.drained = n == 0
			if n > 0 {
				return n, nil
			}
			continue
		}
		if err != nil {
			if err != io.EOF {
				err = d.wrap(err)
			}
			d.err = err
			d.release()
		}
		return n, err
	}
}

// jump is called at the end of a gzip member: it starts the workers after
// the input's first member, when they may help, and later takes the chain
// that starts where the next member does, if a worker has decoded it
// (true). The error is a worker's that panicked (gzipAhead.from).
func (d *decoder) jump() (bool, error) {
	if d.at == nil {
		return false, nil
	}
	m := d.inOffset()
	if d.ahead == nil {
		if m > aheadFirstMember || d.at.Size()-m < 2*aheadSegment {
			d.at = nil // one large member, or a small input: not worth it
			return false, nil
		}
		d.ahead = newGzipAhead(d.at, aheadSegment, d.workers)
		return false, nil
	}
	var err error
	d.serving, err = d.ahead.from(m)
	return d.serving != nil, err
}

// resume goes on after a chain, from where it ends: at the start of the
// next member, or where the members stop. The input is read on from there
// by Seek and Read, as the decoder read it until then (the workers read
// at offsets): a reader that counts its reads for progress sees where the
// reading stands.
func (d *decoder) resume() error {
	end, failed := d.serving.end, d.serving.failure()
	d.ahead.done(d.serving)
	d.serving = nil
	if failed != nil {
		return failed
	}
	if _, err := d.in.Seek(d.base+end, io.SeekStart); err != nil {
		return err
	}
	d.src.r = d.in
	d.src.n = end
	d.br.Reset(d.src)
	if served, err := d.jump(); served || err != nil {
		return err // nil: the next segment's chain starts where this one ends
	}
	return d.nextMember()
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
		d.memberStarts()
		return d.gz.reset(d.br, d.inOffset())
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

// release frees the library decoder's resources.
func (d *decoder) release() {
	if d.serving != nil {
		d.ahead.done(d.serving)
		d.serving = nil
	}
	if d.ahead != nil {
		d.ahead.close()
		d.ahead = nil
	}
	if d.zs != nil {
		d.zs.Close()
		d.zs = nil
	}
}

// Close releases the decoder's resources. It does not close the source.
func (d *decoder) Close() error {
	d.release()
	d.head = nil
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
