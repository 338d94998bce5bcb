// Package warc is a small streaming reader of WARC 1.0/1.1 files (ISO 28500,
// and Common Crawl's WET files, which are WARC 1.0 with "conversion"
// records), record by record.
//
// It is written over the specification rather than taken from a library.
// The Go WARC libraries looked at: github.com/internetarchive/gowarc (and its
// forks CorentinB/warc, saveweb/gowarc, from nlevitt/warc) is built around an
// HTTP client that records to WARC and pulls in a large dependency tree
// (DNS, TLS, spooling) for what is here a few hundred lines of reading; it
// gives neither record offsets nor resynchronisation after a corrupt record.
// github.com/edsu/warc says itself it "really isn't functional yet". A reader
// of a line-oriented header followed by Content-Length bytes is small enough
// to own, and owning it lets urix stream bodies of any size, report offsets
// and recover from damage.
//
// Compressed WARC (.warc.gz, a gzip member per record; .warc.zst) is read by
// giving NewReader the output of document.Decompress.
package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urix-dev/urix/internal/blockread"
)

// Field is one named header field, as read (name case kept, value trimmed,
// folded continuation lines joined with a single space).
type Field struct {
	Name, Value string
}

// Header is a record's named fields in the order of the record. It is a list
// rather than a map because the order is meaningful to a reader of the file
// and because some fields may repeat (WARC-Concurrent-To).
type Header []Field

// Get returns the value of the first field named name (ASCII
// case-insensitively), or "" when there is none.
func (h Header) Get(name string) string {
	v, _ := h.Lookup(name)
	return v
}

// Lookup is Get that also reports whether the field is present.
func (h Header) Lookup(name string) (string, bool) {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

// Record is one WARC record.
type Record struct {
	Version   string // "WARC/1.0", "WARC/1.1", as on the record's first line
	Type      string // WARC-Type
	TargetURI string // WARC-Target-URI, "" when absent (the <> of WARC 1.0 drafts removed)
	RecordID  string // WARC-Record-ID, with its <>
	Offset    int64  // byte offset of the record's "WARC/1.x" line in the input
	Header    Header // all the named fields, in order
	// Body yields exactly Content-Length bytes (an error wrapping
	// io.ErrUnexpectedEOF if the input ends first). It is valid until the
	// next call to Next, which skips whatever of it was not read.
	Body io.Reader
	// ContentLength is the Content-Length field's value.
	ContentLength int64
}

// FormatError is a malformed record.
type FormatError struct {
	Offset int64 // offset of the record (or of the bad bytes, when no record start was found)
	Msg    string
	Err    error // an underlying error, such as io.ErrUnexpectedEOF, or nil
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("warc: malformed record at offset %d: %s", e.Offset, e.Msg)
}

func (e *FormatError) Unwrap() error { return e.Err }

// Limits keep memory bounded whatever the input.
const (
	maxLineLen    = 64 << 10 // one header line
	maxHeaderLen  = 1 << 20  // all the header lines of a record
	maxFieldCount = 10000
	// holdMax is the longest body HoldBody gives as a slice of the
	// Reader's block; a longer one is copied.
	holdMax = 1 << 20
)

// Reader reads WARC records from a stream.
type Reader struct {
	br     *blockread.Reader
	off    int64 // bytes consumed from br
	body   *body // the current record's body, nil before the first record
	resync bool  // the last Next failed: look for the next "WARC/1." line
	// pending is a "WARC/1." line met while reading a header, taken as the
	// start of the next record (at pendingOff) on resync.
	pending    string
	pendingOff int64
	hasPending bool
	err        error // sticky non-format error (from the underlying reader)

	// The header being read: its names and values one after the other
	// in hdr, where spans say; made one string when the header ends, so
	// that a record costs a few allocations, not two per field.
	hdr   []byte
	spans []fieldSpan
}

type fieldSpan struct{ n0, n1, v0, v1 int }

// NewReader returns a Reader reading WARC records from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: blockread.NewReader(r, holdMax)}
}

