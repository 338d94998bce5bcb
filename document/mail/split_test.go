package mail

import (
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urix-dev/urix/extract"
)

// Messages whose multipart boundary never appears (issue #17 item 3):
// read as one text body (behaviour §9).
var noBoundaryMsgs = map[string]string{
	"never": "From: a@example.com\nMessage-ID: <nb1@example.com>\nContent-Type: multipart/mixed; boundary=\"never\"\n\n" +
		"This is the preamble http://a.example/pre\n--other\nContent-Type: text/plain\n\n" +
		"http://a.example/ev\nil http://b.example/x\n--never-but-not-quite\n",
	"crlf, nested, inner boundary missing": crlf("Message-ID: <nb2@example.com>\nContent-Type: multipart/mixed; boundary=outer\n\n" +
		"--outer\nContent-Type: multipart/alternative; boundary=inner\n\nhttp://a.example/in\n" +
		"--outer\nContent-Type: text/plain\n\nafter http://a.example/after\n--outer--\n"),
	"no boundary parameter": "Content-Type: multipart/mixed\n\nhttp://a.example/nobd\n--x\n\nhttp://a.example/y\n",
	"html inside":           "Content-Type: multipart/related; boundary=r\n\n--s\nContent-Type: text/html\n\n<a href=\"http://a.example/h\">x</a>\n",
}

// split reading: the same parts, whatever the reads.
func TestNoBoundarySplitIndependent(t *testing.T) {
	for name, msg := range noBoundaryMsgs {
		t.Run(name, func(t *testing.T) {
			ref, warns := walkString(t, msg, FormatMail)
			if len(warns) == 0 {
				t.Errorf("no warning")
			}
			if len(ref) == 0 {
				t.Fatal("nothing given")
			}
			checkSplits(t, msg, FormatMail, ref, true)
			checkFoundInInput(t, msg, ref)
		})
	}
	// What the first one gives: the whole body as text, once.
	ref, _ := walkString(t, noBoundaryMsgs["never"], FormatMail)
	checkParts(t, ref, []string{`1 body: "This is the preamble http://a.example/pre\n--other\nContent-Type: text/plain\n\nhttp://a.example/ev\nil http://b.example/x\n--never-but-not-quite\n"`})
	if got := foundIn(t, ref); !reflect.DeepEqual(got, []string{"http://a.example/pre", "http://a.example/ev", "http://b.example/x"}) {
		t.Errorf("found %q", got)
	}
}

// checkSplits walks msg read in every way of testing/iotest, and, when
// every is set, split in two reads at every byte, and wants ref each time.
func checkSplits(t *testing.T, msg string, f Format, ref []rec, every bool) {
	t.Helper()
	readers := map[string]func() io.Reader{
		"OneByte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(msg)) },
		"Half":    func() io.Reader { return iotest.HalfReader(strings.NewReader(msg)) },
		"DataErr": func() io.Reader { return iotest.DataErrReader(strings.NewReader(msg)) },
	}
	for name, rd := range readers {
		if got, _ := walk(t, rd(), f); !reflect.DeepEqual(got, ref) {
			t.Errorf("%s: got\n%s\nwant\n%s", name, strings.Join(describeAll(got), "\n"), strings.Join(describeAll(ref), "\n"))
		}
	}
	if !every {
		return
	}
	for k := 0; k <= len(msg); k++ {
		rd := io.MultiReader(strings.NewReader(msg[:k]), strings.NewReader(msg[k:]))
		if got, _ := walk(t, rd, f); !reflect.DeepEqual(got, ref) {
			t.Fatalf("split at %d: got\n%s\nwant\n%s", k, strings.Join(describeAll(got), "\n"), strings.Join(describeAll(ref), "\n"))
		}
	}
}

// checkFoundInInput wants every URI the extractor finds in the parts to
// stand in the input (these messages have no transfer encoding, so the
// decoded input is the input; HTML attribute values are taken as given).
func checkFoundInInput(t *testing.T, msg string, recs []rec) {
	t.Helper()
	for _, r := range recs {
		for _, u := range uris(t, r.Text) {
			if !strings.Contains(msg, u) {
				t.Errorf("%s found in %s, not in the input", u, describe(r))
			}
		}
	}
}

