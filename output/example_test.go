package output_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/output"
)

// The URIs of a text as urix -n -b prints them.
func ExampleWriter() {
	text := "See <http://example.com/a>.\nAlso (https://Example.ORG:443/b).\n"
	w := output.NewWriter(os.Stdout, &output.Options{Line: true, Offset: true})
	w.Reset(os.Stdout, "notes.txt")
	s := extract.NewScanner(strings.NewReader(text), extract.Options{})
	for s.Scan() {
		w.Write(s.Match(), nil)
	}
	w.Flush()
	// Output:
	// 1:5:http://example.com/a
	// 2:34:https://Example.ORG:443/b
}

// A URI of a mail message as urix --json writes it, and read back.
func ExampleAppendJSON() {
	m := extract.NewScanner(strings.NewReader("<http://example.com/some-\n  thing>"), extract.Options{})
	m.Scan()
	from := &document.Origin{Format: document.Mbox, Message: 2, MessageOffset: 812, MessageID: "a@b.example", Part: "1"}
	line := output.AppendJSON(nil, "inbox.mbox", from, m.Match())
	fmt.Println(string(line))

	var r output.Record
	if err := json.Unmarshal(line, &r); err != nil {
		panic(err)
	}
	fmt.Println(r.Mail.Message, r.Mail.Part, r.URI, r.Flags, r.Alt)
	// Output:
	// {"uri":"http://example.com/some-thing","normalized":"http://example.com/some-thing","raw":"http://example.com/some-\n  thing","file":"inbox.mbox","message":2,"message_offset":812,"message_id":"a@b.example","part":"1","source":"body","line":1,"column":2,"offset":1,"end":33,"delimiter":"angle","valid":true,"flags":["rejoined","hyphen_ambiguous"],"alt":"http://example.com/something","host":"example.com","domain":"example.com"}
	// 2 1 http://example.com/some-thing [rejoined hyphen_ambiguous] http://example.com/something
}
