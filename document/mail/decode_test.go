package mail

import (
	"bytes"
	"encoding/base64"
	"io"
	"math/rand/v2"
	"mime/quotedprintable"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/encoding/charmap"

	"github.com/emersion/go-message/charset"
	"github.com/urix-dev/urix/extract"
)

// qpByteByByte decodes in with the byte-at-a-time state machine alone:
// the reference the line-at-a-time decoding must match.
func qpByteByByte(in []byte) []byte {
	q := &qpReader{}
	for _, c := range in {
		q.byte(c)
	}
	q.flush()
	return q.out
}

// b64ByteByByte decodes in with the lenient byte loop alone.
func b64ByteByByte(in []byte) []byte {
	b := &b64Reader{}
	b.slow(in)
	if b.nacc == 1 {
		b.bad()
	}
	b.pad()
	return b.out
}

// readers gives src read whole, a byte at a time, in halves, and cut at
// a random point of each read.
func readers(src []byte, r *rand.Rand) map[string]io.Reader {
	return map[string]io.Reader{
		"whole":   bytes.NewReader(src),
		"OneByte": iotest.OneByteReader(bytes.NewReader(src)),
		"Half":    iotest.HalfReader(bytes.NewReader(src)),
		"random":  &randomReader{src: src, r: r},
	}
}

type randomReader struct {
	src []byte
	r   *rand.Rand
}

func (rr *randomReader) Read(p []byte) (int, error) {
	if len(rr.src) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 1+rr.r.IntN(len(rr.src)))], rr.src)
	rr.src = rr.src[n:]
	return n, nil
}

// Quoted-printable decoded a line at a time gives what the byte machine
// gives, for the cases it hands over to it and for random text made of
// the bytes that matter, whatever the reads.
func TestQPLinesAsBytes(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain line\n", "plain line\n"},
		{"caf=C3=A9 http://example.com/a=3Db\n", "café http://example.com/a=b\n"},
		{"soft=\nbreak\n", "softbreak\n"},
		{"soft= \t\nbreak\n", "softbreak\n"},
		{"soft=\r\nbreak\r\n", "softbreak\n"},
		{"trailing   \t\nx\n", "trailing\nx\n"},
		{"=\r x\n", "= x\n"}, // '=' CR then a blank: the byte machine's reading
		{"a=  b\n", "a=b\n"}, // '=' then blanks mid-line
		{"bad =G1 =4 \n", "bad =G1 =4\n"},
		{"=4\n", "=4\n"},
		{"end =", "end ="},
		{"blanks \t", "blanks"},
		{strings.Repeat(" ", 5000) + "x\n", strings.Repeat(" ", 5000) + "x\n"},
		// Blanks past 4096 held are given, the rest dropped as trailing.
		{"x" + strings.Repeat(" ", 5000) + "\n", "x" + strings.Repeat(" ", 4097) + "\n"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		want := string(qpByteByByte([]byte(c.in)))
		if want != c.want {
			t.Errorf("byte machine on %q: %q, want %q", c.in, want, c.want)
		}
		for name, rd := range readers([]byte(c.in), r) {
			got, err := io.ReadAll(&qpReader{src: rd})
			if err != nil || string(got) != want {
				t.Errorf("%s %.40q: got %.60q (%v), want %.60q", name, c.in, got, err, want)
			}
		}
	}
	alphabet := []byte("=== \t\r\n\nAf09gZ.")
	for range 3000 {
		in := make([]byte, r.IntN(120))
		for i := range in {
			in[i] = alphabet[r.IntN(len(alphabet))]
		}
		want := qpByteByByte(in)
		for name, rd := range readers(in, r) {
			got, _ := io.ReadAll(&qpReader{src: rd})
			if !bytes.Equal(got, want) {
				t.Fatalf("%s %q: got %q, want %q", name, in, got, want)
			}
		}
	}
}

