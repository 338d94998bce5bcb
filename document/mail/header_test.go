package mail

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/textproto"
	"reflect"
	"strings"
	"testing"

	"github.com/urix-dev/urix/extract"
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
		{"no field kept", "From: a@example.com\nDate: today\n", nil, nil},
		{"Subject kept (revision 5)", "From: a@example.com\nSubject: hello\n", nil, []field{{"Subject", "hello"}}},
		{"long value", "Content-Location: http://example.com/" + long + "\nArchived-At: <http://example.com/a>\n",
			map[int]string{hContentLocation: "http://example.com/" + long},
			[]field{{"Content-Location", "http://example.com/" + long}, {"Archived-At", "<http://example.com/a>"}}},
		{"many fields", "Content-Type: text/html\n" + many.String(), map[int]string{hContentType: "text/html"}, wantURI},
		{"empty value", "Content-Type:\n \n", map[int]string{}, nil},
	}
	for _, c := range cases {
		var h header
		h.parseBlock([]byte(c.block), new(valueArena))
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

// heldHeaderThenBlock is how readHeader read a held header before
// parseHeld: the lines checked in one pass (heldHeader), the block up to
// the blank line parsed in a second (parseBlock).
func heldHeaderThenBlock(data []byte, inMultipart bool) (h header, end int, ok bool) {
	keyAt := 0 // where the field being read starts (a longer field is readHeader's to cut)
	for off := 0; off <= maxHeaderBytes; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 || i >= bufSize {
			return h, 0, false
		}
		line := bytes.TrimSuffix(data[off:off+i], []byte("\r"))
		switch {
		case len(line) == 0:
			h.eightBit = asciiPrefix(data[:off]) < off
			h.parseBlock(data[:off], new(valueArena))
			return h, off + i + 1, true
		case line[0] == ' ' || line[0] == '\t':
			if off == 0 || off+i+1-keyAt > maxFieldBytes {
				return h, 0, false
			}
		case inMultipart && bytes.HasPrefix(line, []byte("--")):
			return h, 0, false
		default:
			if _, ok := fieldName(line); !ok {
				return h, 0, false
			}
			keyAt = off
		}
		off += i + 1
	}
	return h, 0, false
}

// parseHeld takes the headers heldHeaderThenBlock takes, with the same
// values and the same body start: the cases of TestParseBlock as held
// headers, then with a body, a boundary, a bad line or no blank line.
func TestParseHeld(t *testing.T) {
	for _, in := range parseHeldInputs() {
		for _, multipart := range []bool{false, true} {
			checkParseHeld(t, []byte(in), multipart)
		}
	}
}

func parseHeldInputs() []string {
	heads := []string{
		benchHeader[:strings.Index(benchHeader, "\n\n")+1],
		"Received: from mx0.example.net\r\n\tby mail.example.org with ESMTPS id 1\r\n" +
			"List-Unsubscribe: <https://lists.example.org/unsubscribe/x>,\r\n <mailto:x-leave@lists.example.org>\r\n" +
			"list-archive:   <https://lists.example.org/archive/x/0>  \r\n" +
			"content-type: text/plain;\r\n\tcharset=\"utf-8\";\r\n \r\n\tformat=flowed\r\n",
		"Content-Location: http://example.com/" + strings.Repeat("x", 700) + "\nArchived-At: <http://example.com/a>\n",
		"Content-Type:\n \n",
		"Subject: caf\xc3\xa9\nLink: <https://example.org/>; rel=\"self\"\n",
		"From : a@example.com\nX-Url  :\thttp://example.org/x\n",
	}
	var ins []string
	for _, h := range heads {
		ins = append(ins, h+"\nbody\n", h+"\r\n", h, h+"--b\n\nbody\n",
			h+"http://example.com/ is not a field\n\nbody\n", " cont\n"+h+"\n",
			h+"Bad Name: x\n\n", h+strings.Repeat("y", bufSize)+"\n\n",
			h+"X-Long: x\n"+strings.Repeat(" folded\n", maxFieldBytes/8)+"\n")
	}
	return ins
}

func checkParseHeld(t *testing.T, data []byte, multipart bool) {
	t.Helper()
	want, wantEnd, wantOK := heldHeaderThenBlock(data, multipart)
	var got header
	end, ok := got.parseHeld(data, multipart, &testArena)
	if ok != wantOK || end != wantEnd {
		t.Fatalf("parseHeld(%q, %v) = %d, %v; want %d, %v", data, multipart, end, ok, wantEnd, wantOK)
	}
	if !ok {
		want = header{} // parseHeld leaves h as it was
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseHeld(%q, %v): %+v, want %+v", data, multipart, got, want)
	}
}

// testArena is the arena of checkParseHeld's headers: one for all, as a
// walker's, so that the fuzzer meets its chunks' ends.
var testArena valueArena

