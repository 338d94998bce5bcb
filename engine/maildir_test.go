package engine

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	_, maildir, mboxFile := makeMaildir(t, files)
	allocs := func(input string, jobs int) float64 {
		o := DefaultOptions()
		o.Recursive, o.Jobs = true, jobs
		o.Stdout, o.Stderr = io.Discard, io.Discard
		return testing.AllocsPerRun(3, func() {
			if res := Run([]string{input}, o); res.Status != Found {
				t.Fatalf("%s: status %v", input, res.Status)
			}
		})
	}
	mbox := allocs(mboxFile, 1)
	perFile := (allocs(maildir, 1) - mbox) / files
	t.Logf("%.1f allocations a file more than a message of the mbox", perFile)
	// Left a file at -j 1 (2.0): the writers of its place in the order,
	// of its output and of its messages. The walk's entry for a file
	// and its name were more (5.0 a file; 13.9 before session 18): a
	// directory's names and paths are now one list and one string
	// (document.readDir).
	if perFile > 3 {
		t.Errorf("%.1f allocations a file more than a message of the mbox; want at most 3", perFile)
	}
	// At -j 2 a file costs less: its inputs come in batches, and a
	// batch's writers are made once (5.3 a file when each file's were
	// made, and its walk entry; 0.3 now).
	perFileJ2 := (allocs(maildir, 2) - mbox) / files
	t.Logf("-j 2: %.1f allocations a file more than a message of the mbox", perFileJ2)
	if perFileJ2 > 1.5 {
		t.Errorf("-j 2: %.1f allocations a file more than a message of the mbox; want at most 1.5", perFileJ2)
	}
}

// makeMaildir writes files messages as a Maildir (dir/maildir/cur, a
// file each) and as an mbox (dir/mail.mbox).
func makeMaildir(t testing.TB, files int) (dir, maildir, mboxFile string) {
	return makeMaildirOf(t, files, maildirMessage)
}

// makeMaildirOf is makeMaildir of the messages message(i).
func makeMaildirOf(t testing.TB, files int, message func(int) string) (dir, maildir, mboxFile string) {
	dir = t.TempDir()
	cur := filepath.Join(dir, "maildir", "cur")
	if err := os.MkdirAll(cur, 0o755); err != nil {
		t.Fatal(err)
	}
	var mbox strings.Builder
	for i := range files {
		msg := message(i)
		if err := os.WriteFile(filepath.Join(cur, fmt.Sprintf("%05d:2,S", i)), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&mbox, "From a%d@example.com Sat Nov 28 05:00:00 2026\n%s\n", i, msg)
	}
	mboxFile = filepath.Join(dir, "mail.mbox")
	if err := os.WriteFile(mboxFile, []byte(mbox.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, "maildir"), mboxFile
}

// TestMaildirStatsAtAnyJobs: the counts of a run (--stats, Progress) are
// those of -j 1 at any -j, each worker counting its share (tally), and
// while the run goes the progress callback sees them grow to them.
func TestMaildirStatsAtAnyJobs(t *testing.T) {
	const files = 300
	_, maildir, _ := makeMaildir(t, files)
	var want Stats
	for _, jobs := range []int{1, 2, 3, 8} {
		o := DefaultOptions()
		o.Recursive, o.Jobs = true, jobs
		o.Stdout, o.Stderr = io.Discard, io.Discard
		var last Stats
		o.Progress = func(s Stats) {
			if s.Files < last.Files || s.Bytes < last.Bytes || s.Found < last.Found {
				t.Errorf("-j %d: progress went back: %+v after %+v", jobs, s, last)
			}
			last = s
		}
		res := Run([]string{maildir}, o)
		if res.Status != Found {
			t.Fatalf("-j %d: status %v", jobs, res.Status)
		}
		got := res.Stats
		if jobs == 1 {
			want = got
			if got.Files != files || got.Found != 3*files || got.Bytes == 0 {
				t.Fatalf("-j 1: %+v; want %d files, %d URIs", got, files, 3*files)
			}
		}
		if got.Files != want.Files || got.Bytes != want.Bytes || got.Found != want.Found || got.Invalid != want.Invalid {
			t.Errorf("-j %d: %+v; want those of -j 1, %+v", jobs, got, want)
		}
		if last.Files != got.Files || last.Bytes != got.Bytes || last.Found != got.Found || last.Invalid != got.Invalid {
			t.Errorf("-j %d: the last progress %+v, the result %+v", jobs, last, got)
		}
	}
}

// BenchmarkMaildir reads the same 6,000 messages of 7.8 KB, as the
// SpamAssassin corpus's, as a Maildir and as an mbox, at -j 1 and -j 2,
// and reports the mbox's time over the Maildir's (issue 32: 0.7 or
// better). bench/README.md has the figures of a quiet machine.
func BenchmarkMaildir(b *testing.B) {
	filler := strings.Repeat("Some words of a message, and a link to https://example.com/page now and then.\n", 90)
	_, maildir, mbox := makeMaildirOf(b, 6000, func(i int) string {
		m := maildirMessage(i)
		// The body of the text part, 7 KB longer.
		at := strings.Index(m, "See https")
		return m[:at] + filler + m[at:]
	})
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("j%d", jobs), func(b *testing.B) {
			o := DefaultOptions()
			o.Jobs = jobs
			o.Stdout, o.Stderr = io.Discard, io.Discard
			// -r for the Maildir only: a file named with -r is not read
			// on several workers.
			r := o
			r.Recursive = true
			var inMbox, inMaildir time.Duration
			for b.Loop() {
				start := time.Now()
				Run([]string{mbox}, o)
				mid := time.Now()
				Run([]string{maildir}, r)
				inMbox += mid.Sub(start)
				inMaildir += time.Since(mid)
			}
			b.ReportMetric(inMbox.Seconds()/inMaildir.Seconds(), "mbox/maildir")
			b.ReportMetric(float64(inMaildir.Nanoseconds())/float64(b.N)/6000, "ns/file")
		})
	}
}