// Base64 decoded by encoding/base64 a block of lines at a time gives what
// the lenient byte loop gives, valid or not, whatever the reads.
func TestBase64BlocksAsBytes(t *testing.T) {
	valid := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("http://example.com/x café ", 20)))
	var lines strings.Builder
	for i := 0; i < len(valid); i += 76 {
		lines.WriteString(valid[i:min(i+76, len(valid))] + "\n")
	}
	cases := []string{
		lines.String(),
		strings.ReplaceAll(lines.String(), "\n", "\r\n"),
		"aHR0cDovL2V4YW1wbGUuY29tLw==\naHR0cDovL2V4YW1wbGUuY29tLw==\n", // two padded blocks
		"aHR0cDovL2V4YW1wbGUuY29tLw\n",                                 // no padding
		"aHR0c DovL2V4 YW1wbGUuY29tLw==\n",                             // blanks
		"aHR0c*DovL2V4!YW1wbGUuY29tLw==\n",                             // bytes outside the alphabet
		"aHR0cDovL2V4YW1wbGUuY29tL-_\n",                                // base64url
		"a\n",
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		want := b64ByteByByte([]byte(c))
		for name, rd := range readers([]byte(c), r) {
			got, _ := io.ReadAll(&b64Reader{src: rd})
			if !bytes.Equal(got, want) {
				t.Errorf("%s %.40q: got %q, want %q", name, c, got, want)
			}
		}
	}
	alphabet := []byte("QUJDRA==\n\n\r -_*ab09+/")
	for range 3000 {
		in := make([]byte, r.IntN(120))
		for i := range in {
			in[i] = alphabet[r.IntN(len(alphabet))]
		}
		want := b64ByteByByte(in)
		for name, rd := range readers(in, r) {
			got, _ := io.ReadAll(&b64Reader{src: rd})
			if !bytes.Equal(got, want) {
				t.Fatalf("%s %q: got %q, want %q", name, in, got, want)
			}
		}
	}
}

// A single-byte charset decoded through its table gives what
// go-message's charset.Reader gives, for every byte, whatever the reads.
func TestCharmapAsCharsetReader(t *testing.T) {
	all := make([]byte, 0, 3*256)
	for i := range 256 {
		all = append(all, 'a', byte(i), byte(255-i))
	}
	r := rand.New(rand.NewPCG(5, 6))
	w := &walker{}
	for _, cs := range []string{"iso-8859-1", "latin1", "windows-1252", "iso-8859-15", "koi8-r", "windows-1251", "ibm437"} {
		tab := w.charmapTable(cs)
		if tab == nil {
			t.Errorf("%s: no table", cs)
			continue
		}
		cr, err := charset.Reader(cs, bytes.NewReader(all))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := io.ReadAll(cr)
		for name, rd := range readers(all, r) {
			got, _ := io.ReadAll(&charmapReader{src: rd, t: tab})
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s: got %q, want %q", cs, name, got, want)
			}
		}
	}
	for _, cs := range []string{"utf-16", "shift_jis", "gb2312", "no-such-charset", "ansi_x3.110-1983"} {
		if w.charmapTable(cs) != nil {
			t.Errorf("%s: a single-byte table", cs)
		}
	}
}

// b64Warned decodes in through a b64Reader reading rd and tells whether
// it warned.
func b64Decode(rd io.Reader) ([]byte, bool) {
	warned := false
	got, _ := io.ReadAll(&b64Reader{src: rd, warn: func(string) { warned = true }})
	return got, warned
}

// b64Lines gives data in base64, in lines of n characters ended by eol.
func b64Lines(data []byte, n int, eol string) []byte {
	raw := base64.StdEncoding.EncodeToString(data)
	var b []byte
	for len(raw) > n {
		b = append(b, raw[:n]...)
		b = append(b, eol...)
		raw = raw[n:]
	}
	return append(append(b, raw...), eol...)
}

