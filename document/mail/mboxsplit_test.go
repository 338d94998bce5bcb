package mail

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urix-dev/urix/extract"
	"golang.org/x/text/encoding/charmap"
)

// walkSplit reads an mbox as a caller that walks its messages apart does:
// MboxSplitter with messages held up to max bytes, each walked by one
// PartWalker (two, taken in turn, as on two goroutines).
// inPlaceParts counts the parts walkSplit saw given in place (a text
// body held whole and not decoded).
var inPlaceParts int

func walkSplit(t *testing.T, in io.Reader, max int) ([]rec, []string) {
	return walkSplitter(t, NewMboxSplitter(in), max)
}

// walkSplitter is walkSplit with the splitter s, which it closes.
func walkSplitter(t *testing.T, s *MboxSplitter, max int) ([]rec, []string) {
	t.Helper()
	defer s.Close()
	var recs []rec
	var warns []string
	var walkers [2]PartWalker
	var buf []byte
	for i := 0; ; i++ {
		m, err := s.Next(buf, max)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if m.Rest == nil && len(m.Data) > max {
			t.Fatalf("message of %d bytes held, limit %d", len(m.Data), max)
		}
		opts := Options{ResolveBase: extract.ResolveBase, Warn: func(n int, msg string) { warns = append(warns, fmt.Sprintf("%d: %s", n, msg)) }}
		err = walkers[i%2].Walk(&m, opts, func(p *Part) error {
			var inPlace []byte
			if ip, ok := p.Body.(interface{ InPlace() []byte }); ok {
				// A scanner reads these bytes where they lie: they must
				// be what Read gives.
				inPlace = bytes.Clone(ip.InPlace())
				inPlaceParts++
			}
			b, err := io.ReadAll(p.Body)
			if inPlace != nil && !bytes.Equal(inPlace, b) {
				t.Fatalf("part %s: InPlace gives %q, Read %q", p.Path, inPlace, b)
			}
			if err != nil {
				t.Fatalf("reading part: %v", err)
			}
			recs = append(recs, rec{p.MsgNo, p.MsgOffset, p.MessageID, p.Path, p.Field, p.HTML, string(b), p.Source, p.Tag, p.Attr, p.Value, p.Base})
			return nil
		})
		if err != nil {
			t.Fatalf("Walk: %v", err)
		}
		if m.Rest == nil && !m.Shared() {
			buf = m.Data // reused for the next: the walk is over
		}
		m.Release()
	}
	return recs, warns
}

