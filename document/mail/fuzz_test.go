package mail

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urix-dev/urix/extract"
)

const fuzzTail = "\n\nFrom tail@example.com Mon Jan  1 00:00:00 2024\nMessage-ID: <fuzz-tail@example.com>\n\nTAIL http://tail.example.com/\n"

// FuzzWalk: no panic on any bytes in any format; the parts do not depend
// on how the input is split into reads (behaviour §1, §9); and a good
// message appended after arbitrary bytes in an mbox is still walked.
func FuzzWalk(f *testing.F) {
	f.Add([]byte(mboxMsg(1) + mboxMsg(2)))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=a\n\n--a\nContent-Type: message/rfc822\n\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nx\n--a--\n"))
	f.Add([]byte("Content-Type: text/html\nContent-Transfer-Encoding: base64\n\nPGEgaHJlZj0iaHR0cDovL3gueS8iPg==\n"))
	f.Add([]byte("Content-Type: text/plain; format=flowed; delsp=yes\nContent-Transfer-Encoding: quoted-printable\n\n> a =\n\n>> b=3\n"))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=never\n\npre http://a.example/ev\nil\n--other\n\nx\n"))
	f.Add([]byte("Content-Type: text/html;;;;\n\n<a href=\"http://a.example/h?x=1&amp;y=2\">h</a><img srcset=\"http://a.example/1,2 1x, http://a.example/\u00a03 2x\">"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []Format{FormatMail, FormatMbox} {
			ref, _ := walk(t, bytes.NewReader(data), format)
			k := 0
			if len(data) > 0 {
				k = int(data[len(data)-1]) * len(data) / 256
			}
			for name, rd := range map[string]io.Reader{
				"OneByte": iotest.OneByteReader(bytes.NewReader(data)),
				"Half":    iotest.HalfReader(bytes.NewReader(data)),
				"split":   io.MultiReader(bytes.NewReader(data[:k]), bytes.NewReader(data[k:])),
			} {
				if got, _ := walk(t, rd, format); !reflect.DeepEqual(got, ref) {
					t.Fatalf("format %v, %s reads: got\n%s\nwant\n%s", format, name, strings.Join(describeAll(got), "\n"), strings.Join(describeAll(ref), "\n"))
				}
			}
		}
		for _, format := range []Format{FormatMail, FormatMbox, FormatNews, FormatText} {
			err := Walk(bytes.NewReader(data), Options{ResolveBase: extract.ResolveBase, Format: format, Warn: func(int, string) {}}, func(p *Part) error {
				_, err := io.Copy(io.Discard, p.Body)
				return err
			})
			if err != nil {
				t.Fatalf("format %v: %v", format, err)
			}
		}
		var last *Part
		var lastText string
		in := append(data[:len(data):len(data)], fuzzTail...)
		err := Walk(bytes.NewReader(in), Options{ResolveBase: extract.ResolveBase, Format: FormatMbox}, func(p *Part) error {
			b, err := io.ReadAll(p.Body)
			cp := *p
			last, lastText = &cp, string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if last == nil || last.MessageID != "fuzz-tail@example.com" || !strings.Contains(lastText, "TAIL http://tail.example.com/") {
			t.Fatalf("tail message lost: %+v %q", last, lastText)
		}
		if want := int64(len(data) + 2); last.MsgOffset != want {
			t.Fatalf("tail offset %d, want %d", last.MsgOffset, want)
		}
	})
}