// NewReaderOf returns a Reader of the WARC records in data, which lies in
// memory (a file mapped into memory, for one): the blocks HoldBody holds
// are slices of data itself, not copies. free, when not nil, is given
// each stretch of data once the Reader is past it and no block held
// holds it (the pages of a mapping may then go); done, when not nil, is
// called once Close was called and every hold released: nothing reads
// data then.
func NewReaderOf(data []byte, free func([]byte), done func()) *Reader {
	return &Reader{br: blockread.NewMappedReader(blockread.Mapped{Data: data, Free: free, Done: done})}
}

// Close ends the reading of a Reader made by NewReaderOf (see there); no
// Next after it. It does nothing for a Reader of a stream.
func (r *Reader) Close() { r.br.Close() }

var versionPrefix = []byte("WARC/1.")

// readLine reads one line, returning it without its line ending (LF or
// CRLF). A line longer than maxLineLen comes back in pieces with long set
// (the pieces after the first are not at a line start). At the end of the
// input it returns what there was and io.EOF.
func (r *Reader) readLine() (line []byte, long bool, err error) {
	b, err := r.br.ReadSlice('\n')
	r.off += int64(len(b))
	if err == bufio.ErrBufferFull {
		return b, true, nil
	}
	if err != nil && len(b) > 0 && err == io.EOF {
		return b, false, io.EOF
	}
	if err != nil {
		return b, false, err
	}
	b = b[:len(b)-1]
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b, false, nil
}

// Next returns the next record. It returns io.EOF at the end of the input.
// It skips the unread rest of the previous record's body. A malformed record
// gives a *FormatError with its offset; the Next after it looks for the next
// line that starts with "WARC/1." and goes on from there, so that one bad
// record costs only itself (and whatever a wrong Content-Length swallowed:
// a length too long makes the body run on over the records after it, to
// the end of the input, where its *FormatError says how short it fell).
//
// However many bad records the input holds, the caller can read on after
// every *FormatError: each one comes after input was consumed, but at the
// end of the input, where the next call returns io.EOF. A loop that calls
// Next until io.EOF or an error of another type (from the underlying
// reader, sticky) ends, after at most two calls more than the input has
// lines, and its work and memory are linear in the input and bounded per
// record.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.body != nil {
		b := r.body
		r.body = nil
		b.stale = true
		if err := b.skip(); err != nil {
			return nil, r.fail(err)
		}
	}
	var (
		start int64
		first string
	)
	switch {
	case r.hasPending:
		start, first = r.pendingOff, r.pending
		r.hasPending = false
		r.resync = false
	case r.resync:
		var err error
		start, first, err = r.findStart()
		if err != nil {
			return nil, err
		}
		r.resync = false
	default:
		// Skip the blank lines that end the previous record (CRLF CRLF) and
		// any extra ones.
		for {
			c, err := r.br.ReadByte()
			if err == io.EOF {
				return nil, io.EOF
			}
			if err != nil {
				return nil, r.fail(err)
			}
			if c != '\r' && c != '\n' {
				r.br.UnreadByte()
				break
			}
			r.off++
		}
		start = r.off
		line, long, err := r.readLine()
		if err != nil && err != io.EOF {
			return nil, r.fail(err)
		}
		if long || !bytes.HasPrefix(line, versionPrefix) {
			r.resync = true
			return nil, &FormatError{Offset: start, Msg: fmt.Sprintf("expected a \"WARC/1.x\" line, found %s", quote(line, long))}
		}
		first = string(line)
	}
	rec, err := r.readHeader(start, first)
	if err != nil {
		r.resync = true
		return nil, err
	}
	return rec, nil
}

