package engine

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/urix-dev/urix/document"
)

// The invariant of ranges: for every file and every target size, the
// outputs of RunRange over Ranges, in order, are Run's on the whole file
// at Jobs 1, byte for byte, and WriteMessages writes Run's stderr; on
// damaged files too.

// rangeOptionSets are the option sets the invariant is checked with:
// plain -n -H, --json, and --json with every message (warnings).
func rangeOptionSets() map[string]Options {
	plain := DefaultOptions()
	plain.Output.Line, plain.Output.FileName = true, true
	js := DefaultOptions()
	js.Output.JSON = true
	warn := js
	warn.Warnings = true
	offsets := DefaultOptions()
	offsets.Output.Offset, offsets.Output.Column, offsets.Output.FileName = true, true, true
	offsets.Extract.MaxLength = 300 // skipped candidates: warnings
	facts := DefaultOptions()
	facts.Print, facts.Embedded, facts.Output.FileName = PrintDomain, true, true
	return map[string]Options{"-n -H": plain, "--json": js, "--json --warnings": warn, "-b --column --max-length 300": offsets,
		"-H --print domain --embedded": facts}
}

// runWhole is Run on file at Jobs 1: its stdout, stderr and status.
func runWhole(file string, o Options) (stdout, stderr string, status int) {
	var out, errw bytes.Buffer
	o.Jobs, o.Stdout, o.Stderr = 1, &out, &errw
	res := Run([]string{file}, o)
	return out.String(), errw.String(), res.Status
}

// runRanges reads file by its ranges of about target bytes: the
// concatenated stdout, the messages, the combined status and how many
// ranges there were.
func runRanges(t *testing.T, file string, o Options, target int64) (stdout, stderr string, status, ranges int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Ranges(file, bytes.NewReader(data), int64(len(data)), o, target)
	if err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	var msgs []RangeMessages
	status = NotFound
	at := int64(0)
	for _, rg := range rs {
		if rg.Start != at || rg.End <= rg.Start && len(data) > 0 {
			t.Fatalf("ranges not contiguous: %+v after %d", rg, at)
		}
		at = rg.End
		o.Stdout = &out
		res := RunRange(rg, bytes.NewReader(data), o)
		msgs = append(msgs, res.Messages)
		switch {
		case res.Status == Trouble:
			status = Trouble
		case res.Status == Found && status != Trouble:
			status = Found
		}
	}
	if at != int64(len(data)) {
		t.Fatalf("ranges end at %d of %d", at, len(data))
	}
	if err := WriteMessages(&errw, msgs); err != nil {
		t.Fatal(err)
	}
	return out.String(), errw.String(), status, len(rs)
}

// How many ranges a file must have at the smallest target.
type rangeCount int

const (
	anyRanges  rangeCount = iota
	oneRange              // a file without boundaries
	manyRanges            // a file with boundaries (3 at least)
)

// checkRanges checks the invariant for file, with each option set and
// each target; split says whether the smallest target must give more
// than one range (a file with boundaries) or one.
func checkRanges(t *testing.T, file string, split bool) {
	t.Helper()
	checkRangesAs(t, file, split, document.Auto)
}

// checkRangesAs is checkRanges with --format format.
func checkRangesAs(t *testing.T, file string, split bool, format document.Format) {
	t.Helper()
	want := oneRange
	if split {
		want = manyRanges
	}
	checkRangesTargets(t, file, want, format, []int64{1, 100, 1000, 4000, 30000, 1 << 30})
}

// checkRangedRun runs the ranges of file, of about target bytes, with
// the option set o (named name), tells report where their output,
// messages or status differ from Run's (want...), and returns how many
// ranges there were and how it names the run.
func checkRangedRun(t *testing.T, report func(string, ...any), file, name string, o Options, target int64, wantOut, wantErr string, wantStatus int) (n int, where string) {
	t.Helper()
	gotOut, gotErr, gotStatus, n := runRanges(t, file, o, target)
	where = fmt.Sprintf("%s, %s, target %d (%d ranges)", filepath.Base(file), name, target, n)
	if gotOut != wantOut {
		report("%s: stdout differs:\n%s", where, firstDiff(gotOut, wantOut))
	}
	if gotErr != wantErr {
		report("%s: stderr differs:\n got: %q\nwant: %q", where, gotErr, wantErr)
	}
	if gotStatus != wantStatus {
		report("%s: status %d, want %d", where, gotStatus, wantStatus)
	}
	return n, where
}

