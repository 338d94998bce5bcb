package engine

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// panicMbox is an mbox of n messages, message i holding
// http://m<i>.example/ in its body, then a text file after it.
func panicMbox(t *testing.T, dir string, n int) (mbox, after string) {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "From a@example.com Mon Jan  1 00:00:00 2024\nFrom: a@example.com\nSubject: %d\n\nsee http://m%d.example/ and http://n%d.example/\n\n", i, i, i)
	}
	mbox, after = filepath.Join(dir, "list.mbox"), filepath.Join(dir, "after.txt")
	if err := os.WriteFile(mbox, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(after, []byte("http://after.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return mbox, after
}

// TestPanicInDocumentContained: a panic as a document of message 3 is
// read ends that document only: its error is the input's, in the order
// of the messages, the messages after it and the next file are read,
// the status is Trouble, and the output and stderr are the same at -j 1
// and -j 2 (where messages are read on workers, each message's run its
// own: MessageRun 1).
func TestPanicInDocumentContained(t *testing.T) {
	dir := t.TempDir()
	mbox, after := panicMbox(t, dir, 8)
	want := "urix: " + mbox + ": internal error reading the document in part 1 of message 3: boom (the rest of it was not read; please report this)\n"
	var outs []string
	for _, jobs := range []int{1, 2} {
		for _, inputs := range [][]string{{mbox}, {mbox, after}} {
			o := DefaultOptions()
			o.Jobs = jobs
			o.Tuning.MessageRun = 1
			o.Tuning.beforeDocument = func(d *document.Document) {
				if d.Origin.Message == 3 && d.Source == document.SourceBody {
					panic("boom")
				}
			}
			var out, errs bytes.Buffer
			o.Stdout, o.Stderr = &out, &errs
			res := Run(inputs, o)
			if res.Status != Trouble {
				t.Errorf("-j %d %d inputs: status %d, want %d", jobs, len(inputs), res.Status, Trouble)
			}
			if errs.String() != want {
				t.Errorf("-j %d: stderr %q, want %q", jobs, errs.String(), want)
			}
			for i := 1; i <= 8; i++ {
				u := fmt.Sprintf("http://m%d.example/", i)
				if got := strings.Contains(out.String(), u); got != (i != 3) {
					t.Errorf("-j %d: %s printed: %v", jobs, u, got)
				}
			}
			if len(inputs) == 2 && !strings.Contains(out.String(), "http://after.example/") {
				t.Errorf("-j %d: the file after the panic not read: %q", jobs, out.String())
			}
			outs = append(outs, out.String())
		}
	}
	if outs[0] != outs[2] || outs[1] != outs[3] {
		t.Errorf("-j 1 and -j 2 differ:\n%s\n%s", outs[0], outs[2])
	}
}

// panickingSink panics when it is told of one URI.
type panickingSink struct {
	recordingSink
	at string
}

func (s *panickingSink) URI(file string, m *extract.Match, from *document.Origin) {
	if m.URI == s.at {
		panic("sink failed")
	}
	s.recordingSink.URI(file, m, from)
}

// TestPanicInSinkContained: the layer over the engine (the Beam
// pipeline's Sink) panics on one URI: that document's error is told to
// the Sink as the input's, the other documents and inputs are read.
func TestPanicInSinkContained(t *testing.T) {
	dir := t.TempDir()
	mbox, after := panicMbox(t, dir, 5)
	o := DefaultOptions()
	o.Output.JSON = true
	s := &panickingSink{at: "http://m2.example/"}
	o.Sink, o.Stdout, o.Stderr = s, io.Discard, io.Discard
	var inputs []Input
	for _, p := range []string{mbox, after} {
		inputs = append(inputs, Input{Name: p, Open: func() (io.ReadCloser, error) { return os.Open(p) }})
	}
	res := RunInputs(inputs, o)
	if res.Status != Trouble {
		t.Errorf("status %d, want %d", res.Status, Trouble)
	}
	want := []Message{{File: mbox, Text: "internal error reading the document in part 1 of message 2: sink failed (the rest of it was not read; please report this)", Error: true}}
	if fmt.Sprint(s.msgs) != fmt.Sprint(want) {
		t.Errorf("messages %v, want %v", s.msgs, want)
	}
	got := strings.Join(s.uris, "\n")
	for _, u := range []string{"http://m1.example/", "http://m3.example/", "http://n5.example/", "http://after.example/"} {
		if !strings.Contains(got, " "+u+" ") {
			t.Errorf("%s not told", u)
		}
	}
	if strings.Contains(got, "http://n2.example/") {
		t.Errorf("the rest of the document that panicked was read")
	}
}
