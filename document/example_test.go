package document_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

const mbox = `From alice@example.org Mon Jan  1 00:00:00 2024
From: Alice <alice@example.org>
Message-ID: <1@example.org>
List-Archive: <https://lists.example.org/archive/>
Subject: notes

See <https://example.com/a> and
http://example.com/b.

From bob@example.org Mon Jan  1 00:00:01 2024
From: Bob <bob@example.org>
Message-ID: <2@example.org>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

The page is at http://example.com/=
c
`

// Every URI of every message of an mbox, with where it came from.
func ExampleRead() {
	for doc, err := range document.Read(strings.NewReader(mbox), "list.mbox", document.Options{}) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		for m, err := range extract.All(doc.Body, extract.Options{}) {
			if err != nil {
				fmt.Println("error:", err)
				return
			}
			where := "body"
			if doc.Field != "" {
				where = doc.Field
			}
			fmt.Printf("message %d <%s> %s: %s\n", doc.Message, doc.MessageID, where, m.URI)
		}
	}
	// Output:
	// message 1 <1@example.org> List-Archive: https://lists.example.org/archive/
	// message 1 <1@example.org> body: https://example.com/a
	// message 1 <1@example.org> body: http://example.com/b
	// message 2 <2@example.org> body: http://example.com/c
}

// Compressed input is read as it would be uncompressed.
func ExampleReader_Read() {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("see http://example.com/ now\n"))
	zw.Close()

	rd := document.NewReader(document.Options{})
	err := rd.Read(&gz, "notes.txt.gz", func(doc *document.Document) error {
		for m := range extract.All(doc.Body, extract.Options{}) {
			fmt.Println(doc.File, doc.Format, m.URI)
		}
		return nil
	})
	fmt.Println("error:", err)
	// Output:
	// notes.txt.gz text http://example.com/
	// error: <nil>
}
