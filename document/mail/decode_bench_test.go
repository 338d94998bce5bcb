package mail

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/quotedprintable"
	"testing"
)

// benchText is about 4 MiB of text like the corpus's (bench/mkmail.sh):
// mostly comment lines of prose from Go source, 40 to 80 bytes, a
// statement with '=' and a URI with '=' one line in ten, one word in a
// hundred with a Latin-1 letter (as UTF-8).
func benchText() []byte {
	r := rand.New(rand.NewPCG(7, 8))
	words := []string{"the", "reader", "of", "mail", "decodes", "a", "part", "when", "its", "header", "says", "so", "and", "buffer", "line", "returns", "error", "nil", "value"}
	var b bytes.Buffer
	for i := 0; b.Len() < 4<<20; i++ {
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, "\t// See https://example.com/doc/%d?q=%s for the %s.\n", i, words[r.IntN(len(words))], words[r.IntN(len(words))])
		case 5:
			fmt.Fprintf(&b, "\t%s := %s(%s, %d)\n", words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))], i)
		case 7:
			b.WriteString("\n")
		default:
			b.WriteString("// ")
			for k := 6 + r.IntN(8); k > 0; k-- {
				b.WriteString(words[r.IntN(len(words))])
				if r.IntN(100) == 0 {
					b.WriteString("é")
				}
				b.WriteByte(' ')
			}
			b.WriteString("end.\n")
		}
	}
	return b.Bytes()
}

// drainDecoder reads r to its end in reads of 32 KiB, as the scanner and
// the HTML tokenizer do.
func drainDecoder(b *testing.B, r io.Reader, buf []byte) {
	for {
		n, err := r.Read(buf)
		sink += n
		if err == io.EOF {
			return
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBase64Decode: benchText in base64 lines of 76 characters and
// LF, as bench/mkmail.sh writes the HTML parts. MB/s are of the input.
func BenchmarkBase64Decode(b *testing.B) {
	raw := base64.StdEncoding.EncodeToString(benchText())
	var in []byte
	for len(raw) > 76 {
		in = append(in, raw[:76]...)
		in = append(in, '\n')
		raw = raw[76:]
	}
	in = append(in, raw...)
	in = append(in, '\n')
	buf := make([]byte, 32<<10)
	d := &b64Reader{}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		d.src, d.out, d.buf, d.acc, d.nacc, d.warned, d.err = bytes.NewReader(in), nil, d.buf[:0], 0, 0, false, nil
		drainDecoder(b, d, buf)
	}
}

// BenchmarkQPDecode: benchText in quoted-printable as mime/quotedprintable
// writes it (CRLF, soft breaks at 76, '=' as =3D).
func BenchmarkQPDecode(b *testing.B) {
	var e bytes.Buffer
	w := quotedprintable.NewWriter(&e)
	w.Write(benchText())
	w.Close()
	in := e.Bytes()
	buf := make([]byte, 32<<10)
	q := &qpReader{}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		q.src, q.out, q.buf, q.ws, q.state, q.err = bytes.NewReader(in), nil, q.buf[:0], q.ws[:0], 0, nil
		drainDecoder(b, q, buf)
	}
}

// BenchmarkCharmapDecode: benchText in ISO-8859-1.
func BenchmarkCharmapDecode(b *testing.B) {
	in := bytes.ReplaceAll(benchText(), []byte("é"), []byte{0xE9})
	w := &walker{}
	c := &charmapReader{t: w.charmapTable("iso-8859-1")}
	buf := make([]byte, 32<<10)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		c.src, c.out, c.buf, c.err = bytes.NewReader(in), nil, c.buf[:0], nil
		drainDecoder(b, c, buf)
	}
}