// checkRangesTargets is checkRangesAs with the given targets.
func checkRangesTargets(t *testing.T, file string, want rangeCount, format document.Format, targets []int64) {
	t.Helper()
	for name, o := range rangeOptionSets() {
		o.Format = format
		wantOut, wantErr, wantStatus := runWhole(file, o)
		for _, target := range targets {
			n, where := checkRangedRun(t, t.Errorf, file, name, o, target, wantOut, wantErr, wantStatus)
			if target == 1 && want == manyRanges && n < 3 {
				t.Errorf("%s: %d ranges, want many", where, n)
			}
			if target == 1 && want == oneRange && n != 1 {
				t.Errorf("%s: %d ranges, want one", where, n)
			}
		}
	}
}

// firstDiff shows where two outputs part.
func firstDiff(got, want string) string {
	gl, wl := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(gl), len(wl))
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// genMbox is an mbox of n messages of the kinds internal/cli's genmbox
// writes (plain, quoted-printable, HTML in base64, some broken, unknown
// charsets, long candidates, ">From " lines), plus "From " lines in
// bodies: after a blank line (a new message, as in any mbox reader) and
// not (a line of the body, unless it looks like an envelope).
func genMbox(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "From sender%d@example.com Mon Jan  1 00:00:%02d 2024\n", i, i%60)
		fmt.Fprintf(&b, "Message-ID: <m%d@example.com>\nSubject: message %d\n", i, i)
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "List-Archive: <http://lists.example/arch/%d>\n", i)
		}
		body := fmt.Sprintf("Message %d: see http://example.com/m/%d and <http://example.com/wrapped/\n  %d>.\n>From the top\n", i, i, i)
		switch rng.IntN(8) {
		case 0:
			body += "http://long.example/" + strings.Repeat("x", 400) + "\n"
		case 1:
			body += strings.Repeat("filler line http://fill.example/a\n", 200)
		case 2:
			body += "From here on, http://inside.example/not-a-new-message\n"
		case 3:
			body += "\nFrom here http://split.example/a-new-message <http://open.example/\n"
		case 4:
			body += "From x@y Mon Jan  1 00:00:00 2024 http://envelope.example/\n"
		}
		switch rng.IntN(5) {
		case 0:
			b.WriteString("Content-Type: text/plain; charset=x-nonesuch\n\n" + body)
		case 1:
			b.WriteString("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n")
			b.WriteString(strings.ReplaceAll(body, "http://example.com/m/", "http://example.com/=\nqp/"))
		case 2:
			html := fmt.Sprintf(`<p>Hi <a href="http://example.com/h/%d?a=1&amp;b=2">link</a> http://example.com/t/%d</p>`, i, i)
			enc := base64.StdEncoding.EncodeToString([]byte(html))
			if rng.IntN(4) == 0 {
				enc = enc[:len(enc)/2] + "!!" + enc[len(enc)/2:]
			}
			b.WriteString("Content-Type: multipart/alternative; boundary=bb\n\n--bb\nContent-Type: text/plain\n\n" + body +
				"--bb\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\n" + enc + "\n--bb--\n")
		default:
			b.WriteString("\n" + body)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// genWARC is a WARC file of n records as genwarc writes them, with
// malformed records between them: a Content-Length that is no number,
// one too short.
func genWARC(n int, seed uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	var records [][]byte
	off := 0
	record := func(typ, target, block string, length int) {
		var b strings.Builder
		fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: %s\r\nWARC-Record-ID: <urn:uuid:%08d>\r\n", typ, off)
		if target != "" {
			fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", target)
		}
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s\r\n\r\n", length, block)
		records = append(records, []byte(b.String()))
		off += b.Len()
	}
	record("warcinfo", "", "software: genwarc\r\n", len("software: genwarc\r\n"))
	for i := 1; i <= n; i++ {
		block := fmt.Sprintf("Page %d: see http://example.com/p/%d and <http://example.com/wrapped/\n  %d>.\n", i, i, i)
		switch rng.IntN(8) {
		case 0:
			block += "http://long.example/" + strings.Repeat("x", 400) + "\n"
		case 1:
			block += strings.Repeat("filler line http://fill.example/a\n", 100)
		case 2:
			bad := "WARC/1.0\r\nWARC-Type: conversion\r\nContent-Length: nope\r\n\r\nhttp://lost.example/\r\n\r\n"
			records = append(records, []byte(bad))
			off += len(bad)
		case 3:
			// A Content-Length too short: the record's end is not
			// where it says, and the reader resynchronises.
			record("conversion", fmt.Sprintf("http://short.example/%d", i), block, len(block)/2)
			continue
		}
		record("conversion", fmt.Sprintf("http://site.example/%d", i), block, len(block))
	}
	return records
}

// gzipMembers gzips each piece as a member of its own.
func gzipMembers(pieces [][]byte) []byte {
	var out bytes.Buffer
	for _, p := range pieces {
		zw := gzip.NewWriter(&out)
		zw.Write(p)
		zw.Close()
	}
	return out.Bytes()
}

func TestRangesMbox(t *testing.T) {
	checkRanges(t, writeFile(t, "gen.mbox", genMbox(120, 1)), true)
}

func TestRangesMboxFormat(t *testing.T) {
	// --format mbox: blank lines and text before the first "From "
	// line (a message of its own, warned of).
	data := append([]byte("\n\nText before http://before.example/\n\n"), genMbox(50, 10)...)
	checkRangesAs(t, writeFile(t, "pre.mbox", data), true, document.Mbox)
}

func TestRangesMboxGzip(t *testing.T) {
	// An mbox gzipped a member a message: boundaries at members.
	data := genMbox(40, 2)
	var msgs [][]byte
	for len(data) > 0 {
		i := bytes.Index(data[1:], []byte("\n\nFrom sender"))
		if i < 0 {
			msgs = append(msgs, data)
			break
		}
		msgs = append(msgs, data[:i+3])
		data = data[i+3:]
	}
	checkRanges(t, writeFile(t, "gen.mbox.gz", gzipMembers(msgs)), true)
}

func TestRangesWARC(t *testing.T) {
	checkRanges(t, writeFile(t, "gen.warc", bytes.Join(genWARC(150, 3), nil)), true)
}

func TestRangesWARCLongContentLength(t *testing.T) {
	// A Content-Length too long: the record swallows the records after
	// it to the end of the file, where it falls short; no boundary
	// after it.
	rs := genWARC(60, 4)
	rs[30] = bytes.Replace(rs[30], []byte("Content-Length: "), []byte("Content-Length: 9"), 1)
	checkRanges(t, writeFile(t, "long.warc", bytes.Join(rs, nil)), true)
}

func TestRangesWARCGzip(t *testing.T) {
	checkRanges(t, writeFile(t, "gen.warc.gz", gzipMembers(genWARC(150, 5))), true)
}

func TestRangesWARCGzipDamaged(t *testing.T) {
	rs := genWARC(80, 6)
	var members [][]byte
	for _, r := range rs {
		members = append(members, gzipMembers([][]byte{r}))
	}
	join := func(ms [][]byte, extra ...[]byte) []byte {
		return append(bytes.Join(ms, nil), bytes.Join(extra, nil)...)
	}
	truncated := join(members[:50], members[50][:len(members[50])/2])
	garbage := join(members[:40], []byte("garbage between members\n"), join(members[40:]))
	padded := join(members, make([]byte, 100))
	// A member of several records and a record over two members: a
	// boundary only where both start.
	joined := append(join(members[:20]), gzipMembers([][]byte{bytes.Join(rs[20:30], nil)})...)
	joined = append(joined, gzipMembers([][]byte{rs[30][:50], rs[30][50:]})...)
	joined = append(joined, join(members[31:])...)
	// A corrupt member: its deflate data overwritten.
	corrupt := join(members)
	at := len(join(members[:45])) + 30
	copy(corrupt[at:], "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff")
	for name, data := range map[string][]byte{"truncated": truncated, "garbage": garbage, "padded": padded, "joined": joined, "corrupt": corrupt} {
		t.Run(name, func(t *testing.T) {
			checkRanges(t, writeFile(t, name+".warc.gz", data), true)
		})
	}
}

func TestRangesOneRange(t *testing.T) {
	// One message, a single-stream gzip file: one range, read as Run
	// reads the file (text: ranges_text_test.go).
	var one bytes.Buffer
	zw := gzip.NewWriter(&one)
	zw.Write(bytes.Join(genWARC(40, 7), nil))
	zw.Close()
	for name, data := range map[string][]byte{
		"one.warc.gz": one.Bytes(),
		"one.eml":     []byte("Subject: hi\n\nhttp://example.com/1\n"),
		"empty":       nil,
	} {
		checkRanges(t, writeFile(t, name, data), false)
	}
}

func TestRangesWholeFileOptions(t *testing.T) {
	// What Run prints of a file as a whole (-c, -l, -m, -u) makes it one
	// range.
	file := writeFile(t, "gen.mbox", genMbox(30, 8))
	for _, set := range []func(*Options){
		func(o *Options) { o.Output.Count = true },
		func(o *Options) { o.List = ListWithMatches },
		func(o *Options) { o.MaxCount = 3 },
		func(o *Options) { o.Extract.Unique = true },
		func(o *Options) { o.Quiet = true },
	} {
		o := DefaultOptions()
		set(&o)
		wantOut, wantErr, wantStatus := runWhole(file, o)
		gotOut, gotErr, gotStatus, n := runRanges(t, file, o, 1)
		if n != 1 || gotOut != wantOut || gotErr != wantErr || gotStatus != wantStatus {
			t.Errorf("%+v: %d ranges; got %q %q %d, want %q %q %d", o, n, gotOut, gotErr, gotStatus, wantOut, wantErr, wantStatus)
		}
	}
}

// failingReader fails its reads at and past an offset.
type failingReader struct {
	data []byte
	at   int64
}

func (f failingReader) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.at {
		return 0, errors.New("storage failed")
	}
	return copy(p, f.data[off:]), nil
}

