package document

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// docLine is what a test sees of a document: its origin and its text.
func docLine(d *Document) string {
	body, err := io.ReadAll(d.Body)
	if err != nil {
		return fmt.Sprintf("%+v: read error %v", d.Origin, err)
	}
	return fmt.Sprintf("%+v: %q", d.Origin, body)
}

func readAll(t *testing.T, r io.Reader, opts Options) (docs []string, warns []string, err error) {
	t.Helper()
	opts.Warn = func(w Warning) { warns = append(warns, w.String()) }
	err = NewReader(opts).Read(r, "in", func(d *Document) error {
		docs = append(docs, docLine(d))
		return nil
	})
	return docs, warns, err
}

const testMbox = "From a@example.org Mon Jan  1 00:00:00 2024\n" +
	"Message-ID: <1@example.org>\n" +
	"List-Archive: <https://lists.example.org/>\n" +
	"\n" +
	"body one http://example.com/1\n" +
	"\n" +
	"From b@example.org Mon Jan  1 00:00:01 2024\n" +
	"Message-ID: <2@example.org>\n" +
	"Content-Type: multipart/mixed; boundary=XX\n" +
	"\n" +
	"--XX\n" +
	"Content-Type: text/plain\n" +
	"\n" +
	"part one http://example.com/2\n" +
	"--XX\n" +
	"Content-Type: text/html\n" +
	"\n" +
	"<a href=\"http://example.com/3\">x</a>\n" +
	"--XX--\n"

func warcRecord(id, target, block string) string {
	return "WARC/1.1\r\n" +
		"WARC-Type: conversion\r\n" +
		"WARC-Record-ID: <urn:uuid:" + id + ">\r\n" +
		"WARC-Target-URI: " + target + "\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n", len(block)) +
		"\r\n" + block + "\r\n\r\n"
}

var testWARC = warcRecord("1", "http://site.example/a", "text http://example.com/w1\n") +
	"WARC/1.1\r\nContent-Length: x\r\n\r\n" + // malformed: a bad length
	warcRecord("3", "http://site.example/b", "more http://example.com/w3\n")

