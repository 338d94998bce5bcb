package mail

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// parseBlock keeps the known fields and the URI fields, each value
// unfolded (lines trimmed, the empty ones dropped, joined by one space),
// in the shape of a list message's header, with values past the room
// it keeps in place (512 bytes, 12 fields) and names in any case.
func TestParseBlock(t *testing.T) {
	long := strings.Repeat("x", 700)
	var many strings.Builder
	var wantURI []field
	for i := range 15 {
		fmt.Fprintf(&many, "List-Archive: <https://lists.example.org/archive/%d>\n", i)
		wantURI = append(wantURI, field{"List-Archive", fmt.Sprintf("<https://lists.example.org/archive/%d>", i)})
	}
	cases := []struct {
		name, block string
		known       map[int]string
		uri         []field
	}{
		{"list message",
			"Received: from mx0.example.net (mx0.example.net [192.0.2.1])\r\n\tby mail.example.org with ESMTPS id 1\r\n" +
				"From: Reader <reader@example.com>\r\nMessage-ID: <0.1@mail.example.org>\r\n" +
				"List-Unsubscribe: <https://lists.example.org/unsubscribe/x>,\r\n <mailto:x-leave@lists.example.org>\r\n" +
				"list-archive:   <https://lists.example.org/archive/x/0>  \r\n" +
				"content-type: text/plain;\r\n\tcharset=\"utf-8\";\r\n \r\n\tformat=flowed\r\n" +
				"Content-Transfer-Encoding: 8bit\r\n",
			map[int]string{hMessageID: "<0.1@mail.example.org>", hContentType: `text/plain; charset="utf-8"; format=flowed`, hCTE: "8bit"},
			[]field{{"List-Unsubscribe", "<https://lists.example.org/unsubscribe/x>, <mailto:x-leave@lists.example.org>"},
				{"List-Archive", "<https://lists.example.org/archive/x/0>"}}},
		{"no field kept", "From: a@example.com\nSubject: hello\n", nil, nil},
		{"long value", "Content-Location: http://example.com/" + long + "\nArchived-At: <http://example.com/a>\n",
			map[int]string{hContentLocation: "http://example.com/" + long},
			[]field{{"Content-Location", "http://example.com/" + long}, {"Archived-At", "<http://example.com/a>"}}},
		{"many fields", "Content-Type: text/html\n" + many.String(), map[int]string{hContentType: "text/html"}, wantURI},
		{"empty value", "Content-Type:\n \n", map[int]string{}, nil},
	}
	for _, c := range cases {
		var h header
		h.parseBlock([]byte(c.block))
		for i := range nKnown {
			if got, want := h.known[i], c.known[i]; got != want {
				t.Errorf("%s: %s = %q, want %q", c.name, knownNames[i], got, want)
			}
		}
		if !reflect.DeepEqual(h.uri, c.uri) {
			t.Errorf("%s: URI fields %q, want %q", c.name, h.uri, c.uri)
		}
	}
}

// fieldNameByCut is fieldName as it was written before its one pass:
// the ':' by IndexByte, the blanks after the name by TrimRight.
func fieldNameByCut(line []byte) ([]byte, bool) {
	i := bytes.IndexByte(line, ':')
	if i <= 0 || bytes.HasPrefix(line[i+1:], []byte("//")) {
		return nil, false
	}
	name := bytes.TrimRight(line[:i], " \t")
	if len(name) == 0 {
		return nil, false
	}
	for _, c := range name {
		if c < 33 || c > 126 {
			return nil, false
		}
	}
	return name, true
}

// fieldName takes the lines fieldNameByCut takes, with the same name:
// lines made of the pieces that matter (blanks, ':', "//", bytes that
// cannot be in a name), in the shape of header and body lines.
func TestFieldName(t *testing.T) {
	pieces := []string{"Subject", "X-A", " ", "\t", ":", "//", "http", "\x00", "\x7f", "é", "a", "List-Id: <x>", "\r"}
	r := rand.New(rand.NewPCG(9, 3))
	for range 200000 {
		var b []byte
		for range r.IntN(6) {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		gotName, gotOK := fieldName(b)
		wantName, wantOK := fieldNameByCut(b)
		if gotOK != wantOK || !bytes.Equal(gotName, wantName) {
			t.Fatalf("fieldName(%q) = %q, %v; want %q, %v", b, gotName, gotOK, wantName, wantOK)
		}
	}
}

func FuzzFieldName(f *testing.F) {
	for _, s := range []string{"Subject: x", "Subject : x", "Sub ject: x", " Subject: x", "http://example.com/", ": x", "X:", "é: x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		gotName, gotOK := fieldName(b)
		wantName, wantOK := fieldNameByCut(b)
		if gotOK != wantOK || !bytes.Equal(gotName, wantName) {
			t.Fatalf("fieldName(%q) = %q, %v; want %q, %v", b, gotName, gotOK, wantName, wantOK)
		}
	})
}