// The messages split apart and walked one by one give what Walk gives
// the whole mbox: the same parts, positions and warnings, whether a
// message is held whole or given as its first bytes and the rest, for
// every read split.
func TestMboxSplitterAsWalk(t *testing.T) {
	var b strings.Builder
	b.WriteString("\n\njunk before the first From http://example.com/junk\n\n")
	for i := 1; i <= 30; i++ {
		b.WriteString(mboxMsg(i))
		if i%7 == 0 {
			b.WriteString("From x@example.com Mon Jan  1 00:00:00 2024\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\nplain http://example.com/p\n--b\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\nPGEgaHJlZj0iaHR0cDovL3gueS8iPmxpbms8L2E+\n--b--\n\n")
		}
	}
	// Headers that a held message's header fast path must leave to the
	// line-by-line reading, with its warnings: a continuation first, a
	// malformed line, a boundary line in a part's header, CRLF, a
	// field longer than a read buffer, 8-bit bytes, a header that ends
	// the message.
	for _, h := range []string{
		" folded first\nSubject: x\n\nbody http://example.com/c1\n",
		"Subject: x\nnot a field http://example.com/m1\n\nbody\n",
		"Subject: x\r\nList-Archive: <http://example.com/crlf>\r\n\r\nbody\r\n",
		"List-Archive: <http://example.com/" + strings.Repeat("l", 70000) + ">\nSubject: x\n\nbody\n",
		"Subject: caf\xe9\nList-Id: <http://example.com/8bit>\n\nbody\n",
		"Content-Type: multipart/mixed; boundary=q\n\n--q\nContent-Type: text/plain\n--q\nX: y\n\nafter http://example.com/q\n--q--\n",
		"Content-Type: multipart/mixed; boundary=q\n\n--q\nList-Id: <http://example.com/in-part>\n--not-q: x\n\npart body\n--q--\n",
		"List-Archive: <http://example.com/no-body>\n",
	} {
		b.WriteString("From h Mon Jan  1 00:00:00 2024\n" + h + "\n")
	}
	b.WriteString("From last Mon Jan  1 00:00:00 2024\n\nno newline at the end http://example.com/end")
	in := b.String()
	ref, refWarns := walkString(t, in, FormatMbox)
	if len(ref) < 35 || len(refWarns) == 0 {
		t.Fatalf("%d parts, warnings %v", len(ref), refWarns)
	}
	inPlaceParts = 0
	for _, max := range []int{0, 1, 17, 100, 1 << 20} {
		done := 0
		for name, sp := range map[string]func() *MboxSplitter{
			"whole":   func() *MboxSplitter { return NewMboxSplitter(strings.NewReader(in)) },
			"OneByte": func() *MboxSplitter { return NewMboxSplitter(iotest.OneByteReader(strings.NewReader(in))) },
			"Half":    func() *MboxSplitter { return NewMboxSplitter(iotest.HalfReader(strings.NewReader(in))) },
			"in memory": func() *MboxSplitter {
				return NewMboxSplitterOf([]byte(in), nil, func() { done++ })
			},
		} {
			got, warns := walkSplitter(t, sp(), max)
			if !reflect.DeepEqual(got, ref) {
				t.Errorf("max %d, %s: got\n%s\nwant\n%s", max, name, strings.Join(describeAll(got), "\n"), strings.Join(describeAll(ref), "\n"))
			}
			if !reflect.DeepEqual(warns, refWarns) {
				t.Errorf("max %d, %s: warnings %q, want %q", max, name, warns, refWarns)
			}
		}
		if done != 1 {
			t.Errorf("max %d, in memory: done called %d times, want once", max, done)
		}
	}
	if inPlaceParts < 30 {
		t.Errorf("%d parts given in place, want the plain bodies of the held messages (30 or more)", inPlaceParts)
	}
}

// A read error ends the splitting after the message it cut short, whose
// text read so far is walked, as Walk gives it.
func TestMboxSplitterReadError(t *testing.T) {
	in := mboxMsg(1) + mboxMsg(2)
	cut := strings.Index(in, "Message 2") + 10
	bad := func() io.Reader {
		return io.MultiReader(strings.NewReader(in[:cut]), iotest.ErrReader(io.ErrUnexpectedEOF))
	}
	var want []string
	werr := Walk(bad(), Options{ResolveBase: extract.ResolveBase, Format: FormatMbox}, func(p *Part) error {
		b, _ := io.ReadAll(p.Body)
		want = append(want, string(b))
		return nil
	})
	s := NewMboxSplitter(bad())
	var w PartWalker
	var texts []string
	var err error
	for {
		var m Message
		m, err = s.Next(nil, 1<<20)
		if err != nil {
			break
		}
		err = w.Walk(&m, Options{ResolveBase: extract.ResolveBase}, func(p *Part) error {
			b, _ := io.ReadAll(p.Body)
			texts = append(texts, string(b))
			return nil
		})
		if err != nil {
			break
		}
	}
	if err != io.ErrUnexpectedEOF || werr != err || !reflect.DeepEqual(texts, want) || !strings.HasPrefix(texts[len(texts)-1], "Message 2") {
		t.Errorf("err %v, texts %q; Walk: %v, %q", err, texts, werr, want)
	}
}