// The format is told by the first bytes; each document says where it
// came from.
func TestReadFormats(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string // the origins' key fields and the bodies' first URI
	}{
		{"text", "see http://example.com/\n", []string{"text 0 0  : see http://example.com/\n"}},
		{"mbox", testMbox, []string{
			"mbox 1 0 List-Archive 1@example.org: <https://lists.example.org/>",
			"mbox 1 0  1@example.org: body one http://example.com/1\n\n",
			"mbox 2 0  2@example.org: part one http://example.com/2\n",
		}},
		{"warc", testWARC, []string{
			"warc 0 1  : text http://example.com/w1\n",
			"warc 0 3  : more http://example.com/w3\n",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			err := NewReader(Options{}).Read(strings.NewReader(tc.in), "in", func(d *Document) error {
				body, _ := io.ReadAll(d.Body)
				if d.HTML {
					return nil // the HTML reader's output is package mail's to test
				}
				got = append(got, fmt.Sprintf("%s %d %d %s %s: %s", d.Format, d.Message, d.Record, d.Field, d.MessageID, body))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestReadWARCOrigin(t *testing.T) {
	var got []Origin
	var warns []string
	err := NewReader(Options{Warn: func(w Warning) { warns = append(warns, w.String()) }}).Read(strings.NewReader(testWARC), "crawl.warc", func(d *Document) error {
		got = append(got, d.Origin)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	second := strings.Index(testWARC, "WARC/1.1\r\nContent-Length: x")
	third := strings.LastIndex(testWARC, "WARC/1.1\r\nWARC-Type")
	want := []Origin{
		{File: "crawl.warc", Format: WARC, Record: 1, RecordOffset: 0, RecordID: "<urn:uuid:1>", TargetURI: "http://site.example/a"},
		{File: "crawl.warc", Format: WARC, Record: 3, RecordOffset: int64(third), RecordID: "<urn:uuid:3>", TargetURI: "http://site.example/b"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("origins\ngot  %+v\nwant %+v", got, want)
	}
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "crawl.warc: ") || !strings.Contains(warns[0], fmt.Sprint(second)) {
		t.Errorf("warnings %q: want one naming crawl.warc and offset %d", warns, second)
	}
}

// A forced format is taken as given: an mbox read as text is one document.
func TestReadForcedFormat(t *testing.T) {
	docs, _, err := readAll(t, strings.NewReader(testMbox), Options{Format: Text})
	if err != nil || len(docs) != 1 || !strings.Contains(docs[0], "Format:text ") {
		t.Fatalf("docs %q, err %v: want the whole input as one text document", docs, err)
	}
}

func TestReadBinary(t *testing.T) {
	in := "see http://example.com/\x00 binary"
	err := NewReader(Options{SkipBinary: true}).Read(strings.NewReader(in), "b", func(d *Document) error {
		t.Errorf("a document of a binary input: %+v", d.Origin)
		return nil
	})
	if !errors.Is(err, ErrBinary) {
		t.Fatalf("err = %v, want ErrBinary", err)
	}
	// Without SkipBinary the text is read (the NUL ends nothing here).
	docs, _, err := readAll(t, strings.NewReader(in), Options{})
	if err != nil || len(docs) != 1 {
		t.Fatalf("docs %q, err %v", docs, err)
	}
}

// Compressed input gives the documents the same input gives uncompressed.
func TestReadCompressed(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(testMbox))
	zw.Close()
	plain, _, err1 := readAll(t, strings.NewReader(testMbox), Options{})
	got, _, err2 := readAll(t, &gz, Options{})
	if err1 != nil || err2 != nil || strings.Join(got, "\n") != strings.Join(plain, "\n") {
		t.Fatalf("gzip: got %q (%v)\nplain %q (%v)", got, err2, plain, err1)
	}
	if _, _, err := readAll(t, strings.NewReader(testMbox), Options{RequireCompressed: true}); !errors.Is(err, ErrNotCompressed) {
		t.Fatalf("RequireCompressed on plain input: err %v", err)
	}
}

// The documents do not depend on how the input is split into reads.
func TestReadSplits(t *testing.T) {
	for _, in := range []string{testMbox, testWARC, "From: x@example.org\nSubject: s\n\nhttp://example.com/m\n"} {
		want, wantWarns, err := readAll(t, strings.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		check := func(how string, r io.Reader) {
			t.Helper()
			got, warns, err := readAll(t, r, Options{})
			if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") || strings.Join(warns, "\n") != strings.Join(wantWarns, "\n") {
				t.Fatalf("%s: got %q %q (%v)\nwant %q %q", how, got, warns, err, want, wantWarns)
			}
		}
		check("one byte", iotest.OneByteReader(strings.NewReader(in)))
		check("half", iotest.HalfReader(strings.NewReader(in)))
		check("data+EOF", iotest.DataErrReader(strings.NewReader(in)))
		for k := 1; k < len(in); k++ {
			check(fmt.Sprintf("split at %d", k), io.MultiReader(strings.NewReader(in[:k]), strings.NewReader(in[k:])))
		}
	}
}

// The sequence form stops when the loop breaks, and ends with the error
// that stopped the reading.
func TestAll(t *testing.T) {
	n := 0
	for d, err := range All(strings.NewReader(testMbox), "in", Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		if d.Message != 1 {
			t.Fatalf("message %d after the break", d.Message)
		}
		n++
		break
	}
	if n != 1 {
		t.Fatalf("%d documents", n)
	}
	var last error
	for d, err := range All(iotest.ErrReader(errors.New("disk on fire")), "in", Options{}) {
		if d != nil {
			io.Copy(io.Discard, d.Body)
		}
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), "disk on fire") {
		t.Fatalf("last error %v", last)
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{Auto, Text, Mail, Mbox, News, WARC} {
		if g, err := ParseFormat(f.String()); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f, g, err)
		}
	}
	if _, err := ParseFormat("pdf"); err == nil {
		t.Error("ParseFormat(pdf): no error")
	}
}

// Read passes MaxWindow to the decoder (a declared window above it is an
// error before anything is allocated for it), warns of an input read as
// text despite its magic bytes, and reads on through any number of
// malformed WARC records.
func TestReadHostile(t *testing.T) {
	huge := xzStored([]byte{40}, []byte("see http://example.com/\n")) // declares 4 GiB - 1
	var docs int
	err := NewReader(Options{}).Read(bytes.NewReader(huge), "huge.xz", func(d *Document) error {
		docs++
		_, err := io.Copy(io.Discard, d.Body)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "window limit") {
		t.Fatalf("4 GiB dictionary: err %v (%d documents), want the window limit named", err, docs)
	}
	// Under a larger limit the same file decodes: the option reaches the decoder.
	small := xzStored([]byte{22}, []byte("see http://example.com/\n")) // 8 MiB
	if _, _, err := readAll(t, bytes.NewReader(small), Options{MaxWindow: 4 << 20}); err == nil {
		t.Fatal("8 MiB dictionary under MaxWindow 4 MiB: no error")
	}
	if docs, _, err := readAll(t, bytes.NewReader(small), Options{MaxWindow: 16 << 20}); err != nil || len(docs) != 1 {
		t.Fatalf("8 MiB dictionary under MaxWindow 16 MiB: %q, %v", docs, err)
	}

	docs2, warns, err := readAll(t, strings.NewReader("\x1f\x8b\x08 then https://example.com/ text\n"), Options{})
	if err != nil || len(docs2) != 1 || len(warns) != 1 || !strings.Contains(warns[0], "read as text") {
		t.Fatalf("gzip magic before text: docs %q warns %q err %v", docs2, warns, err)
	}

	var in strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&in, "WARC/1.1\r\nContent-Length: bad%d\r\n\r\n", i)
	}
	in.WriteString(warcRecord("9", "http://site.example/z", "last http://example.com/z\n"))
	got, warns, err := readAll(t, strings.NewReader(in.String()), Options{})
	if err != nil || len(got) != 1 || !strings.Contains(got[0], "example.com/z") || !strings.Contains(got[0], "Record:5001 ") {
		t.Fatalf("after 5,000 malformed records: %d documents %.200q, err %v", len(got), got, err)
	}
	if len(warns) != 5000 {
		t.Errorf("%d warnings, want one per malformed record (capping them is the caller's choice)", len(warns))
	}
}

func TestOriginWhere(t *testing.T) {
	for _, tc := range []struct {
		o    Origin
		want string
	}{
		{Origin{File: "a.txt", Format: Text}, ""},
		{Origin{Format: Mbox, Message: 7, Part: "1.2"}, " in part 1.2 of message 7"},
		{Origin{Format: Mail, Message: 1, Field: "List-Post"}, " in the List-Post field of message 1"},
		{Origin{Format: WARC, Record: 3, RecordOffset: 4096}, " in the record at offset 4096"},
	} {
		if got := tc.o.Where(); got != tc.want {
			t.Errorf("%+v.Where() = %q, want %q", tc.o, got, tc.want)
		}
	}
}

// A message file that the Reader's buffer holds whole is walked where it
// lies, as an mbox's held messages are; it gives the documents and
// warnings of the same file walked as it streams.
func TestReadHeldMessage(t *testing.T) {
	msgs := []string{
		"From: x@example.org\nSubject: s\n\nhttp://example.com/m\n",
		"From x@example.org Mon Jan  1 00:00:00 2024\nFrom: x@example.org\nList-Archive: <http://lists.example.org/a>\n\nbody http://example.com/b",
		"From x@example.org Mon Jan  1 00:00:00 2024",
		"From x@example.org Mon Jan  1 00:00:00 2024\n",
		"Message-ID: <1@example.org>\r\nContent-Type: text/html\r\n\r\n<a href=\"http://example.com/h\">x</a> http://example.com/t\r\n",
		"Newsgroups: comp.lang.go\nPath: a!b\nFrom: n@example.org\nSubject: s\n\n> quoted <http://example.com/q\n> r>\n",
		"From: x@example.org\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\ncaf=E9 http://example.com/c\n--B--\n",
		"Subject: header without its end http://example.com/never",
	}
	// As the format is told (a "From " line first is an mbox), and as
	// --format mail has it: a message with its envelope line.
	for _, format := range []Format{Auto, Mail} {
		for i, m := range msgs {
			stream := NewReader(Options{Format: format})
			stream.streamAll = true
			var want, wantWarns []string
			stream.Options.Warn = func(w Warning) { wantWarns = append(wantWarns, w.String()) }
			wantErr := stream.Read(strings.NewReader(m), "in", func(d *Document) error {
				want = append(want, docLine(d))
				return nil
			})
			got, warns, err := readAll(t, strings.NewReader(m), Options{Format: format})
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || strings.Join(got, "\n") != strings.Join(want, "\n") || strings.Join(warns, "\n") != strings.Join(wantWarns, "\n") {
				t.Errorf("format %v, message %d held:\n got %q %q (%v)\nwant %q %q (%v)", format, i, got, warns, err, want, wantWarns, wantErr)
			}
			if len(want) == 0 && i < 2 {
				t.Errorf("format %v, message %d: no documents", format, i)
			}
		}
	}
}
