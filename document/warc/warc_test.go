package warc

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// rec builds one record with CRLF line ends and the right Content-Length.
func rec(version string, fields []string, body string) string {
	var b strings.Builder
	b.WriteString(version + "\r\n")
	for _, f := range fields {
		b.WriteString(f + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.WriteString(body)
	b.WriteString("\r\n\r\n")
	return b.String()
}

var (
	warcinfo = rec("WARC/1.1", []string{
		"WARC-Type: warcinfo",
		"WARC-Date: 2024-01-01T00:00:00Z",
		"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>",
		"Content-Type: application/warc-fields",
	}, "software: urix-test\r\nformat: WARC File Format 1.1\r\n")
	response = rec("WARC/1.1", []string{
		"WARC-Type: response",
		"WARC-Target-URI: http://example.com/",
		"WARC-Date: 2024-01-01T00:00:01Z",
		"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000002>",
		"Content-Type: application/http;msgtype=response",
	}, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=\"https://example.org/x\">x</a>\n")
	// A body whose bytes look like a following record: Content-Length must win.
	tricky = rec("WARC/1.0", []string{
		"WARC-Type: resource",
		"WARC-Target-URI: <urn:x-test:tricky>",
		"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000003>",
		"WARC-Concurrent-To: <urn:uuid:a>",
		"WARC-Concurrent-To: <urn:uuid:b>",
		"X-Folded: first",
		"\tsecond",
	}, "\r\n\r\nWARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://fake.example/\r\nContent-Length: 0\r\n\r\n\r\n\r\n")
	// Common Crawl WET: WARC/1.0 conversion records of plain text.
	wet = rec("WARC/1.0", []string{
		"WARC-Type: conversion",
		"WARC-Target-URI: http://example.net/page",
		"WARC-Date: 2024-01-01T00:00:02Z",
		"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000004>",
		"WARC-Refers-To: <urn:uuid:00000000-0000-0000-0000-000000000002>",
		"WARC-Block-Digest: sha1:AAAA",
		"Content-Type: text/plain",
	}, "Plain text of the page, see https://example.net/more\nand ftp://example.net/file\n")
	empty = rec("WARC/1.0", []string{"WARC-Type: metadata", "WARC-Record-ID: <urn:uuid:5>"}, "")
)

type got struct {
	rec  *Record
	body string
	err  error // the error of Next, when it failed
}

func readAll(t testing.TB, r io.Reader, readBodies bool) []got {
	t.Helper()
	wr := NewReader(r)
	var out []got
	for i := 0; ; i++ {
		if i > 10000 {
			t.Fatal("no end")
		}
		rec, err := wr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, got{err: err})
			var fe *FormatError
			if !errors.As(err, &fe) {
				return out
			}
			continue
		}
		g := got{rec: rec}
		if readBodies {
			b, err := io.ReadAll(rec.Body)
			g.body = string(b)
			g.err = err
		}
		out = append(out, g)
	}
}