// Base64 decoded a run of whole quanta at a time gives the byte loop's
// bytes and warning on lines of every length and end, and on lines
// spoilt at every place, read cut at every place.
func TestBase64RunsAsBytes(t *testing.T) {
	data := []byte("http://example.com/x café, and more text: ")
	var inputs [][]byte
	for _, n := range []int{4, 8, 12, 16, 20, 60, 64, 72, 76, 77, 100} {
		for _, eol := range []string{"\n", "\r\n", " \n", "\n\n", ""} {
			inputs = append(inputs, b64Lines(data, n, eol))
		}
	}
	inputs = append(inputs, spoiled(b64Lines(data, 16, "\n"), "=*\r -_")...)
	for _, in := range inputs {
		want := b64ByteByByte(in)
		b := &b64Reader{}
		b.warn = func(string) {}
		b.slow(in)
		wantWarned := b.warned || b.nacc == 1
		for k := 0; k <= len(in); k++ {
			got, warned := b64Decode(io.MultiReader(bytes.NewReader(in[:k]), bytes.NewReader(in[k:])))
			if !bytes.Equal(got, want) || warned != wantWarned {
				t.Fatalf("%q cut at %d: got %q (warned %v), want %q (%v)", in, k, got, warned, want, wantWarned)
			}
		}
		got, warned := b64Decode(iotest.OneByteReader(bytes.NewReader(in)))
		if !bytes.Equal(got, want) || warned != wantWarned {
			t.Fatalf("%q a byte at a time: got %q (warned %v), want %q (%v)", in, got, warned, want, wantWarned)
		}
	}
}

// FuzzBase64: the b64Reader gives the byte loop's bytes and warning on
// any input, however it is read.
func FuzzBase64(f *testing.F) {
	f.Add(b64Lines([]byte("http://example.com/x café"), 76, "\n"), uint16(10))
	f.Add(b64Lines([]byte("http://example.com/x café, and more text"), 16, "\r\n"), uint16(3))
	f.Add([]byte("QUJD\nQQ==\nQUJD*QUJD\n QUJDQUJD\tQUJD-_\n"), uint16(7))
	f.Fuzz(func(t *testing.T, in []byte, cut uint16) {
		want := b64ByteByByte(in)
		b := &b64Reader{}
		b.warn = func(string) {}
		b.slow(in)
		wantWarned := b.warned || b.nacc == 1
		for name, rd := range splitReaders(in, cut) {
			got, warned := b64Decode(rd)
			if !bytes.Equal(got, want) || warned != wantWarned {
				t.Fatalf("%s: got %q (warned %v), want %q (%v)", name, got, warned, want, wantWarned)
			}
		}
	})
}

// asciiPrefix finds a byte of 0x80 or more at every place, whatever the
// length around it.
func TestASCIIPrefix(t *testing.T) {
	for n := range 100 {
		b := bytes.Repeat([]byte{'a'}, n)
		if got := asciiPrefix(b); got != n {
			t.Fatalf("%d ASCII bytes: %d", n, got)
		}
		for i := range n {
			for _, c := range []byte{0x80, 0xE9, 0xFF} {
				b[i] = c
				if got := asciiPrefix(b); got != i {
					t.Fatalf("%#x at %d of %d: %d", c, i, n, got)
				}
				b[i] = 'a'
			}
		}
	}
}

// Quoted-printable gives the byte machine's bytes on lines as
// mime/quotedprintable writes them and on lines spoilt at every place,
// read cut at every place.
func TestQPRunsAsBytes(t *testing.T) {
	clean := []byte("caf=C3=A9 http://example.com/a=3Db  \r\nsoft=\r\nbreak=20\t\r\n\r\nend =\n")
	inputs := append([][]byte{clean}, spoiled(clean, "= \t\r\nAg")...)
	for _, in := range inputs {
		want := qpByteByByte(in)
		for k := 0; k <= len(in); k++ {
			got, _ := io.ReadAll(&qpReader{src: io.MultiReader(bytes.NewReader(in[:k]), bytes.NewReader(in[k:]))})
			if !bytes.Equal(got, want) {
				t.Fatalf("%q cut at %d: got %q, want %q", in, k, got, want)
			}
		}
	}
}