func TestRangesReadError(t *testing.T) {
	// A failure of the storage is the range's ReadErr (to be retried)
	// and Ranges' error, not a failure of the content.
	data := bytes.Join(genWARC(40, 11), nil)
	o := DefaultOptions()
	if _, err := Ranges("w", failingReader{data, int64(len(data)) / 2}, int64(len(data)), o, 100); err == nil {
		t.Error("Ranges: no error from a failing file")
	}
	rs, err := Ranges("w", bytes.NewReader(data), int64(len(data)), o, 100)
	if err != nil {
		t.Fatal(err)
	}
	checkRangeReadErr(t, rs[len(rs)-1], data, o)
}

// checkRangeReadErr checks that RunRange of rg over data failing 10
// bytes into rg is Trouble with the storage's error, and that over data
// it has no ReadErr.
func checkRangeReadErr(t *testing.T, rg Range, data []byte, o Options) {
	t.Helper()
	o.Stdout, o.Stderr = io.Discard, io.Discard
	res := RunRange(rg, failingReader{data, rg.Start + 10}, o)
	if res.ReadErr == nil || res.Status != Trouble || !strings.Contains(res.Messages.Error, "storage failed") {
		t.Errorf("RunRange over a failing file: %v, status %d, %q", res.ReadErr, res.Status, res.Messages.Error)
	}
	if res := RunRange(rg, bytes.NewReader(data), o); res.ReadErr != nil {
		t.Errorf("RunRange: %v", res.ReadErr)
	}
}