func TestRecords(t *testing.T) {
	in := warcinfo + response + tricky + wet + empty
	for _, mode := range []string{"whole", "onebyte", "half", "skip-bodies"} {
		t.Run(mode, func(t *testing.T) {
			var r io.Reader = strings.NewReader(in)
			switch mode {
			case "onebyte":
				r = iotest.OneByteReader(r)
			case "half":
				r = iotest.HalfReader(r)
			}
			recs := readAll(t, r, mode != "skip-bodies")
			if len(recs) != 5 {
				t.Fatalf("%d records, want 5: %+v", len(recs), recs)
			}
			wantOff := int64(0)
			for i, want := range []struct {
				typ, target, id, raw string
			}{
				{"warcinfo", "", "<urn:uuid:00000000-0000-0000-0000-000000000001>", warcinfo},
				{"response", "http://example.com/", "<urn:uuid:00000000-0000-0000-0000-000000000002>", response},
				{"resource", "urn:x-test:tricky", "<urn:uuid:00000000-0000-0000-0000-000000000003>", tricky},
				{"conversion", "http://example.net/page", "<urn:uuid:00000000-0000-0000-0000-000000000004>", wet},
				{"metadata", "", "<urn:uuid:5>", empty},
			} {
				g := recs[i]
				if g.err != nil {
					t.Fatalf("record %d: %v", i, g.err)
				}
				if g.rec.Type != want.typ || g.rec.TargetURI != want.target || g.rec.RecordID != want.id {
					t.Errorf("record %d: %q %q %q", i, g.rec.Type, g.rec.TargetURI, g.rec.RecordID)
				}
				if g.rec.Offset != wantOff {
					t.Errorf("record %d: offset %d, want %d", i, g.rec.Offset, wantOff)
				}
				wantOff += int64(len(want.raw))
				sep := strings.Index(want.raw, "\r\n\r\n") + 4
				body := want.raw[sep : len(want.raw)-4]
				if mode != "skip-bodies" && g.body != body {
					t.Errorf("record %d: body %q, want %q", i, g.body, body)
				}
				if g.rec.ContentLength != int64(len(body)) {
					t.Errorf("record %d: length %d", i, g.rec.ContentLength)
				}
			}
			h := recs[2].rec.Header
			if v := h.Get("x-folded"); v != "first second" {
				t.Errorf("folded field %q", v)
			}
			var conc []string
			for _, f := range h {
				if f.Name == "WARC-Concurrent-To" {
					conc = append(conc, f.Value)
				}
			}
			if len(conc) != 2 || h[0].Name != "WARC-Type" {
				t.Errorf("header %+v", h)
			}
			if _, ok := h.Lookup("Nope"); ok {
				t.Error("Lookup found a missing field")
			}
			if recs[0].rec.Version != "WARC/1.1" || recs[3].rec.Version != "WARC/1.0" {
				t.Error("versions")
			}
		})
	}
}

func TestLenientSeparators(t *testing.T) {
	// LF-only lines, missing and extra blank lines between records.
	body := "HTTP/1.1 200 OK\nContent-Type: text/html\n\n<a href=\"https://example.org/x\">x</a>\n"
	in := fmt.Sprintf("WARC/1.0\nWARC-Type: response\nContent-Length: %d\n\n%s\n\n", len(body), body)
	recs := readAll(t, strings.NewReader(in+"\n\n\n"+strings.TrimSuffix(wet, "\r\n\r\n")+empty), true)
	if len(recs) != 3 {
		t.Fatalf("%+v", recs)
	}
	for i, g := range recs {
		if g.err != nil {
			t.Fatalf("record %d: %v", i, g.err)
		}
	}
	if recs[0].body != "HTTP/1.1 200 OK\nContent-Type: text/html\n\n<a href=\"https://example.org/x\">x</a>\n" {
		t.Errorf("body %q", recs[0].body)
	}
}

func TestResync(t *testing.T) {
	cases := []struct {
		name, bad string
	}{
		{"no content-length", "WARC/1.0\r\nWARC-Type: response\r\n\r\nbody without length\r\n\r\n"},
		{"bad content-length", "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 12x\r\n\r\nbody\r\n\r\n"},
		{"negative content-length", "WARC/1.0\r\nContent-Length: -5\r\n\r\n"},
		{"header without colon", "WARC/1.0\r\nWARC-Type response\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"},
		{"header cut short", "WARC/1.0\r\nWARC-Type: response\r\nWARC-Tar\r\n"},
		{"header cut short at a field", "WARC/1.0\r\nWARC-Type: response\r\n"},
		{"garbage", "this is not a WARC record\r\n\x00\x01\x02 binary\xff\r\nmore\n"},
		{"version only", "WARC/1.1\r\n"},
		{"bad version", "WARC/1.x\r\nContent-Length: 0\r\n\r\n\r\n\r\n"},
		{"content-length too short", "WARC/1.0\r\nContent-Length: 2\r\n\r\nabcdef\r\n\r\n"},
		{"long line", "WARC/1.0\r\nX: " + strings.Repeat("a", 200<<10) + "\r\nContent-Length: 0\r\n\r\n"},
		{"long garbage line", strings.Repeat("z", 300<<10) + "WARC/1.0 not at a line start\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := response + tc.bad + wet
			for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
				recs := readAll(t, r, true)
				var types []string
				var errs []error
				for _, g := range recs {
					if g.rec != nil {
						types = append(types, g.rec.Type)
						if g.err != nil {
							t.Errorf("body error %v", g.err)
						}
					} else {
						errs = append(errs, g.err)
					}
				}
				if len(types) < 2 || types[0] != "response" || types[len(types)-1] != "conversion" {
					t.Fatalf("records %q, errors %v", types, errs)
				}
				if len(errs) == 0 {
					t.Fatalf("no error for the bad record: records %q", types)
				}
				for _, err := range errs {
					var fe *FormatError
					if !errors.As(err, &fe) || fe.Offset < int64(len(response)) || fe.Offset > int64(len(response+tc.bad)) {
						t.Errorf("error %v: offset not in the bad record's range [%d, %d]", err, len(response), len(response+tc.bad))
					}
					if !strings.Contains(err.Error(), fmt.Sprintf("offset %d", fe.Offset)) {
						t.Errorf("error %q does not give its offset", err)
					}
				}
				if last := recs[len(recs)-1]; last.rec == nil || last.rec.Offset != int64(len(response+tc.bad)) {
					t.Errorf("last record at the wrong offset")
				}
			}
		})
	}
}

