package document_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"sync"

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
func ExampleAll() {
	for doc, err := range document.All(strings.NewReader(mbox), "list.mbox", document.Options{}) {
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

// The messages of an mbox read on two goroutines, their URIs put back in
// the order of the messages: a held message is read by a worker, after
// ReadMessages has moved on; one too long to hold would be read at once.
func ExampleReader_ReadMessages() {
	type result struct {
		no   int
		uris []string
	}
	jobs := make(chan *document.Message)
	results := make(chan result)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w document.MessageReader // one per goroutine
			for m := range jobs {
				var uris []string
				w.Documents(m, func(doc *document.Document) error {
					for u := range extract.All(doc.Body, extract.Options{}) {
						uris = append(uris, u.URI)
					}
					return nil
				})
				results <- result{m.Origin.Message, uris}
				m.Release()
			}
		}()
	}
	go func() {
		document.NewReader(document.Options{}).ReadMessages(strings.NewReader(mbox), "list.mbox", 0, func(m *document.Message) error {
			if !m.Held() {
				return fmt.Errorf("message %d: too long for this example", m.Origin.Message)
			}
			jobs <- m
			return nil
		})
		close(jobs)
		wg.Wait()
		close(results)
	}()
	byNo := map[int][]string{}
	for r := range results {
		byNo[r.no] = r.uris
	}
	for no := 1; no <= len(byNo); no++ {
		fmt.Println(no, byNo[no])
	}
	// Output:
	// 1 [https://lists.example.org/archive/ https://example.com/a http://example.com/b]
	// 2 [http://example.com/c]
}

// A WARC file gzipped a member a record, as crawlers write them, read from
// an input that can also be read at offsets (here in memory; an
// io.SectionReader of an *os.File alike): with Workers, the members of a
// large file are decoded on several goroutines ahead of the reading, and
// the records are the same.
func ExampleOptions_workers() {
	var crawl bytes.Buffer
	z := gzip.NewWriter(&crawl)
	for i, target := range []string{"", "http://example.com/", "http://example.org/news"} {
		z.Reset(&crawl)
		block := fmt.Sprintf("page %d links to https://example.net/%d\r\n", i, i)
		typ := "conversion"
		if target == "" {
			typ, block = "warcinfo", "software: example\r\n"
		}
		fmt.Fprintf(z, "WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", typ, target, len(block), block)
		z.Close()
	}
	opts := document.Options{Workers: 4}
	for doc, err := range document.All(bytes.NewReader(crawl.Bytes()), "crawl.warc.gz", opts) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		for m, err := range extract.All(doc.Body, extract.Options{}) {
			if err != nil {
				fmt.Println("error:", err)
				return
			}
			fmt.Printf("record %d (%s): %s\n", doc.Record, doc.TargetURI, m.URI)
		}
	}
	// Output:
	// record 2 (http://example.com/): https://example.net/1
	// record 3 (http://example.org/news): https://example.net/2
}