func TestRangesNumbers(t *testing.T) {
	// Each range after the first starts at a message: its From says
	// where, as the whole reading numbers it.
	data := genMbox(20, 9)
	rs, err := Ranges("m", bytes.NewReader(data), int64(len(data)), DefaultOptions(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, rg := range rs[1:] {
		if rg.From.Number != i+2 || rg.From.Format != document.Mbox || rg.From.Offset != rg.Start ||
			!bytes.HasPrefix(data[rg.Start:], []byte("From ")) {
			t.Errorf("range %d: %+v", i+1, rg)
		}
	}
}

// TestRangesCorpus checks the invariant on the benchmark corpus's large
// files (an mbox of 270 MB, a WET file, the same gzipped a member a
// record, text of 200 MB and mail read as text), by the hashes of the
// outputs, in ranges of 8 MiB. It reads
// $URIX_CORPUS (/tmp/urix-corpus as bench/ makes it), and skips when that
// is not set: it takes a minute.
func TestRangesCorpus(t *testing.T) {
	dir := os.Getenv("URIX_CORPUS")
	if dir == "" {
		t.Skip("URIX_CORPUS is not set: the corpus's mbox and WET files are not read in ranges")
	}
	for _, name := range []string{"text.wet.gz", "text.wet", "mail.mbox", "text.txt", "mail.txt"} {
		file := filepath.Join(dir, name)
		f, err := os.Open(file)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		fi, _ := f.Stat()
		o := DefaultOptions()
		o.Output.JSON = true
		wantOut, wantErr := sha256.New(), new(bytes.Buffer)
		o.Jobs, o.Stdout, o.Stderr = 1, wantOut, wantErr
		Run([]string{file}, o)
		listed := time.Now()
		rs, err := Ranges(file, f, fi.Size(), o, 8<<20)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(listed)
		t.Logf("%s: listed in %v (%.0f MB/s)", name, took, float64(fi.Size())/took.Seconds()/1e6)
		gotOut := sha256.New()
		o.Stdout = gotOut
		var msgs []RangeMessages
		for _, rg := range rs {
			msgs = append(msgs, RunRange(rg, f, o).Messages)
		}
		var gotErr bytes.Buffer
		WriteMessages(&gotErr, msgs)
		f.Close()
		t.Logf("%s: %d ranges", name, len(rs))
		if !bytes.Equal(gotOut.Sum(nil), wantOut.Sum(nil)) || gotErr.String() != wantErr.String() {
			t.Errorf("%s: the ranges' output differs from the whole file's (stderr %q, want %q)", name, gotErr.String(), wantErr.String())
		}
	}
}

// TestRangesScriptFiles checks the invariant on every input file of the
// CLI's test scripts (testdata/script/*.txtar: mboxes, WARC files, mail,
// text, damaged ones), read in ranges of a message or record each and
// as one: a file without boundaries is one range, any other may be cut
// anywhere they are.
func TestRangesScriptFiles(t *testing.T) {
	scripts, _ := filepath.Glob("../testdata/script/*.txtar")
	if len(scripts) == 0 {
		t.Fatal("no test scripts in ../testdata/script")
	}
	checked, cut := 0, 0
	for _, script := range scripts {
		ar, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if len(f.Data) == 0 || strings.HasPrefix(f.Name, "want") || strings.HasPrefix(f.Name, "exp") ||
				strings.HasSuffix(f.Name, ".out") || strings.HasSuffix(f.Name, ".err") {
				continue
			}
			file := writeFile(t, filepath.Base(script)+"-"+filepath.Base(f.Name), f.Data)
			checkRangesTargets(t, file, anyRanges, document.Auto, []int64{1, 1 << 30})
			checked++
			if rs, _ := Ranges(file, bytes.NewReader(f.Data), int64(len(f.Data)), DefaultOptions(), 1); len(rs) > 1 {
				cut++
			}
		}
	}
	t.Logf("%d files, %d of them in more than one range", checked, cut)
}

func TestRangesSink(t *testing.T) {
	// A Sink is told of the URIs of each range as Run tells it of the
	// whole file's, with their origins; the counts add up to Run's.
	checkRangesSink(t, "s.warc.gz", gzipMembers(genWARC(60, 12)), DefaultOptions(), 500)
}

// checkRangesSink checks that a Sink is told of the URIs of the ranges
// of data, a file named name, of about target bytes, as of the whole
// file's by Run with o, and that the ranges' counts add up to Run's.
func checkRangesSink(t *testing.T, name string, data []byte, o Options, target int64) {
	t.Helper()
	file := writeFile(t, name, data)
	o.Stdout, o.Stderr = io.Discard, io.Discard
	var whole recordingSink
	o.Sink = &whole
	want := Run([]string{file}, o)
	rs, err := Ranges(file, bytes.NewReader(data), int64(len(data)), o, target)
	if err != nil {
		t.Fatal(err)
	}
	var ranged recordingSink
	o.Sink = &ranged
	var found, bytesRead int64
	for _, rg := range rs {
		res := RunRange(rg, bytes.NewReader(data), o)
		found += res.Stats.Found
		bytesRead += res.Stats.Bytes
	}
	if len(rs) < 3 || strings.Join(ranged.uris, "\n") != strings.Join(whole.uris, "\n") {
		t.Errorf("%d ranges: the Sink was told of %d URIs, want %d", len(rs), len(ranged.uris), len(whole.uris))
	}
	if found != want.Stats.Found || bytesRead != int64(len(data)) {
		t.Errorf("ranges found %d URIs in %d bytes; Run %d in %d", found, bytesRead, want.Stats.Found, len(data))
	}
}