// Long runs of lines between two '=' (qpReader.fast's runs of copies),
// with blanks and CRs before LFs here and there, starting at any of 16
// offsets, against the byte machine.
func TestQPLongRunsAsBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 45))
	ends := []string{"\n", "\n", "\n", " \n", "\t\n", "\r\n", "  \r\n", "=\n", "=20\n", " =20 \n"}
	for range 300 {
		var b []byte
		for range 1 + r.IntN(40) {
			b = append(b, bytes.Repeat([]byte("x"), r.IntN(90))...)
			if r.IntN(4) == 0 {
				b = append(b, ' ')
			}
			b = append(b, ends[r.IntN(len(ends))]...)
		}
		b = b[r.IntN(min(16, len(b))):]
		want := qpByteByByte(b)
		for _, k := range []int{0, len(b) / 3, len(b) - 1} {
			got, _ := io.ReadAll(&qpReader{src: io.MultiReader(bytes.NewReader(b[:k]), bytes.NewReader(b[k:]))})
			if !bytes.Equal(got, want) {
				t.Fatalf("%q cut at %d: got %q, want %q", b, k, got, want)
			}
			// Read into buffers of every kind of size: those with room
			// for a whole decode are written in place (qpReader.Read).
			for _, size := range readSizes {
				got := readSized(&qpReader{src: io.MultiReader(bytes.NewReader(b[:k]), bytes.NewReader(b[k:]))}, size)
				if !bytes.Equal(got, want) {
					t.Fatalf("%q cut at %d, read %d at a time: got %q, want %q", b, k, size, got, want)
				}
			}
		}
	}
}

// FuzzQP: the qpReader gives the byte machine's bytes on any input,
// however it is read.
func FuzzQP(f *testing.F) {
	f.Add([]byte("caf=C3=A9 http://example.com/a=3Db  \r\nsoft=\r\nbreak\n"), uint16(10))
	f.Add([]byte("=\r x\na=  b\nbad =G1 =4 \n=4\nend ="), uint16(3))
	f.Add([]byte("a line of text that is longer than sixteen bytes \nand another one, with a blank at its end \t\r\nthird line\nfourth=20 \n"), uint16(40))
	f.Fuzz(func(t *testing.T, in []byte, cut uint16) {
		want := qpByteByByte(in)
		for name, rd := range splitReaders(in, cut) {
			got, _ := io.ReadAll(&qpReader{src: rd})
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: got %q, want %q", name, got, want)
			}
		}
		for _, size := range readSizes {
			if got := readSized(&qpReader{src: bytes.NewReader(in)}, size); !bytes.Equal(got, want) {
				t.Fatalf("read %d at a time: got %q, want %q", size, got, want)
			}
		}
	})
}

// readSizes are the sizes of buffer readSized reads with: less than a
// line, about one, and more than any input of the tests.
var readSizes = []int{1, 3, 17, 100, 1000, 64 << 10}

// readSized reads all of r into buffers of size bytes, and checks that
// Read writes nothing past them (into their capacity): all of p is
// Read's scratch space (io.Reader), nothing more.
func readSized(r io.Reader, size int) []byte {
	var all []byte
	buf := make([]byte, size+8)
	for {
		for i := range buf {
			buf[i] = 0xAA
		}
		n, err := r.Read(buf[:size])
		for _, c := range buf[size:] {
			if c != 0xAA {
				panic("Read wrote past len(p)")
			}
		}
		all = append(all, buf[:n]...)
		if err != nil {
			return all
		}
	}
}

// splitReaders reads in whole, cut in two at cut (modulo its length), a
// byte at a time and in halves: a decoder gives the same at every one.
func splitReaders(in []byte, cut uint16) map[string]io.Reader {
	k := int(cut) % (len(in) + 1)
	return map[string]io.Reader{
		"whole":   bytes.NewReader(in),
		"cut":     io.MultiReader(bytes.NewReader(in[:k]), bytes.NewReader(in[k:])),
		"OneByte": iotest.OneByteReader(bytes.NewReader(in)),
		"Half":    iotest.HalfReader(bytes.NewReader(in)),
	}
}

// spoiled returns clean with each of its bytes, one at a time, replaced
// by each byte of with.
func spoiled(clean []byte, with string) [][]byte {
	var out [][]byte
	for i := range clean {
		for _, c := range []byte(with) {
			in := bytes.Clone(clean)
			in[i] = c
			out = append(out, in)
		}
	}
	return out
}

