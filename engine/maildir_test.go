package engine

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maildirMessage is a small message of a Maildir: a header, a text part
// and an HTML part, with links in each.
func maildirMessage(i int) string {
	return fmt.Sprintf("From: a%d@example.com\nTo: b@example.org\nSubject: note %d\n"+
		"Message-ID: <%d@example.com>\nMIME-Version: 1.0\n"+
		"Content-Type: multipart/alternative; boundary=\"b%d\"\n\n"+
		"--b%d\nContent-Type: text/plain; charset=utf-8\n\nSee https://example.com/a/%d and <http://example.net/x>.\n"+
		"--b%d\nContent-Type: text/html\n\n<p><a href=\"https://example.org/p/%d\">here</a></p>\n"+
		"--b%d--\n", i, i, i, i, i, i, i, i, i)
}

// TestMaildirPerFileAllocations: what the engine allocates to read a file
// of one message, beside what the same message costs in an mbox, is
// bounded (issue 32: a Maildir read at 0.7 of its mbox's speed or
// better). Made for each file, the document, the file's output and
// messages, its counting readers and the closures of the mail reader
// were 15 allocations a file (1.6 KB of a 7.8 KB message's), and -j 2
// over 6,013 such files reached the collector's first goal where -j 1
// and the mbox did not.
func TestMaildirPerFileAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are not counted under the race detector (sync.Pool drops items); .ci/run runs this test without it")
	}
	const files = 200
	dir := t.TempDir()
	maildir := filepath.Join(dir, "maildir", "cur")
	if err := os.MkdirAll(maildir, 0o755); err != nil {
		t.Fatal(err)
	}
	var mbox strings.Builder
	for i := range files {
		msg := maildirMessage(i)
		if err := os.WriteFile(filepath.Join(maildir, fmt.Sprintf("%05d:2,S", i)), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&mbox, "From a%d@example.com Sat Nov 28 05:00:00 2026\n%s\n", i, msg)
	}
	mboxFile := filepath.Join(dir, "mail.mbox")
	if err := os.WriteFile(mboxFile, []byte(mbox.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	allocs := func(input string) float64 {
		o := DefaultOptions()
		o.Recursive, o.Jobs = true, 1
		o.Stdout, o.Stderr = io.Discard, io.Discard
		return testing.AllocsPerRun(3, func() {
			if res := Run([]string{input}, o); res.Status != Found {
				t.Fatalf("%s: status %v", input, res.Status)
			}
		})
	}
	perFile := (allocs(filepath.Join(dir, "maildir")) - allocs(mboxFile)) / files
	t.Logf("%.1f allocations a file more than a message of the mbox", perFile)
	// Left a file: its name and the walk's entry for it, the open's
	// path, the reader and header of a message read whole (the mbox's
	// reader keeps its own across messages), the output's place in
	// the order. 8 is room for those, not for the 15 of before.
	if perFile > 8 {
		t.Errorf("%.1f allocations a file more than a message of the mbox; want at most 8", perFile)
	}
}
