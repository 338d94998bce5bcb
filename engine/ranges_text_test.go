package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// Text files in ranges: the invariant of ranges_test.go (the ranges'
// outputs in order are Run's at Jobs 1, their messages put together
// Run's stderr) where a range's reading depends on what stands before it
// (SPEC revision 5): a <...> over many ranges, a quoted reply over a
// range's end, bare-break and hyphen joins, CRLF and CR, invalid UTF-8,
// overlong candidates, no line end at all.

// textOptionSets are rangeOptionSets and the forms that give two URIs for
// one candidate (--hyphen both, --bare-break both) with bare hosts and
// addresses.
func textOptionSets() map[string]Options {
	sets := rangeOptionSets()
	both := DefaultOptions()
	both.Output.Line, both.Output.Column, both.Output.Offset = true, true, true
	both.Extract.Hyphen, both.Extract.BareBreak = extract.HyphenBoth, extract.BareBreakBoth
	both.Extract.WWW, both.Extract.Email = true, true
	sets["-n --column -b --hyphen both --bare-break both --www --email"] = both
	join := DefaultOptions()
	join.Output.JSON, join.Warnings = true, true
	join.Extract.BareBreak, join.Extract.MaxLength = extract.BareBreakJoin, 200
	sets["--json --bare-break join --max-length 200"] = join
	return sets
}

// checkTextRanges checks the invariant on a text file with each of
// textOptionSets at each target, and that the smallest target cuts it
// into ranges when it has line ends inside.
func checkTextRanges(t *testing.T, file string, targets []int64) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range textOptionSets() {
		wantOut, wantErr, wantStatus := runWhole(file, o)
		for _, target := range targets {
			n, where := checkRangedRun(t, t.Fatalf, file, name, o, target, wantOut, wantErr, wantStatus)
			inner := bytes.IndexByte(data, '\n')
			if target == 1 && inner >= 0 && inner < len(data)-1 && n < 2 {
				t.Errorf("%s: one range, want several", where)
			}
		}
	}
}

// hostileTexts are small texts whose ranges do not read alone.
var hostileTexts = map[string]string{
	// A <...> that runs over many lines, blank ones and a page break
	// (an RFC's footer and header) among them (behaviour §3).
	"angle": "Text before <http://example.com/a/\n  b/\n\n  c/\n  d/\n\fRFC 9999    Title    May 2024\n\n  e/f> after\n" +
		strings.Repeat("line http://x.example/1\n", 3) + "<http://open.example/never\n closed\n" +
		strings.Repeat("plain line\n", 5) + "http://after.example/\n",
	// Quoted replies: a URI wrapped inside a quote, over the range's end,
	// and depths that change.
	"quote": "> see http://example.com/very/\n> long/path and\n>> deeper http://deep.example/a/\n>> b/c\n" +
		"> <http://q.example/x\n> y>\nback http://plain.example/\n> http://wrap.example/a-\n> b\n",
	// Bare breaks and hyphens: a URI over a bare line break, after a
	// hyphen, "..." and (...) over lines.
	"breaks": "http://example.com/abc\ndef and http://example.com/foo-\nbar\n\"http://q.example/one\ntwo\" (see\nhttp://p.example/x\ny) www.example.com/\npath mail user@example.\ncom end\n",
	// CRLF and CR-only lines.
	"crlf": "line one http://a.example/\r\n<http://b.example/\r\n  c>\r\nold mac\rhttp://c.example/\rnext\r\n\r\nhttp://d.example/x\r\ny\r\n",
	// Invalid UTF-8 on and around line ends.
	"utf8": "\xff\xfe http://a.example/\xff\n\xc3 http://b.example/\xe2\x82\n<http://c.example/\xff\nd>\n\x80\x80\n",
	// No line end at all.
	"oneline": "one line http://a.example/ and <http://b.example/ c> and http://c.example/",
	// A line longer than --max-length: a skipped candidate, a warning.
	"long": "before http://a.example/\nhttp://long.example/" + strings.Repeat("x", 400) + "\nafter http://b.example/\n" +
		"<http://long2.example/" + strings.Repeat("y/\n", 150) + ">\nend http://c.example/\n",
}

func TestRangesTextHostile(t *testing.T) {
	for name, text := range hostileTexts {
		t.Run(name, func(t *testing.T) {
			var targets []int64
			for target := int64(1); target <= int64(len(text))+1; target++ {
				targets = append(targets, target)
			}
			checkTextRanges(t, writeFile(t, name+".txt", []byte(text)), targets)
		})
	}
}

// genText is a text of n lines of the kinds hostileTexts has, and plain
// ones, so that ranges past the first 8 KiB start their scanners inside
// a line (a guessed quote depth) and past other ranges' starts.
func genText(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	var kinds []string
	for _, k := range []string{"angle", "quote", "breaks", "crlf", "utf8", "long"} {
		kinds = append(kinds, hostileTexts[k])
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch rng.IntN(10) {
		case 0:
			b.WriteString(kinds[rng.IntN(len(kinds))])
		case 1:
			fmt.Fprintf(&b, "> quoted %d http://quote.example/%d/\n> wrapped/%d\n", i, i, i)
		case 2:
			fmt.Fprintf(&b, "<http://angle.example/%d/\n%s  tail>\n", i, strings.Repeat("  more/\n", rng.IntN(40)))
		case 3:
			b.WriteString(strings.Repeat("no URI on this line at all, just words\n", rng.IntN(200)))
		case 4:
			fmt.Fprintf(&b, "dense http://a.example/%d http://b.example/%d www.c.example/%d x@y.example\n", i, i, i)
		default:
			fmt.Fprintf(&b, "line %d http://example.com/%d (see\nhttp://paren.example/%d)\n", i, i, i)
		}
	}
	return []byte(b.String())
}

