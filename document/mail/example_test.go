package mail_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/urix-dev/urix/document/mail"
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
	// html_attr part "2" field "" attr "href": "<http://example.com/a=b&c>"
	// html_text part "2" field "" attr "": "this"
	// error: <nil>
}
