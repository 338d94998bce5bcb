package document

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/flate"
)

// memberReader reads one gzip member (RFC 1952 2.3) at a time: its header,
// its deflate data through github.com/klauspost/compress/flate, and its
// trailer, whose CRC-32 and size it checks. It is what the library's
// gzip.Reader with Multistream(false) does, with two differences that
// gzip(1) made:
//
//   - FNAME and FCOMMENT may be of any length. gzip -dc reads a member
//     whose name runs to megabytes; the library refused any over 511
//     bytes ("invalid header", issue 32). They are skipped as they are
//     read, never held: their length costs no memory.
//   - A corrupt deflate stream is a flate.CorruptInputError whose offset
//     is in the input, not in the member's deflate data (which began
//     after a header of unknown length: "corrupt input before offset 9"
//     told nobody where to look).
type memberReader struct {
	br     *bufio.Reader // an io.ByteReader: flate reads no byte past the data
	flate  io.ReadCloser
	digest uint32 // CRC-32 of the output so far (RFC 1952 8)
	size   uint32 // its length, modulo 2^32
	data   int64  // the input offset of the deflate data
	err    error
	trail  [8]byte
}

// RFC 1952 2.3.1: the header's flags.
const (
	gzipFlagHeaderCRC = 1 << 1
	gzipFlagExtra     = 1 << 2
	gzipFlagName      = 1 << 3
	gzipFlagComment   = 1 << 4
	gzipFlagReserved  = 0xe0
)

// reset reads the header of the member that starts in br, at input
// offset at. It returns io.EOF when br holds nothing more, and
// gzip.ErrHeader for a header gzip(1) refuses too: not a gzip magic
// with deflate, reserved flags set, a header CRC that does not match.
func (z *memberReader) reset(br *bufio.Reader, at int64) error {
	z.br, z.digest, z.size, z.err = br, 0, 0, nil
	n, err := z.header()
	if err != nil {
		if err == io.EOF && n > 0 {
			err = io.ErrUnexpectedEOF
		}
		z.err = err
		return err
	}
	z.data = at + n
	if z.flate == nil {
		z.flate = flate.NewReader(br)
	} else {
		z.flate.(flate.Resetter).Reset(br, nil)
	}
	return nil
}

// header reads the member's header and returns its length.
func (z *memberReader) header() (int64, error) {
	var fixed [10]byte
	k, err := io.ReadFull(z.br, fixed[:])
	if err != nil {
		if k == 0 && err == io.EOF {
			return 0, io.EOF
		}
		return int64(k), noEOF(err)
	}
	if fixed[0] != magicGzip[0] || fixed[1] != magicGzip[1] || fixed[2] != magicGzip[2] {
		return 10, gzip.ErrHeader
	}
	flags := fixed[3]
	if flags&gzipFlagReserved != 0 {
		return 10, gzip.ErrHeader
	}
	n := int64(10)
	crc := crc32.ChecksumIEEE(fixed[:])
	if flags&gzipFlagExtra != 0 {
		var xlen [2]byte
		if _, err := io.ReadFull(z.br, xlen[:]); err != nil {
			return n, noEOF(err)
		}
		crc = crc32.Update(crc, crc32.IEEETable, xlen[:])
		k, err := z.skip(int64(binary.LittleEndian.Uint16(xlen[:])), &crc)
		n += 2 + k
		if err != nil {
			return n, err
		}
	}
	for _, f := range []byte{gzipFlagName, gzipFlagComment} {
		if flags&f != 0 {
			k, err := z.skipString(&crc)
			n += k
			if err != nil {
				return n, err
			}
		}
	}
	if flags&gzipFlagHeaderCRC != 0 {
		var sum [2]byte
		if _, err := io.ReadFull(z.br, sum[:]); err != nil {
			return n, noEOF(err)
		}
		n += 2
		if binary.LittleEndian.Uint16(sum[:]) != uint16(crc) {
			return n, gzip.ErrHeader
		}
	}
	return n, nil
}

// skip passes over n bytes of the header, adding them to crc.
func (z *memberReader) skip(n int64, crc *uint32) (int64, error) {
	done := int64(0)
	for done < n {
		b, err := z.br.Peek(int(min(n-done, int64(z.br.Size()))))
		*crc = crc32.Update(*crc, crc32.IEEETable, b)
		z.br.Discard(len(b))
		done += int64(len(b))
		if err != nil && done < n {
			return done, noEOF(err)
		}
	}
	return done, nil
}

// skipString passes over a zero-terminated field of the header (FNAME,
// FCOMMENT), whatever its length, adding it to crc.
func (z *memberReader) skipString(crc *uint32) (int64, error) {
	n := int64(0)
	for {
		b, err := z.br.ReadSlice(0)
		*crc = crc32.Update(*crc, crc32.IEEETable, b)
		n += int64(len(b))
		switch {
		case err == nil:
			return n, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue // a name longer than the buffer: on to its end
		default:
			return n, noEOF(err)
		}
	}
}

// Read reads the member's output; io.EOF once its trailer is read and
// checked.
func (z *memberReader) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	n, err := z.flate.Read(p)
	z.digest = crc32.Update(z.digest, crc32.IEEETable, p[:n])
	z.size += uint32(n)
	switch {
	case err == io.EOF:
		err = z.trailer()
	case err != nil:
		var ce flate.CorruptInputError
		if errors.As(err, &ce) {
			err = flate.CorruptInputError(z.data + int64(ce))
		}
	}
	z.err = err
	return n, err
}

// trailer reads and checks the member's CRC-32 and size: io.EOF when
// they match what was decoded.
func (z *memberReader) trailer() error {
	if _, err := io.ReadFull(z.br, z.trail[:]); err != nil {
		return noEOF(err)
	}
	if binary.LittleEndian.Uint32(z.trail[:4]) != z.digest || binary.LittleEndian.Uint32(z.trail[4:]) != z.size {
		return gzip.ErrChecksum
	}
	return io.EOF
}

// noEOF is err, with the end of the input inside a member unexpected.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