// findStart skips lines up to one starting with "WARC/1." and returns its
// offset and text, or io.EOF.
func (r *Reader) findStart() (int64, string, error) {
	atStart := true
	for {
		off := r.off
		line, long, err := r.readLine()
		if atStart && !long && bytes.HasPrefix(line, versionPrefix) && (err == nil || err == io.EOF) {
			if err == io.EOF {
				return 0, "", r.truncated(off, "input ends in the record's first line")
			}
			return off, string(line), nil
		}
		if err == io.EOF {
			return 0, "", io.EOF
		}
		if err != nil {
			return 0, "", r.fail(err)
		}
		atStart = !long
	}
}

func (r *Reader) truncated(off int64, msg string) error {
	return &FormatError{Offset: off, Msg: msg, Err: io.ErrUnexpectedEOF}
}

// fail records an error of the underlying reader, which ends the reading.
func (r *Reader) fail(err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return err
	}
	r.err = fmt.Errorf("warc: reading at offset %d: %w", r.off, err)
	return r.err
}

func quote(line []byte, long bool) string {
	const max = 40
	s := line
	if len(s) > max {
		s = s[:max]
		long = true
	}
	q := strconv.Quote(string(s))
	if long {
		q += "..."
	}
	return q
}

func (r *Reader) readHeader(start int64, first string) (*Record, error) {
	rec := &Record{Offset: start, Version: strings.TrimRight(first, " \t")}
	bad := func(format string, args ...any) error {
		return &FormatError{Offset: start, Msg: fmt.Sprintf(format, args...)}
	}
	if v := rec.Version[len(versionPrefix):]; v == "" || strings.Trim(v, "0123456789") != "" {
		return nil, bad("bad version line %q", rec.Version)
	}
	total := 0
	r.hdr, r.spans = r.hdr[:0], r.spans[:0]
	if cap(r.hdr) > 64<<10 {
		r.hdr = nil // a huge header's buffer is not kept
	}
	for {
		lineOff := r.off
		line, long, err := r.readLine()
		if err == io.EOF {
			return nil, r.truncated(start, "input ends in the record's header")
		}
		if err != nil {
			return nil, r.fail(err)
		}
		if long {
			return nil, bad("header line longer than %d bytes", maxLineLen)
		}
		if total += len(line); total > maxHeaderLen {
			return nil, bad("header longer than %d bytes", maxHeaderLen)
		}
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(r.spans) == 0 {
				return nil, bad("continuation line before any field")
			}
			// The value and the line, each trimmed, joined by a space.
			if t := bytes.TrimSpace(line); len(t) > 0 {
				f := &r.spans[len(r.spans)-1]
				if f.v1 > f.v0 {
					r.hdr = append(r.hdr, ' ')
				}
				r.hdr = append(r.hdr, t...)
				f.v1 = len(r.hdr)
			}
			continue
		}
		if bytes.HasPrefix(line, versionPrefix) {
			r.pending, r.pendingOff, r.hasPending = string(line), lineOff, true
			return nil, bad("header not ended by a blank line before the next record")
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return nil, bad("header line without a field name: %s", quote(line, false))
		}
		name := bytes.TrimRight(line[:colon], " \t")
		if bytes.IndexByte(name, ' ') >= 0 || bytes.IndexByte(name, '\t') >= 0 {
			return nil, bad("bad field name %q", name)
		}
		if len(r.spans) >= maxFieldCount {
			return nil, bad("more than %d header fields", maxFieldCount)
		}
		var f fieldSpan
		f.n0 = len(r.hdr)
		r.hdr = append(r.hdr, name...)
		f.n1 = len(r.hdr)
		f.v0 = f.n1
		r.hdr = append(r.hdr, bytes.TrimSpace(line[colon+1:])...)
		f.v1 = len(r.hdr)
		r.spans = append(r.spans, f)
	}
	all := string(r.hdr)
	rec.Header = make(Header, len(r.spans))
	for i, f := range r.spans {
		rec.Header[i] = Field{Name: all[f.n0:f.n1], Value: all[f.v0:f.v1]}
	}
	cl, ok := rec.Header.Lookup("Content-Length")
	if !ok {
		return nil, bad("no Content-Length")
	}
	n, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || n < 0 || cl[0] == '+' {
		return nil, bad("bad Content-Length %q", cl)
	}
	rec.ContentLength = n
	rec.Type = rec.Header.Get("WARC-Type")
	rec.RecordID = rec.Header.Get("WARC-Record-ID")
	rec.TargetURI = rec.Header.Get("WARC-Target-URI")
	if len(rec.TargetURI) >= 2 && rec.TargetURI[0] == '<' && rec.TargetURI[len(rec.TargetURI)-1] == '>' {
		rec.TargetURI = rec.TargetURI[1 : len(rec.TargetURI)-1]
	}
	r.body = &body{r: r, rec: start, remaining: n, length: n}
	rec.Body = r.body
	return rec, nil
}

