package warc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

const fuzzMarker = "<urn:uuid:fuzz-marker>"

var fuzzGood = rec("WARC/1.1", []string{"WARC-Type: resource", "WARC-Record-ID: " + fuzzMarker, "WARC-Target-URI: http://example.com/found"}, "found https://example.com/ok\r\n")

// FuzzWARC reads arbitrary input (no panic, no endless loop: at most two
// calls to Next more than the input has lines, bodies as long as they say,
// the same records and errors however the input is split into reads) and
// checks that a valid record placed after the fuzzed bytes, at a line
// start, is still found when the fuzzed bytes hold no "WARC/1." (which
// could open a record whose Content-Length swallows it).
func FuzzWARC(f *testing.F) {
	for _, s := range []string{
		"",
		warcinfo,
		response + tricky,
		wet + empty,
		"WARC/1.0\r\nContent-Length: 99999999999\r\n\r\n",
		"WARC/1.0\r\nContent-Length: 3\r\n\r\nab",
		"garbage\r\n\x00\xff",
		"WARC/1.0\r\nX:\r\n \r\n\tfold\r\nContent-Length: 0\r\n\r\n",
		"WARC/1.\r\n",
		"\r\n\r\n\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(in []byte) (foundMarker bool) {
			wr := NewReader(bytes.NewReader(in))
			for i := 0; ; i++ {
				if lines := bytes.Count(in, []byte("\n")) + 1; i > lines+2 {
					t.Fatalf("%d calls to Next on %d lines", i, lines)
				}
				rec, err := wr.Next()
				if err == io.EOF {
					return foundMarker
				}
				if err != nil {
					var fe *FormatError
					if !errors.As(err, &fe) {
						t.Fatalf("not a FormatError: %v", err)
					}
					if fe.Offset < 0 || fe.Offset > int64(len(in)) {
						t.Fatalf("offset %d out of range", fe.Offset)
					}
					continue
				}
				if rec.Offset < 0 || rec.Offset+int64(len("WARC/1.")) > int64(len(in)) || !bytes.HasPrefix(in[rec.Offset:], []byte("WARC/1.")) {
					t.Fatalf("record offset %d does not point at a WARC/1. line", rec.Offset)
				}
				n, err := io.Copy(io.Discard, rec.Body)
				if err == nil && n != rec.ContentLength || n > rec.ContentLength {
					t.Fatalf("body of %d bytes, Content-Length %d, err %v", n, rec.ContentLength, err)
				}
				if rec.RecordID == fuzzMarker {
					foundMarker = true
				}
			}
		}
		check(data)
		whole := strings.Join(events(bytes.NewReader(data)), "\n")
		for name, wrap := range map[string]func(io.Reader) io.Reader{"one byte": iotest.OneByteReader, "halves": iotest.HalfReader} {
			if got := strings.Join(events(wrap(bytes.NewReader(data))), "\n"); got != whole {
				t.Fatalf("read by %s:\n%s\nwhole:\n%s", name, got, whole)
			}
		}
		if !bytes.Contains(data, []byte("WARC/1.")) && !bytes.Contains(data, []byte(fuzzMarker)) {
			in := append(append(append([]byte{}, data...), "\r\n"...), fuzzGood...)
			if !check(in) {
				t.Fatalf("the record after the fuzzed bytes was not found")
			}
		}
	})
}