func TestTruncatedBody(t *testing.T) {
	in := response + wet[:len(wet)-30]
	for _, read := range []bool{true, false} {
		recs := readAll(t, strings.NewReader(in), read)
		if len(recs) != 2 && read || len(recs) != 3 && !read {
			t.Fatalf("read=%v: %+v", read, recs)
		}
		var err error
		if read {
			err = recs[1].err
			if !strings.HasPrefix(wet[strings.Index(wet, "\r\n\r\n")+4:], recs[1].body) || len(recs[1].body) == 0 {
				t.Errorf("body %q", recs[1].body)
			}
		} else {
			err = recs[2].err
		}
		var fe *FormatError
		if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &fe) || fe.Offset != int64(len(response)) {
			t.Errorf("read=%v: error %v", read, err)
		}
	}
	// Cut in the header.
	recs := readAll(t, strings.NewReader(response+wet[:40]), true)
	if len(recs) != 2 || !errors.Is(recs[1].err, io.ErrUnexpectedEOF) {
		t.Errorf("%+v", recs)
	}
}

func TestNotWARC(t *testing.T) {
	recs := readAll(t, strings.NewReader("just some text\nhttps://example.com/\n"), true)
	if len(recs) != 1 || recs[0].err == nil || !strings.Contains(recs[0].err.Error(), "offset 0") {
		t.Errorf("%+v", recs)
	}
	if recs := readAll(t, strings.NewReader(""), true); len(recs) != 0 {
		t.Errorf("empty input: %+v", recs)
	}
	if recs := readAll(t, strings.NewReader("\r\n\r\n"), true); len(recs) != 0 {
		t.Errorf("blank input: %+v", recs)
	}
}

func TestBodyAfterNext(t *testing.T) {
	wr := NewReader(strings.NewReader(response + wet))
	r1, err := wr.Next()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(r1.Body, buf); err != nil || string(buf) != "HTTP/" {
		t.Fatal(string(buf), err)
	}
	r2, err := wr.Next()
	if err != nil || r2.Type != "conversion" {
		t.Fatal(err)
	}
	if _, err := r1.Body.Read(buf); err == nil {
		t.Error("stale body read succeeded")
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	wr := NewReader(io.MultiReader(strings.NewReader(response), errReader{boom}))
	if _, err := wr.Next(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := wr.Next(); !errors.Is(err, boom) {
			t.Fatalf("error %v, want boom", err)
		}
	}
}

// zeroReader yields n zero bytes without holding them.
type zeroReader struct{ n int64 }

func (z *zeroReader) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > z.n {
		p = p[:z.n]
	}
	clear(p)
	z.n -= int64(len(p))
	return len(p), nil
}

// A huge body is streamed, never held: skipping or reading 5 GiB allocates
// a bounded amount.
func TestHugeBodyStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	const size = 5 << 30
	for _, read := range []bool{false, true} {
		head := fmt.Sprintf("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: %d\r\n\r\n", int64(size))
		in := io.MultiReader(strings.NewReader(head), &zeroReader{size}, strings.NewReader("\r\n\r\n"+wet))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		wr := NewReader(in)
		r1, err := wr.Next()
		if err != nil {
			t.Fatal(err)
		}
		if read {
			buf := make([]byte, 1<<20)
			n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{r1.Body}, buf)
			if n != size || err != nil {
				t.Fatal(n, err)
			}
		}
		r2, err := wr.Next()
		if err != nil || r2.Type != "conversion" || r2.Offset != int64(len(head))+size+4 {
			t.Fatalf("%+v %v", r2, err)
		}
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Errorf("read=%v: allocated %d MiB", read, grew>>20)
		}
	}
}