// body reads a record's Content-Length bytes.
type body struct {
	r         *Reader
	rec       int64 // offset of its record
	remaining int64
	length    int64
	stale     bool
	err       error
}

// skip discards the rest of the body without copying it.
func (b *body) skip() error {
	if b.err != nil {
		return nil // already reported by Read
	}
	for b.remaining > 0 {
		n, err := b.r.br.Discard(int(min(b.remaining, 1<<30)))
		b.r.off += int64(n)
		b.remaining -= int64(n)
		if err == io.EOF {
			return &FormatError{Offset: b.rec, Msg: fmt.Sprintf("input ends after %d of the body's %d bytes", b.length-b.remaining, b.length), Err: io.ErrUnexpectedEOF}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (b *body) Read(p []byte) (int, error) {
	if b.stale {
		return 0, errors.New("warc: body read after the next call to Next")
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.remaining == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	n, err := b.r.br.Read(p)
	b.r.off += int64(n)
	b.remaining -= int64(n)
	if err == io.EOF {
		if b.remaining > 0 {
			b.err = &FormatError{Offset: b.rec, Msg: fmt.Sprintf("input ends after %d of the body's %d bytes", b.length-b.remaining, b.length), Err: io.ErrUnexpectedEOF}
			if n > 0 {
				return n, nil
			}
			return 0, b.err
		}
		err = nil
	}
	if err != nil {
		b.err = b.r.fail(err)
		return n, b.err
	}
	return n, nil
}

// HoldBody reads the body of the record Next just gave, when it is no
// longer than max bytes and none of it was read, and returns it whole
// with a Hold to Release once it is no longer used (nil when there is
// nothing to release). A body of up to 1 MiB is a slice
// of the Reader's buffer, kept for it until then: no copy. It returns
// nil when the body is longer than max or was begun; Body then reads it.
// A body that the input cuts short comes back as far as it goes, with
// the error Body would give.
func (r *Reader) HoldBody(max int) ([]byte, Hold, error) {
	b := r.body
	if b == nil || b.stale || b.err != nil || b.remaining != b.length || b.length > int64(max) {
		return nil, nil, nil
	}
	n := int(b.length)
	if n > holdMax {
		data := make([]byte, n)
		got, err := io.ReadFull(b, data)
		if err == io.ErrUnexpectedEOF {
			err = b.err
		}
		return data[:got], nil, err
	}
	r.br.Mark()
	defer r.br.ClearMark()
	got, err := r.br.Peek(n)
	r.br.Discard(len(got))
	r.off += int64(len(got))
	b.remaining -= int64(len(got))
	data, blk := r.br.Held()
	var hold Hold
	if blk != nil {
		hold = blk
	}
	if len(got) < n {
		if err == io.EOF {
			b.err = &FormatError{Offset: b.rec, Msg: fmt.Sprintf("input ends after %d of the body's %d bytes", b.length-b.remaining, b.length), Err: io.ErrUnexpectedEOF}
		} else {
			b.err = r.fail(err)
		}
		return data, hold, b.err
	}
	return data, hold, nil
}

// A Hold keeps the bytes of a body that HoldBody gave until Release.
type Hold interface{ Release() }
