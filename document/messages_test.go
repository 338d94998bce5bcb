package document

import (
	"bytes"
	"compress/gzip"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// readMessages reads r as a caller on several goroutines does: the held
// messages are read after the next ones were given (two Walkers, taken in
// turn), the others at once, in the callback.
func readMessages(t *testing.T, r io.Reader, opts Options, max int) (docs, warns []string, err error) {
	t.Helper()
	opts.Warn = func(w Warning) { warns = append(warns, w.String()) }
	var walkers [2]MessageReader
	var held []*Message
	var heldWarns []string
	for i := range walkers {
		walkers[i].Warn = func(w Warning) { heldWarns = append(heldWarns, w.String()) }
	}
	flush := func() {
		for i, m := range held {
			if err := walkers[i%2].Documents(m, func(d *Document) error {
				docs = append(docs, docLine(d))
				return nil
			}); err != nil {
				t.Fatalf("Documents of a held message: %v", err)
			}
			m.Release()
		}
		held = held[:0]
		warns = append(warns, heldWarns...)
		heldWarns = heldWarns[:0]
	}
	err = NewReader(opts).ReadMessages(r, "in", max, func(m *Message) error {
		if m.Held() {
			held = append(held, m)
			if len(held) == 3 {
				flush()
			}
			return nil
		}
		flush()
		w := &MessageReader{Warn: opts.Warn}
		return w.Documents(m, func(d *Document) error {
			docs = append(docs, docLine(d))
			return nil
		})
	})
	flush()
	return docs, warns, err
}

// ReadMessages, its messages read apart and out of turn, gives the
// documents and warnings Read gives, in every format, compressed or not,
// at every message size limit and read split.
func TestReadMessagesAsRead(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(testMbox + "\n" + testMbox))
	zw.Close()
	inputs := map[string]string{
		"mbox":       testMbox,
		"mbox twice": testMbox + "\n" + testMbox,
		"mbox junk":  "junk first http://example.com/j\n\n" + testMbox + "\nFrom x Mon Jan  1 00:00:00 2024\nContent-Type: text/plain; charset=nonesuch\n\nhttp://example.com/c\n",
		"mbox gzip":  gz.String(),
		"mail":       testMbox[strings.Index(testMbox, "\n")+1:],
		"text":       "plain http://example.com/t\n",
		"warc":       "WARC/1.1\r\n" + warcRecord("1", "http://a.example/", "x http://example.com/w\n")[len("WARC/1.1\r\n"):],
		"empty":      "",
		"warc bad":   warcRecord("1", "http://a.example/", "x http://example.com/w1\n") + "WARC/1.1\r\nContent-Length: zz\r\n\r\n" + warcRecord("2", "http://b.example/", "y http://example.com/w2 "+strings.Repeat("z", 100)+"\n") + "WARC/1.1\r\nbroken\r\n\r\n",
		"warc cut":   warcRecord("1", "http://a.example/", "x http://example.com/w1\n") + strings.TrimSuffix(warcRecord("2", "http://b.example/", "y http://example.com/w2 "+strings.Repeat("q", 60)+"\n"), "q\n\r\n\r\n"),
	}
	for name, in := range inputs {
		want, wantWarns, werr := readAll(t, strings.NewReader(in), Options{})
		if len(want) == 0 && name != "empty" {
			t.Fatalf("%s: no documents", name)
		}
		if name == "warc bad" && len(wantWarns) != 2 || name == "warc cut" && !strings.Contains(strings.Join(want, " "), "read error") {
			t.Fatalf("%s: warnings %q, error %v", name, wantWarns, werr)
		}
		for _, max := range []int{0, 1, 40, 1 << 20} {
			for rname, rd := range map[string]func() io.Reader{
				"whole":   func() io.Reader { return strings.NewReader(in) },
				"OneByte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(in)) },
				"Half":    func() io.Reader { return iotest.HalfReader(strings.NewReader(in)) },
				// A file: an mbox read through a mapping of it.
				"file": func() io.Reader { return tempFile(t, "", in) },
			} {
				got, warns, err := readMessages(t, rd(), Options{}, max)
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(warns, wantWarns) || (err == nil) != (werr == nil) {
					t.Errorf("%s, max %d, %s:\ngot  %q %q %v\nwant %q %q %v", name, max, rname, got, warns, err, want, wantWarns, werr)
				}
			}
		}
	}
}
