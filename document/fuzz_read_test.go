package document

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urix-dev/urix/extract"
)

// readAndExtract reads data through r (whole when r is nil) in format f
// and returns, for each document, its origin and the URIs found in it, and
// the warnings, as lines; and the error that ended the reading. Bodies are
// bounded: a tiny compressed input may expand a lot.
func readAndExtract(data []byte, f Format, wrap func(io.Reader) io.Reader) (out []string, err error) {
	var r io.Reader = bytes.NewReader(data)
	if wrap != nil {
		r = wrap(r)
	}
	opts := Options{Format: f, Warn: func(w Warning) { out = append(out, "warning "+w.String()) }}
	err = NewReader(opts).Read(r, "in", func(d *Document) error {
		out = append(out, docURIs(d))
		return nil
	})
	return out, err
}

// docURIs is a document's origin and the URIs found in it, as a line.
func docURIs(d *Document) string {
	line := fmt.Sprintf("doc %+v value %q:", d.Origin, d.Value)
	for m, err := range extract.All(io.LimitReader(d.Body, 4<<20), extract.Options{}) {
		if err != nil {
			line += " error " + err.Error()
			break
		}
		line += fmt.Sprintf(" %s@%d:%d", m.URI, m.Line, m.Column)
	}
	return line
}

// readByMessages is readAndExtract as a reader on several goroutines reads:
// ReadMessages, messages held up to max bytes, each held one read after
// the next is given (by two Walkers in turn), the others at once.
func readByMessages(data []byte, f Format, max int) (out []string, err error) {
	opts := Options{Format: f, Warn: func(w Warning) { out = append(out, "warning "+w.String()) }}
	var walkers [2]MessageReader
	var held *Message
	var heldOut []string
	for i := range walkers {
		walkers[i].Warn = func(w Warning) { heldOut = append(heldOut, "warning "+w.String()) }
	}
	n := 0
	flush := func() error {
		if held == nil {
			return nil
		}
		err := walkers[n%2].Documents(held, func(d *Document) error {
			heldOut = append(heldOut, docURIs(d))
			return nil
		})
		n++
		held.Release()
		held = nil
		out = append(out, heldOut...)
		heldOut = heldOut[:0]
		return err
	}
	err = NewReader(opts).ReadMessages(bytes.NewReader(data), "in", max, func(m *Message) error {
		if err := flush(); err != nil {
			return err
		}
		if m.Held() {
			held = m
			return nil
		}
		w := &MessageReader{Warn: opts.Warn}
		return w.Documents(m, func(d *Document) error {
			out = append(out, docURIs(d))
			return nil
		})
	})
	if ferr := flush(); err == nil {
		err = ferr
	}
	return out, err
}

// FuzzRead reads arbitrary bytes end to end, as the CLI does: compression
// undone, the format told or forced, the documents of mail, news, WARC or
// text, and the URIs of each. Nothing panics, and the documents, their
// URIs, the warnings and the error do not depend on how the input is split
// into reads (behaviour §1), nor on whether the messages of an mbox are
// read one after the other or apart (ReadMessages).
func FuzzRead(f *testing.F) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	for _, seed := range []string{testMbox, testWARC, "see <http://example.com/a\n  b> and http://example.org/.\n",
		"From: a@example.org\nContent-Type: multipart/alternative; boundary=x\n\n--x\nContent-Type: text/html\n\n<a href=\"http://e.example/a&nbsp;b\">x</a>\n--x--\n",
		"From: a@example.org\nContent-Type: multipart/mixed; boundary=never\n\nhttp://a.example/\n"} {
		for _, fm := range []Format{Auto, Text, Mbox, WARC} {
			f.Add([]byte(seed), uint8(fm), uint16(len(seed)/2), false)
		}
		f.Add(gz(seed), uint8(Auto), uint16(7), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, fm uint8, split uint16, compress bool) {
		if len(data) > 64<<10 {
			return
		}
		if compress {
			data = gz(string(data))
		}
		format := Format(fm % uint8(len(formatNames)))
		whole, werr := readAndExtract(data, format, nil)
		k := int(split) % (len(data) + 1)
		splits := map[string]func(io.Reader) io.Reader{
			"one byte": iotest.OneByteReader,
			"halves":   iotest.HalfReader,
			fmt.Sprintf("split at %d", k): func(r io.Reader) io.Reader {
				return io.MultiReader(io.LimitReader(r, int64(k)), r)
			},
		}
		for name, wrap := range splits {
			got, err := readAndExtract(data, format, wrap)
			if strings.Join(got, "\n") != strings.Join(whole, "\n") || fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Fatalf("read %s:\n%s\nerr %v\nwhole:\n%s\nerr %v", name, strings.Join(got, "\n"), err, strings.Join(whole, "\n"), werr)
			}
		}
		// Read by messages, some held and some not: the same.
		got, err := readByMessages(data, format, 1+k)
		if strings.Join(got, "\n") != strings.Join(whole, "\n") || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("read by messages of up to %d bytes:\n%s\nerr %v\nwhole:\n%s\nerr %v", 1+k, strings.Join(got, "\n"), err, strings.Join(whole, "\n"), werr)
		}
	})
}