// The values a valueArena gave stay as they were while it gives more:
// a header's strings kept (as a Message-ID is, by the caller of Walk)
// and its field list appended to up to its room, then 20,000 headers of
// all sizes parsed through the same arena.
func TestValueArenaKeeps(t *testing.T) {
	var a valueArena
	var kept []header
	var want [][]string
	snapshot := func(h header) []string { // copies of the bytes
		var s []string
		for _, v := range h.known {
			s = append(s, strings.Clone(v))
		}
		for _, f := range h.uri {
			s = append(s, strings.Clone(f.key), strings.Clone(f.value))
		}
		return s
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		var b strings.Builder
		fmt.Fprintf(&b, "Message-ID: <%d.%s@example.org>\n", i, strings.Repeat("m", rng.IntN(100)))
		for j := range rng.IntN(20) {
			fmt.Fprintf(&b, "List-Archive: <https://example.org/%d/%d/%s>\n", i, j, strings.Repeat("a", rng.IntN(300)))
		}
		if rng.IntN(50) == 0 {
			fmt.Fprintf(&b, "Content-Location: https://example.org/%d/%s\n", i, strings.Repeat("l", 5000))
		}
		b.WriteString("\nbody\n")
		var h header
		if _, ok := h.parseHeld([]byte(b.String()), false, &a); !ok {
			t.Fatalf("header %d not parsed", i)
		}
		if i%7 == 0 {
			kept, want = append(kept, h), append(want, snapshot(h))
		}
	}
	for i, h := range kept {
		if got := snapshot(h); !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("header %d: values now %q, were %q", i*7, got, want[i])
		}
		if cap(h.uri) != len(h.uri) {
			t.Fatalf("header %d: URI fields with room for %d more: another header's may be written there", i*7, cap(h.uri)-len(h.uri))
		}
	}
}

func FuzzParseHeld(f *testing.F) {
	for _, in := range parseHeldInputs() {
		f.Add([]byte(in), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, multipart bool) {
		checkParseHeld(t, data, multipart)
	})
}

// A URI field whose value is not UTF-8 (8-bit bytes as they stand, or a
// word that decodes to them) is warned of; one of an all-ASCII header,
// or whose words decode to UTF-8, is not. The value is given either way.
func TestFieldNotUTF8(t *testing.T) {
	for _, c := range []struct {
		name, header string
		warn         bool
	}{
		{"ascii", "List-Archive: <https://example.org/a>\n", false},
		{"utf-8 word", "List-Archive: =?utf-8?q?caf=C3=A9?= <https://example.org/a>\n", false},
		{"latin-1 word", "List-Archive: =?iso-8859-1?q?caf=E9?= <https://example.org/a>\n", false},
		{"raw latin-1", "List-Archive: caf\xe9 <https://example.org/a>\n", true},
		{"raw utf-8", "List-Archive: caf\xc3\xa9 <https://example.org/a>\n", false},
		{"raw latin-1 elsewhere", "From: caf\xe9\nList-Archive: <https://example.org/a>\n", false},
	} {
		var warns []string
		var got string
		err := Walk(strings.NewReader(c.header+"\nbody\n"), Options{ResolveBase: extract.ResolveBase, Format: FormatMail, Warn: func(_ int, m string) {
			if strings.Contains(m, "not UTF-8") {
				warns = append(warns, m)
			}
		}}, func(p *Part) error {
			if p.Field == "List-Archive" {
				b, err := io.ReadAll(p.Body)
				got = string(b)
				return err
			}
			return nil
		})
		if err != nil || !strings.Contains(got, "https://example.org/a") {
			t.Fatalf("%s: field %q, %v", c.name, got, err)
		}
		if (len(warns) > 0) != c.warn {
			t.Errorf("%s: warnings %q, want one: %v", c.name, warns, c.warn)
		}
	}
}

// fieldKindByFold is fieldKind as keepField and uriFieldName were written
// before it: bytes.EqualFold against each name.
func fieldKindByFold(key []byte) (known int, uriKey string, isURI bool) {
	known = -1
	for j, name := range knownNames {
		if bytes.EqualFold(key, []byte(name)) {
			known = j
		}
	}
	if len(key) >= 5 && bytes.EqualFold(key[:5], []byte("List-")) {
		for _, name := range listFields {
			if bytes.EqualFold(key, []byte(name)) {
				return known, name, true
			}
		}
		k := textproto.CanonicalMIMEHeaderKey(string(key))
		return known, k, strings.HasPrefix(k, "List-")
	}
	for _, name := range uriFields {
		if bytes.EqualFold(key, []byte(name)) {
			return known, name, true
		}
	}
	return known, "", false
}

// TestFieldKind: the switch on the lower-case name against EqualFold with
// every name, for the names read and near misses, in several cases.
func TestFieldKind(t *testing.T) {
	names := []string{"Received", "From", "To", "Subject", "Date", "MIME-Version", "Return-Path",
		"List-", "List-Ids", "List-Foo", "List-Unsubscribe-Post", "List-" + strings.Repeat("x", 40),
		"Lists-Id", "Content-Typ", "Content-Types", "Message-ID", "X-Url2", "Organisation",
		"Content-Type\x7f", "X_URL", "x-ur[", "LIST-ID", "content-@ase"}
	for _, l := range [][]string{uriFields, listFields, knownNames[:]} {
		names = append(names, l...)
	}
	// Each name of the tables with one byte replaced by each byte of
	// printable ASCII: only the other case of a letter may match.
	for _, l := range [][]string{uriFields, listFields, knownNames[:]} {
		for _, name := range l {
			for i := range name {
				for c := byte(33); c <= 126; c++ {
					names = append(names, name[:i]+string(c)+name[i+1:])
				}
			}
		}
	}
	for _, name := range names {
		for _, key := range []string{name, strings.ToLower(name), strings.ToUpper(name), strings.ToLower(name[:1]) + name[1:]} {
			k1, u1, ok1 := fieldKind([]byte(key))
			k2, u2, ok2 := fieldKindByFold([]byte(key))
			if k1 != k2 || u1 != u2 || ok1 != ok2 {
				t.Errorf("%q: fieldKind (%d, %q, %v), by EqualFold (%d, %q, %v)", key, k1, u1, ok1, k2, u2, ok2)
			}
		}
	}
}