// FuzzMboxSplit: for any bytes, the split walk gives what Walk gives,
// from a stream and from the bytes in memory (NewMboxSplitterOf), whose
// done comes once every message is released.
func FuzzMboxSplit(f *testing.F) {
	f.Add([]byte(mboxMsg(1)+mboxMsg(2)), uint16(40))
	f.Add([]byte("x\n\nFrom a b 00:00\n\n>From x\nFrom y\n"), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		ref, refWarns := walk(t, bytes.NewReader(data), FormatMbox)
		got, warns := walkSplit(t, iotest.HalfReader(bytes.NewReader(data)), int(max))
		if !reflect.DeepEqual(got, ref) || !reflect.DeepEqual(warns, refWarns) {
			t.Fatalf("got\n%s\n%q\nwant\n%s\n%q", strings.Join(describeAll(got), "\n"), warns, strings.Join(describeAll(ref), "\n"), refWarns)
		}
		done := 0
		got, warns = walkSplitter(t, NewMboxSplitterOf(bytes.Clone(data), nil, func() { done++ }), int(max))
		if !reflect.DeepEqual(got, ref) || !reflect.DeepEqual(warns, refWarns) || done != 1 {
			t.Fatalf("in memory (done %d): got\n%s\n%q\nwant\n%s\n%q", done, strings.Join(describeAll(got), "\n"), warns, strings.Join(describeAll(ref), "\n"), refWarns)
		}
	})
}

// One PartWalker walking message after message (a Maildir's files) gives each
// the parts and warnings Walk gives it alone: nothing of one message (its
// ID, a charset's table, an HTML part's state, a broken header) reaches
// the next, in either order.
func TestWalkMessageReused(t *testing.T) {
	msgs := []string{
		"From: a@example.com\nMessage-ID: <one@example.com>\nList-Archive: <http://lists.example.com/one>\n\nplain http://example.com/1\n",
		"From someone@example.com Mon Jan  1 00:00:00 2024\nFrom: b@example.com\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\ncaf=E9 http://example.com/caf=\n=E9\n",
		crlf("From: c@example.com\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\nsee http://example.com/p\n" +
			"--b\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: base64\n\n" +
			base64.StdEncoding.EncodeToString([]byte("<p>x <a href=\"http://example.com/h\">y</a> &lt;http://example.com/t&gt;<br>z</p>")) + "\n--b--\n"),
		"Subject: no end of header http://example.com/never",
		"Newsgroups: comp.lang.go\nFrom: d@example.com\nContent-Type: text/html\n\n<div><a href='http://example.com/unclosed",
		"From: e@example.com\nContent-Type: text/plain; charset=koi8-r\n\n" + encode(t, charmap.KOI8R, "Ссылка: http://пример.рф/\n"),
		"",
	}
	want := make([][]rec, len(msgs))
	wantWarns := make([][]string, len(msgs))
	for i, m := range msgs {
		want[i], wantWarns[i] = walkString(t, m, FormatMail)
	}
	var wk PartWalker
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1, 0}, {2, 4, 2, 1, 3, 2}} {
		for _, i := range order {
			var recs []rec
			var warns []string
			err := wk.WalkMessage(strings.NewReader(msgs[i]), Options{ResolveBase: extract.ResolveBase, Format: FormatMail, Warn: func(n int, msg string) {
				warns = append(warns, fmt.Sprintf("%d: %s", n, msg))
			}}, func(p *Part) error {
				b, err := io.ReadAll(p.Body)
				if err != nil {
					t.Fatal(err)
				}
				recs = append(recs, rec{p.MsgNo, p.MsgOffset, p.MessageID, p.Path, p.Field, p.HTML, string(b), p.Source, p.Tag, p.Attr, p.Value, p.Base})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(recs) != fmt.Sprint(want[i]) || fmt.Sprint(warns) != fmt.Sprint(wantWarns[i]) {
				t.Errorf("message %d after others:\n got %v %v\nwant %v %v", i, recs, warns, want[i], wantWarns[i])
			}
		}
	}
}
