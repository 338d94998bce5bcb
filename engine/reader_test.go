package engine

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// readerCollection writes inputs of each kind of message into dir: mail
// with an HTML part (attribute values, anchor text), WARC, plain text
// with candidates over --max-length (past the cap of one cause), and a
// truncated gzip file (an error after some URIs).
func readerCollection(t *testing.T, dir string) []string {
	t.Helper()
	long := ""
	for i := range warnCap + 2 {
		long += fmt.Sprintf("at %d http://long.example/%s then\n", i, strings.Repeat("x", 300))
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	for i := range 400 {
		fmt.Fprintf(w, "line %d http://gz.example/%d\n", i, i)
	}
	w.Close()
	files := map[string]string{
		"a.eml": "From: a@example.com\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\nsee http://plain.example/\n" +
			"--b\nContent-Type: text/html\n\n<a href=\"http://href.example/x\">the page</a> <a href=\"javascript:go('http://js.example/')\">j</a>\n--b--\n",
		"b.warc":      "WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: http://t.example/\r\nContent-Length: 24\r\n\r\nsee http://w.example/ \r\n\r\n\r\n",
		"c.txt":       long + "and http://short.example/\n",
		"d.txt.gz":    gz.String()[:gz.Len()/2],
		"e-empty.txt": "",
	}
	var names []string
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
	}
	names = append(names, filepath.Join(dir, "missing.txt"))
	return names
}

// recordingSink records what a Sink is told.
type recordingSink struct {
	uris []string // "FILE URI FORMAT MESSAGE RECORD TEXT"
	msgs []Message
}

func (s *recordingSink) URI(file string, m *extract.Match, from *document.Origin) {
	s.uris = append(s.uris, fmt.Sprintf("%s %s %v %d %d %q", file, m.URI, from.Format, from.Message, from.Record, from.Text))
}

func (s *recordingSink) Message(m Message) { s.msgs = append(s.msgs, m) }

// TestRunInputsAsRun: inputs given as readers read as the files of the
// same names: the same output and messages, byte for byte, the same
// status and counts; the Sink is told of every URI printed and every
// message, in their order.
func TestRunInputsAsRun(t *testing.T) {
	names := readerCollection(t, t.TempDir())
	for _, jsonOut := range []bool{false, true} {
		o := DefaultOptions()
		o.Jobs = 1
		o.Output.JSON = jsonOut
		o.Output.FileName = true
		o.Extract.MaxLength = 200
		var wantOut, wantErr bytes.Buffer
		o.Stdout, o.Stderr = &wantOut, &wantErr
		want := Run(names, o)

		var inputs []Input
		for _, name := range names {
			inputs = append(inputs, Input{Name: name, Open: func() (io.ReadCloser, error) {
				f, err := os.Open(name)
				if err != nil {
					return nil, err
				}
				// Not an *os.File: read as any reader is.
				return struct {
					io.Reader
					io.Closer
				}{f, f}, nil
			}})
		}
		var gotOut, gotErr bytes.Buffer
		o.Stdout, o.Stderr = &gotOut, &gotErr
		sink := &recordingSink{}
		o.Sink = sink
		o.Jobs = 4 // one worker all the same, with a Sink
		got := RunInputs(inputs, o)

		if gotOut.String() != wantOut.String() {
			t.Errorf("json %v: output\n%s\nwant\n%s", jsonOut, gotOut.String(), wantOut.String())
		}
		if gotErr.String() != wantErr.String() {
			t.Errorf("json %v: messages\n%s\nwant\n%s", jsonOut, gotErr.String(), wantErr.String())
		}
		if got.Status != Trouble || want.Status != Trouble {
			t.Errorf("json %v: status %d, want %d (Trouble)", jsonOut, got.Status, want.Status)
		}
		if got.Stats.Files != want.Stats.Files || got.Stats.Found != want.Stats.Found || got.Stats.Bytes != want.Stats.Bytes {
			t.Errorf("json %v: stats %+v, want %+v", jsonOut, got.Stats, want.Stats)
		}

		// The Sink: a URI for each line printed, in order.
		lines := strings.Split(strings.TrimSuffix(gotOut.String(), "\n"), "\n")
		if len(sink.uris) != len(lines) {
			t.Fatalf("json %v: sink told of %d URIs, %d printed", jsonOut, len(sink.uris), len(lines))
		}
		for i, l := range lines {
			uri := strings.Fields(sink.uris[i])[1]
			if !strings.Contains(l, uri) {
				t.Errorf("json %v: URI %d: sink told %s, printed %s", jsonOut, i, sink.uris[i], l)
			}
		}
		// Each message as printed, the error and the summary told apart.
		var told strings.Builder
		errs, more := 0, 0
		for _, m := range sink.msgs {
			fmt.Fprintf(&told, "urix: %s: %s\n", m.File, m.Text)
			if m.Error {
				errs++
			}
			more += m.More
		}
		if told.String() != gotErr.String() {
			t.Errorf("json %v: sink told messages\n%s\nwant\n%s", jsonOut, told.String(), gotErr.String())
		}
		if errs != 2 || more != 2 {
			t.Errorf("json %v: %d errors (want 2: the truncated gzip, the missing file), %d warnings past the cap (want 2)", jsonOut, errs, more)
		}
	}
}

