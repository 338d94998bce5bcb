// Benchmarks of the readers of mail and WARC (packages document,
// document/mail, document/warc) over the corpus's mail.mbox and text.wet,
// made by bench/mkmail.sh from text.txt, beside text.txt read as text.
// They skip when URIX_CORPUS is not set or the files are not there.
//
//	URIX_CORPUS=/tmp/urix-corpus go test -bench 'Read|Walk' -benchmem
package bench

import (
	"bytes"
	"io"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/document/warc"
	"github.com/urix-dev/urix/extract"
)

var (
	mboxInput = input{name: "mbox", file: "mail.mbox"}
	wetInput  = input{name: "wet", file: "text.wet"}
	textInput = input{name: "text", file: "text.txt"}
)

// drain reads r to its end through buf, as a scanner would (64 KiB
// reads), and returns the bytes read.
func drain(tb testing.TB, r io.Reader, buf []byte) int {
	n := 0
	for {
		m, err := r.Read(buf)
		n += m
		if err == io.EOF {
			return n
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkRead: document.Reader.Read of the whole input, each document's
// text read to its end and not searched: the reader's own cost. MB/s are
// of the input's bytes.
func BenchmarkRead(b *testing.B) {
	for _, in := range []input{textInput, mboxInput, wetInput} {
		b.Run(in.name, func(b *testing.B) {
			d := load(b, in)
			buf := make([]byte, 64<<10)
			rd := document.NewReader(document.Options{})
			b.SetBytes(int64(len(d)))
			b.ReportAllocs()
			for b.Loop() {
				err := rd.Read(bytes.NewReader(d), in.name, func(doc *document.Document) error {
					sink += drain(b, doc.Body, buf)
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadExtract: the same, each document searched with one reused
// extract.Scanner (what `urix -j 1` does: without line counts, which its
// default output does not show), so the reader's share of the whole can
// be seen.
func BenchmarkReadExtract(b *testing.B) {
	for _, in := range []input{textInput, mboxInput, wetInput} {
		b.Run(in.name, func(b *testing.B) {
			d := load(b, in)
			rd := document.NewReader(document.Options{})
			sc := extract.NewScanner(bytes.NewReader(nil), extract.Options{NoLines: true})
			b.SetBytes(int64(len(d)))
			b.ReportAllocs()
			for b.Loop() {
				err := rd.Read(bytes.NewReader(d), in.name, func(doc *document.Document) error {
					sc.Reset(doc.Body)
					for sc.Scan() {
						sink += len(sc.Match().URI)
					}
					return sc.Err()
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWalkMbox: mail.Walk alone over the mbox, bodies drained.
func BenchmarkWalkMbox(b *testing.B) {
	d := load(b, mboxInput)
	buf := make([]byte, 64<<10)
	b.SetBytes(int64(len(d)))
	b.ReportAllocs()
	for b.Loop() {
		err := mail.Walk(bytes.NewReader(d), mail.Options{Format: mail.FormatMbox, ResolveBase: extract.ResolveBase}, func(p *mail.Part) error {
			sink += drain(b, p.Body, buf)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWalkHTML: the HTML of 400 of the mbox's HTML parts, decoded
// (mail.html, made by bench/mkmail.sh), through mail.Walk as one
// text/html part, each Part's Body read in 32 KiB reads: the mail
// reader's HTML tokenizer and text runs alone, without the base64 under
// them or the search of the text above. MB/s are of the HTML's bytes.
func BenchmarkWalkHTML(b *testing.B) {
	d := load(b, input{name: "html", file: "mail.html"})
	msg := append([]byte("Content-Type: text/html; charset=utf-8\n\n"), d...)
	buf := make([]byte, 32<<10)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		err := mail.Walk(bytes.NewReader(msg), mail.Options{Format: mail.FormatMail, ResolveBase: extract.ResolveBase}, func(p *mail.Part) error {
			sink += drain(b, p.Body, buf)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWalkWARC: warc.Reader alone over the WET file, blocks drained.
func BenchmarkWalkWARC(b *testing.B) {
	d := load(b, wetInput)
	buf := make([]byte, 64<<10)
	b.SetBytes(int64(len(d)))
	b.ReportAllocs()
	for b.Loop() {
		wr := warc.NewReader(bytes.NewReader(d))
		for {
			rec, err := wr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			sink += drain(b, rec.Body, buf)
		}
	}
}

// BenchmarkReadMessagesExtract: what `urix` does with an mbox or a WARC
// file on several workers, on one goroutine: document.Reader.ReadMessages
// cuts the input into messages (held in memory, up to the default
// limit), each walked by a document.MessageReader and its documents searched
// with one reused extract.Scanner. Held messages take paths the streamed
// reading of BenchmarkReadExtract does not (read in place).
func BenchmarkReadMessagesExtract(b *testing.B) {
	for _, in := range []input{mboxInput, wetInput} {
		b.Run(in.name, func(b *testing.B) {
			d := load(b, in)
			rd := document.NewReader(document.Options{})
			sc := extract.NewScanner(bytes.NewReader(nil), extract.Options{NoLines: true})
			var wk document.MessageReader
			scan := func(doc *document.Document) error {
				sc.Reset(doc.Body)
				for sc.Scan() {
					sink += len(sc.Match().URI)
				}
				return sc.Err()
			}
			b.SetBytes(int64(len(d)))
			b.ReportAllocs()
			for b.Loop() {
				err := rd.ReadMessages(bytes.NewReader(d), in.name, 0, func(m *document.Message) error {
					err := wk.Documents(m, scan)
					m.Release()
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