func TestRangesTextGenerated(t *testing.T) {
	data := genText(400, 1)
	if len(data) < 20000 {
		t.Fatalf("generated text of %d bytes: too short to start ranges inside lines", len(data))
	}
	checkTextRanges(t, writeFile(t, "gen.txt", data), []int64{1000, 4000, 5000, 9000, 30000, 1 << 30})
	// Ranges of a line or a few: a shorter text, past 8 KiB still.
	small := genText(40, 2)
	if len(small) < 10000 {
		t.Fatalf("generated text of %d bytes: too short", len(small))
	}
	checkTextRanges(t, writeFile(t, "small.txt", small), []int64{1, 100})
}

func TestRangesTextAngleOverRanges(t *testing.T) {
	// One <...> over 40 KB: the ranges inside it print nothing, the one
	// where it opens reads through them.
	text := "start http://a.example/\n<http://example.com/" + strings.Repeat("seg/\n", 8000) + "end>\nafter http://b.example/\n"
	file := writeFile(t, "wide.txt", []byte(text))
	checkTextRanges(t, file, []int64{100, 500, 4096, 10000})
	rs, err := Ranges(file, strings.NewReader(text), int64(len(text)), DefaultOptions(), 4096)
	if err != nil {
		t.Fatal(err)
	}
	empty := 0
	for _, rg := range rs {
		if rg.Text == nil {
			t.Fatalf("range %+v: not a text range", rg)
		}
		if rg.Text.Count == 0 {
			empty++
		}
	}
	if len(rs) < 8 || empty < len(rs)/2 {
		t.Errorf("%d ranges, %d of them empty: want the <...> read through by one", len(rs), empty)
	}
}

func TestRangesTextNoLineEnd(t *testing.T) {
	// A file without a line end before its last byte is one range, read
	// as Run reads it.
	for _, text := range []string{"http://a.example/ " + strings.Repeat("x", 20000), "http://a.example/\n"} {
		file := writeFile(t, "one.txt", []byte(text))
		rs, err := Ranges(file, strings.NewReader(text), int64(len(text)), DefaultOptions(), 1)
		if err != nil || len(rs) != 1 || rs[0].Text != nil {
			t.Errorf("%.20q: %d ranges (%v), want one", text, len(rs), err)
		}
		checkTextRanges(t, file, []int64{1, 2, 100})
	}
}

func TestRangesTextFormat(t *testing.T) {
	// --format text reads an mbox as text: in ranges as text too. A text
	// that begins like an mbox but is none is one range (its warning is
	// the document reader's).
	data := genMbox(20, 3)
	o := DefaultOptions()
	o.Format = document.Text
	rs, err := Ranges("m", bytes.NewReader(data), int64(len(data)), o, 1000)
	if err != nil || len(rs) < 3 || rs[1].Text == nil {
		t.Errorf("--format text: %d ranges, %v", len(rs), err)
	}
	checkRangesTargets(t, writeFile(t, "m.txt", data), anyRanges, document.Text, []int64{1, 1000, 5000})
	notMbox := []byte("From nobody\n" + strings.Repeat("http://a.example/\n", 100))
	if rs, _ := Ranges("n", bytes.NewReader(notMbox), int64(len(notMbox)), DefaultOptions(), 10); len(rs) != 1 {
		t.Errorf("text that began like an mbox: %d ranges, want one", len(rs))
	}
	checkRangesTargets(t, writeFile(t, "n.txt", notMbox), oneRange, document.Auto, []int64{1, 10})
}

// TestRangesTextDir checks the invariant on the text files of a directory,
// $URIX_RANGES_TEXT (the RFCs of ../shared/realtext, unpacked, say), at
// small targets; it skips when that is not set.
func TestRangesTextDir(t *testing.T) {
	dir := os.Getenv("URIX_RANGES_TEXT")
	if dir == "" {
		t.Skip("URIX_RANGES_TEXT is not set: no directory of real text read in ranges")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	o := DefaultOptions()
	o.Output.Line, o.Output.Column, o.Output.Offset = true, true, true
	o.Warnings = true
	checked := 0
	for _, file := range files {
		if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		wantOut, wantErr, wantStatus := runWhole(file, o)
		for _, target := range []int64{1, 300, 5000} {
			gotOut, gotErr, gotStatus, n := runRanges(t, file, o, target)
			if gotOut != wantOut || gotErr != wantErr || gotStatus != wantStatus {
				t.Errorf("%s, target %d (%d ranges): differs from Run:\n%s", file, target, n, firstDiff(gotOut, wantOut))
			}
		}
		checked++
	}
	t.Logf("%d files", checked)
}

func TestRangesTextReadError(t *testing.T) {
	// A failure of the storage is Ranges' error, and a text range's
	// ReadErr, as for the other formats.
	data := genText(200, 4)
	o := DefaultOptions()
	if _, err := Ranges("t", failingReader{data, int64(len(data)) / 2}, int64(len(data)), o, 5000); err == nil {
		t.Error("Ranges: no error from a failing text file")
	}
	rs, err := Ranges("t", bytes.NewReader(data), int64(len(data)), o, 5000)
	if err != nil || len(rs) < 3 || rs[1].Text == nil {
		t.Fatalf("%d ranges, %v", len(rs), err)
	}
	checkRangeReadErr(t, rs[1], data, o)
}

func TestRangesTextSink(t *testing.T) {
	// A Sink is told of the URIs of each text range as Run tells it of
	// the whole file's, with their origins and messages; the counts add
	// up to Run's.
	o := DefaultOptions()
	o.Extract.MaxLength = 300 // skipped candidates: messages
	checkRangesSink(t, "s.txt", genText(200, 5), o, 3000)
}
