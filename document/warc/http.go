package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"net/http/httputil"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
)

// The HTTP message of a response record (WARC 1.1 6.3.2), read as the
// browser receives it (behaviour §9, revision 5): the status line, the
// header fields, and the body undone from its Transfer-Encoding and
// Content-Encoding.

// MaxHTTPHeader bounds the status line and header fields of an HTTP
// response: what a server sends past it is no response a browser reads.
const MaxHTTPHeader = 256 << 10

// HTTPResponse is the HTTP message of a response record.
type HTTPResponse struct {
	Status int // the status code (301, 200, ...)
	// Fields are the header fields in order, names as written; a value's
	// folded lines (obs-fold) joined with a space.
	Fields [][2]string
	// Body is the payload undone from its transfer coding (chunked) and
	// its content codings (gzip, x-gzip, deflate, br, identity); an error
	// of their decoding is a *BodyError. Nil when a content coding is
	// not one of those (Unsupported names it).
	Body io.Reader
	// Unsupported is the content coding that left Body nil.
	Unsupported string
}

// Get returns the value of the first field named name (any case).
func (h *HTTPResponse) Get(name string) string {
	for _, f := range h.Fields {
		if strings.EqualFold(f[0], name) {
			return f[1]
		}
	}
	return ""
}

// BodyError is an error in the coding of an HTTP body (a bad gzip
// stream, a bad chunk size, a body cut short): the body is read as far
// as it decodes; the record's input is not at fault.
type BodyError struct{ Err error }

func (e *BodyError) Error() string { return "HTTP body: " + e.Err.Error() }
func (e *BodyError) Unwrap() error { return e.Err }

// ReadHTTPResponse reads the status line and header fields of an HTTP
// response from r, a response record's block, and readies its body. An
// error means the block holds no HTTP response (its start is not a status
// line, or its header runs past MaxHTTPHeader or to the end).
func ReadHTTPResponse(r io.Reader) (*HTTPResponse, error) {
	src := &inputReader{r: r}
	br := bufio.NewReaderSize(src, 16<<10)
	left := MaxHTTPHeader
	line, err := readHTTPLine(br, &left)
	if err != nil {
		return nil, err
	}
	status, ok := parseStatusLine(line)
	if !ok {
		return nil, fmt.Errorf("no HTTP status line: %q", truncate(line, 64))
	}
	resp := &HTTPResponse{Status: status}
	for {
		line, err := readHTTPLine(br, &left)
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && len(resp.Fields) > 0 {
			// obs-fold (RFC 9112 5.2): a continuation of the last value.
			last := &resp.Fields[len(resp.Fields)-1]
			last[1] = strings.TrimSpace(last[1] + " " + strings.TrimSpace(string(line)))
			continue
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || len(bytes.TrimSpace(name)) == 0 {
			continue // not a field: skipped, as browsers do
		}
		resp.Fields = append(resp.Fields, [2]string{string(bytes.TrimSpace(name)), string(bytes.TrimSpace(value))})
	}
	var body io.Reader = br
	if te := strings.ToLower(resp.Get("Transfer-Encoding")); strings.Contains(te, "chunked") {
		body = httputil.NewChunkedReader(br)
	}
	codings := strings.Split(strings.ToLower(resp.Get("Content-Encoding")), ",")
	for i := len(codings) - 1; i >= 0; i-- {
		switch c := strings.TrimSpace(codings[i]); c {
		case "", "identity":
		case "gzip", "x-gzip":
			body = &lazyReader{open: func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }, src: body}
		case "deflate":
			body = &lazyReader{open: openDeflate, src: body}
		case "br":
			body = brotli.NewReader(body)
		default:
			resp.Unsupported = c
			return resp, nil
		}
	}
	resp.Body = &bodyErrors{r: body, src: src}
	return resp, nil
}

// openDeflate opens an HTTP "deflate" body: zlib (RFC 9110 8.4.1.2), or
// the raw deflate some servers send instead, told by the zlib header's
// check bits (RFC 1950 2.2), as browsers tell them.
func openDeflate(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	h, err := br.Peek(2)
	if err != nil && len(h) < 2 {
		return flate.NewReader(br), nil
	}
	if h[0]&0x0f == 8 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// lazyReader opens its decoder at the first Read, so that a decoder's
// error on its header is one of reading the body.
type lazyReader struct {
	open func(io.Reader) (io.Reader, error)
	src  io.Reader
	r    io.Reader
	err  error
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil && l.err == nil {
		l.r, l.err = l.open(l.src)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}

// inputReader remembers the last error of the record's block, so that
// bodyErrors tells it from an error of the body's codings.
type inputReader struct {
	r   io.Reader
	err error
}

func (r *inputReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// bodyErrors gives the decoded body; an error that is not the input's is
// a *BodyError.
type bodyErrors struct {
	r   io.Reader
	src *inputReader
}

func (b *bodyErrors) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF && (b.src.err == nil || !errors.Is(err, b.src.err)) {
		var be *BodyError
		if !errors.As(err, &be) {
			err = &BodyError{Err: err}
		}
	}
	return n, err
}

// readHTTPLine reads one line without its CRLF or LF, counting its bytes
// against *left.
func readHTTPLine(br *bufio.Reader, left *int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		*left -= len(chunk)
		if *left < 0 {
			return nil, fmt.Errorf("HTTP header longer than %d bytes", MaxHTTPHeader)
		}
		if err == bufio.ErrBufferFull {
			line = append(line, chunk...)
			continue
		}
		if err != nil {
			if err == io.EOF {
				err = errors.New("HTTP header cut short")
			}
			return nil, err
		}
		if line != nil {
			chunk = append(line, chunk...)
		}
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		return bytes.TrimSuffix(chunk, []byte("\r")), nil
	}
}

// parseStatusLine reads "HTTP/1.1 200 OK" (RFC 9112 4), lenient as
// browsers are about the version and the reason.
func parseStatusLine(line []byte) (int, bool) {
	if !bytes.HasPrefix(line, []byte("HTTP/")) {
		return 0, false
	}
	_, rest, ok := bytes.Cut(line, []byte(" "))
	if !ok {
		return 0, false
	}
	rest = bytes.TrimLeft(rest, " ")
	code := rest
	if i := bytes.IndexByte(rest, ' '); i >= 0 {
		code = rest[:i]
	}
	n, err := strconv.Atoi(string(code))
	if err != nil || len(code) != 3 || n < 100 {
		return 0, false
	}
	return n, true
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