// TestSinkOrigins: the Sink is told where each URI was found: the
// message and the anchor text of an href, the record of a WARC file,
// nothing for plain text.
func TestSinkOrigins(t *testing.T) {
	dir := t.TempDir()
	names := readerCollection(t, dir)
	o := DefaultOptions()
	o.Stdout, o.Stderr = io.Discard, io.Discard
	o.Output.JSON = true
	sink := &recordingSink{}
	o.Sink = sink
	Run(names, o)
	all := strings.Join(sink.uris, "\n")
	for _, want := range []string{
		filepath.Join(dir, "a.eml") + ` http://href.example/x mail 1 0 "the page"`,
		// Read in an href's text (javascript:), with the anchor's.
		filepath.Join(dir, "a.eml") + ` http://js.example/ mail 1 0 "j"`,
		filepath.Join(dir, "b.warc") + ` http://w.example/ warc 0 1 ""`,
		filepath.Join(dir, "c.txt") + ` http://short.example/ text 0 0 ""`,
	} {
		if !strings.Contains(all, want+"\n") && !strings.HasSuffix(all, want) {
			t.Errorf("sink not told %s; told\n%s", want, all)
		}
	}
}

// TestRunInputsOpenError: an input that cannot be opened is an error in
// its turn, and the inputs after it are read.
func TestRunInputsOpenError(t *testing.T) {
	var out, errs bytes.Buffer
	o := DefaultOptions()
	o.Stdout, o.Stderr = &out, &errs
	res := RunInputs([]Input{
		{Name: "gone", Open: func() (io.ReadCloser, error) {
			return nil, &os.PathError{Op: "open", Path: "gone", Err: errors.New("no such object")}
		}},
		{Name: "here", Open: func() (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader("at http://here.example/\n")), nil
		}},
	}, o)
	if res.Status != Trouble || out.String() != "http://here.example/\n" || errs.String() != "urix: gone: no such object\n" {
		t.Errorf("status %d, output %q, messages %q", res.Status, out.String(), errs.String())
	}
	if res := RunInputs(nil, o); res.Status != NotFound {
		t.Errorf("no inputs: status %d, want NotFound", res.Status)
	}
}

// TestRunInputsWalked: inputs marked Walked are read as -r reads what it
// finds: a binary one skipped with -r's warning, read with Binary (-a).
func TestRunInputsWalked(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.bin": "\x00\x01 http://in-binary.example/\n", "b.txt": "http://text.example/\n"}
	var inputs []Input
	for _, name := range []string{"a.bin", "b.txt"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, Input{Name: p, Walked: true, Open: func() (io.ReadCloser, error) { return os.Open(p) }})
	}
	for _, binary := range []bool{false, true} {
		o := DefaultOptions()
		o.Jobs, o.Binary, o.Output.FileName = 1, binary, true
		var wantOut, wantErr, gotOut, gotErr bytes.Buffer
		o.Recursive, o.Stdout, o.Stderr = true, &wantOut, &wantErr
		Run([]string{dir}, o)
		o.Recursive, o.Stdout, o.Stderr = false, &gotOut, &gotErr
		RunInputs(inputs, o)
		if gotOut.String() != wantOut.String() || gotErr.String() != wantErr.String() {
			t.Errorf("-a %v: RunInputs %q %q, -r %q %q", binary, gotOut.String(), gotErr.String(), wantOut.String(), wantErr.String())
		}
		if strings.Contains(wantOut.String(), "in-binary") != binary {
			t.Errorf("-a %v: -r gave %q", binary, wantOut.String())
		}
	}
}