// Base64 and quoted-printable parts, read by the walk from a stream and
// from a message held whole (the decoders then take the body in place, and
// decode into the reader's buffer when it has room): the byte loops'
// bytes, whatever the size of the reads, and nothing written past them.
func TestPartsReadSized(t *testing.T) {
	text := []byte(strings.Repeat("see http://example.com/café and more text, ", 200))
	bad := b64Lines(text, 76, "\r\n")
	bad[100], bad[2000] = '*', '-'
	var qp bytes.Buffer
	w := quotedprintable.NewWriter(&qp)
	w.Write(bytes.ReplaceAll(text, []byte(", "), []byte(",  \t\n")))
	w.Close()
	qpCRLF := bytes.ReplaceAll(qp.Bytes(), []byte("\n"), []byte("\r\n"))
	blanks := []byte("a line with blanks held" + strings.Repeat(" ", 3000) + "\nand after them" + strings.Repeat("\t", 3000))
	latin1 := bytes.Repeat([]byte("caf\xe9 \xe0 http://example.com/\xfc and more text,\n"), 300)
	cases := []struct {
		cte  string
		body []byte
	}{
		{"8bit", latin1},
		{"quoted-printable", []byte(strings.Repeat("caf=E9 =E0 http://example.com/=FC and more text,=\n", 300))},
		{"base64", b64Lines(latin1, 76, "\r\n")},
		{"base64", b64Lines(text, 76, "\n")},
		{"base64", b64Lines(text, 76, "\r\n")},
		{"base64", b64Lines(text, 64, "\n")},
		{"base64", bad},
		{"base64", b64Lines(text[:1000], 76, "\n")[:500]}, // cut mid-line, mid-quantum
		{"quoted-printable", qp.Bytes()},
		{"quoted-printable", qpCRLF},
		{"quoted-printable", blanks},
		{"quoted-printable", []byte("=C3=A9=\r\n=3D=\nsoft =20\t \r\n=\r")},
	}
	for i, c := range cases {
		// The first cases are ISO-8859-1 (the charset decoder over the
		// body in place, or over a decoder).
		cs := "utf-8"
		if i < 3 {
			cs = "iso-8859-1"
		}
		decoded := func(body []byte) []byte {
			var b []byte
			switch c.cte {
			case "base64":
				b = b64ByteByByte(body)
			case "quoted-printable":
				b = qpByteByByte(body)
			default:
				b = body
			}
			if cs != "utf-8" {
				b, _ = charmap.ISO8859_1.NewDecoder().Bytes(b)
			}
			return b
		}
		msgs := map[string]string{
			"single": "Content-Type: text/plain; charset=" + cs + "\nContent-Transfer-Encoding: " + c.cte + "\n\n" + string(c.body),
			"multipart": "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain; charset=" + cs + "\n" +
				"Content-Transfer-Encoding: " + c.cte + "\n\n" + string(c.body) + "\n--b\nContent-Type: text/plain\n\nafter\n--b--\n",
		}
		for name, msg := range msgs {
			wantHere := decoded(c.body)
			if name == "multipart" && c.cte != "base64" {
				// The body reader gives the line break before the
				// delimiter line with the body.
				wantHere = decoded(append(c.body[:len(c.body):len(c.body)], '\n'))
			}
			for _, size := range readSizes {
				read := func(p *Part) error {
					if p.Source == SourceHeader || p.Body == nil {
						return nil
					}
					got := readSized(p.Body, size)
					if bytes.Equal(got, []byte("after\n")) || bytes.Equal(got, []byte("after")) {
						return nil
					}
					if !bytes.Equal(got, wantHere) {
						t.Fatalf("case %d (%s), %s, reads of %d: got %d bytes %.40q, want %d %.40q", i, c.cte, name, size, len(got), got, len(wantHere), wantHere)
					}
					return nil
				}
				if err := Walk(strings.NewReader(msg), Options{ResolveBase: extract.ResolveBase, Format: FormatMail}, read); err != nil {
					t.Fatal(err)
				}
				var wk PartWalker
				if err := wk.Walk(&Message{No: 1, Data: []byte(msg)}, Options{ResolveBase: extract.ResolveBase}, read); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
