package mail_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/extract"
)

// Each part of a message as a reader sees it: decoded from
// quoted-printable, an HTML part given as its visible text and, one by
// one, its link targets, and the header fields that carry URIs.
func ExampleWalk() {
	msg := "From: a@example.org\n" +
		"Message-ID: <1@example.org>\n" +
		"List-Archive: <https://lists.example.org/>\n" +
		"Content-Type: multipart/alternative; boundary=b\n" +
		"\n" +
		"--b\n" +
		"Content-Type: text/plain\n" +
		"Content-Transfer-Encoding: quoted-printable\n" +
		"\n" +
		"Read http://example.com/a=3Db\n" +
		"--b\n" +
		"Content-Type: text/html;;;\n" +
		"\n" +
		"<p>Read <a href=\"http://example.com/a=b&amp;c\">this</a></p>\n" +
		"--b--\n"
	err := mail.Walk(strings.NewReader(msg), mail.Options{Format: mail.FormatMail}, func(p *mail.Part) error {
		body, err := io.ReadAll(p.Body)
		fmt.Printf("%s part %q field %q attr %q: %q\n", p.Source, p.Path, p.Field, p.Attr, strings.TrimSpace(string(body)))
		return err
	})
	fmt.Println("error:", err)
	// Output:
	// header part "" field "List-Archive" attr "": "<https://lists.example.org/>"
	// body part "1" field "" attr "": "Read http://example.com/a=b"
	// html_text part "2" field "" attr "": "Read"
	// html_attr part "2" field "" attr "href": "http://example.com/a=b&c"
	// html_text part "2" field "" attr "": "this"
	// error: <nil>
}

// An mbox already in memory (a file mapped into memory, for one), cut
// into its messages without a copy of them, each walked apart (as on
// several goroutines) and released; done says when no message holds the
// bytes any more.
func ExampleNewMboxSplitterOf() {
	mbox := []byte("From a@example.org Mon Jan  1 00:00:00 2024\n" +
		"Subject: one\n\nsee http://example.com/1\n\n" +
		"From b@example.org Mon Jan  1 00:00:01 2024\n" +
		"Subject: two\n\n>From the archive: http://example.com/2\n")
	sp := mail.NewMboxSplitterOf(mbox, nil, func() { fmt.Println("done with the bytes") })
	var w mail.PartWalker
	for {
		m, err := sp.Next(nil, 1<<20)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Printf("message %d at %d, in place: %v\n", m.No, m.Offset, m.Shared())
		w.Walk(&m, mail.Options{}, func(p *mail.Part) error {
			body, err := io.ReadAll(p.Body)
			fmt.Printf("  %q\n", strings.TrimSpace(string(body)))
			return err
		})
		m.Release()
	}
	sp.Close()
	// Output:
	// message 1 at 0, in place: true
	//   "see http://example.com/1"
	// message 2 at 84, in place: false
	//   "From the archive: http://example.com/2"
	// done with the bytes
}

// The walker reads, package extract judges: Options.ResolveBase tells the
// walker which base URI the HTML has (here the part's Content-Location),
// and extract.AttrReader reads each value as the recipient's browser
// does, against the base the Part gives.
func ExampleOptions_resolveBase() {
	msg := "Content-Type: text/html\n" +
		"Content-Location: https://news.example.org/2024/05/\n" +
		"\n" +
		"<p>Read <a href=\"issue 12.html\">the issue</a>, <img src=\"//cdn.example.org/logo.png\">\n"
	ar := extract.NewAttrReader(extract.Options{})
	opts := mail.Options{Format: mail.FormatMail, ResolveBase: extract.ResolveBase}
	err := mail.Walk(strings.NewReader(msg), opts, func(p *mail.Part) error {
		if p.Source != mail.SourceHTMLAttr {
			return nil
		}
		if kind, m := ar.Read(p.Value, p.Base); kind == extract.AttrURI {
			fmt.Printf("%s %s=%q: %s\n", p.Tag, p.Attr, p.Value, m.URI)
		}
		return nil
	})
	fmt.Println("error:", err)
	// Output:
	// a href="issue 12.html": https://news.example.org/2024/05/issue%2012.html
	// img src="//cdn.example.org/logo.png": https://cdn.example.org/logo.png
	// error: <nil>
}