// A preamble around maxPreamble bytes, with lines longer and shorter than
// what is left: nothing is glued, nothing lost, whatever the reads.
func TestLongPreambleNotGlued(t *testing.T) {
	for _, extra := range []int{-100, -1, 0, 1, 100, 70000} {
		var b strings.Builder
		b.WriteString("Message-ID: <long@example.com>\nContent-Type: multipart/mixed; boundary=\"zz\"\n\n")
		for i := 0; b.Len() < maxPreamble+extra-200; i++ {
			fmt.Fprintf(&b, "line %d http://a.example/%d\n", i, i)
		}
		// A line longer than what is left of the preamble, then short ones.
		b.WriteString("http://a.example/ev" + strings.Repeat("x", 300) + "\nil http://b.example/short\n")
		for _, tail := range []string{"", "--zz\nContent-Type: text/plain\n\nhttp://a.example/part1\n--zz--\n"} {
			msg := b.String() + tail
			ref, _ := walkString(t, msg, FormatMail)
			checkSplits(t, msg, FormatMail, ref, false)
			for _, k := range []int{1, 4096, maxPreamble - 1, maxPreamble, maxPreamble + 1, maxPreamble + 77, len(msg) - 10} {
				if k > len(msg) {
					continue
				}
				rd := io.MultiReader(strings.NewReader(msg[:k]), strings.NewReader(msg[k:]))
				if got, _ := walk(t, rd, FormatMail); !reflect.DeepEqual(got, ref) {
					t.Errorf("extra %d, split at %d: differs", extra, k)
				}
			}
			checkFoundInInput(t, msg, ref)
			all := ""
			for _, r := range ref {
				all += r.Text
			}
			hdr := strings.Index(msg, "\n\n") + 2
			body := msg[hdr:]
			switch {
			case tail == "":
				// The whole body, as it stands, once.
				if all != body {
					t.Errorf("extra %d: body given as %d bytes, want %d", extra, len(all), len(body))
				}
			case len(body)-len(tail) > maxPreamble:
				// A preamble too long to hold is given, then the part.
				if want := body[:len(body)-len(tail)] + "http://a.example/part1\n"; all != want {
					t.Errorf("extra %d: %d bytes given, want %d", extra, len(all), len(want))
				}
			default:
				// A preamble held and dropped.
				if all != "http://a.example/part1\n" {
					t.Errorf("extra %d: given %q...", extra, all[:min(len(all), 100)])
				}
			}
		}
	}
}

// noBoundaryGen generates a message whose multipart boundary never comes,
// of about size bytes, each line with a URI, and samples the heap.
type noBoundaryGen struct {
	size, lines int
	head        bool
	total       int64
	line        []byte
	maxHeap     uint64
}

func (g *noBoundaryGen) Read(p []byte) (int, error) {
	if !g.head {
		g.head = true
		return copy(p, "Message-ID: <big@example.com>\nContent-Type: multipart/mixed; boundary=\"never-comes\"\n\n"), nil
	}
	if g.total >= int64(g.size) {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && g.total < int64(g.size) {
		if len(g.line) == 0 {
			g.lines++
			if g.lines%20000 == 0 {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				g.maxHeap = max(g.maxHeap, ms.HeapAlloc)
			}
			g.line = fmt.Appendf(g.line[:0], "--not-the-boundary %d http://example.com/n/%d filler filler filler\n", g.lines, g.lines)
		}
		c := copy(p[n:], g.line)
		g.line = g.line[c:]
		n += c
		g.total += int64(c)
	}
	return n, nil
}

// A multipart whose boundary never comes, 50 MB of it, is streamed as
// text: every URI found, memory bounded.
func TestHugeNoBoundaryBounded(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("50 MB: skipped under -short and -race")
	}
	g := &noBoundaryGen{size: 50 << 20}
	found, last := 0, ""
	err := Walk(g, Options{ResolveBase: extract.ResolveBase, Format: FormatMail}, func(p *Part) error {
		s := extract.NewScanner(p.Body, extract.Options{NoLines: true})
		for s.Scan() {
			found++
			last = s.Match().URI
		}
		return s.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	// The last line may be cut off by the size.
	if found < g.lines-1 || found > g.lines {
		t.Errorf("found %d URIs in %d lines", found, g.lines)
	}
	if !strings.HasPrefix(last, "http://example.com/n/") {
		t.Errorf("last %q", last)
	}
	t.Logf("%d bytes, %d lines, max HeapAlloc %d KiB", g.total, g.lines, g.maxHeap>>10)
	if g.maxHeap > 16<<20 {
		t.Errorf("max HeapAlloc %d MiB", g.maxHeap>>20)
	}
}
