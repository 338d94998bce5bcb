package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/urix-dev/urix/engine"
	"github.com/urix-dev/urix/output"
)

// An mbox read in ranges, as a pipeline would read them on different
// machines: listed first, then each read apart (here in turn); the
// outputs, in the order of the list, are Run's on the whole file, and
// so are the messages once WriteMessages puts them together.
func ExampleRanges() {
	var mbox strings.Builder
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&mbox, "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: %d\n\nsee http://example.com/%d\n\n", i, i)
	}
	data := []byte(mbox.String())

	o := engine.DefaultOptions()
	o.Output.JSON = true
	ranges, err := engine.Ranges("mail.mbox", bytes.NewReader(data), int64(len(data)), o, 100)
	if err != nil {
		panic(err)
	}
	var out bytes.Buffer
	var msgs []engine.RangeMessages
	for _, rg := range ranges {
		fmt.Printf("bytes %d-%d from message %d\n", rg.Start, rg.End, max(rg.From.Number, 1))
		o.Stdout = &out // on another machine, a file of its own
		res := engine.RunRange(rg, bytes.NewReader(data), o)
		msgs = append(msgs, res.Messages)
	}
	engine.WriteMessages(os.Stderr, msgs)
	dec := json.NewDecoder(&out)
	for {
		var rec output.Record
		if dec.Decode(&rec) != nil {
			break
		}
		fmt.Println(rec.URI, "in message", rec.Message, "at", rec.Mail.Offset)
	}
	// Output:
	// bytes 0-164 from message 1
	// bytes 164-328 from message 3
	// http://example.com/1 in message 1 at 0
	// http://example.com/2 in message 2 at 82
	// http://example.com/3 in message 3 at 164
	// http://example.com/4 in message 4 at 246
}

// A text file read in ranges: cut at line ends, and joined by a scan
// ahead, so that a <...> over the cut is found whole, by the range where
// it starts, with the file's line numbers.
func ExampleRanges_text() {
	text := "see http://example.com/1\nand <http://example.com/\n  wrapped>\nthen http://example.com/3\n"
	o := engine.DefaultOptions()
	o.Output.Line = true
	ranges, err := engine.Ranges("notes.txt", strings.NewReader(text), int64(len(text)), o, 30)
	if err != nil {
		panic(err)
	}
	for i, rg := range ranges {
		fmt.Printf("range %d: bytes %d-%d\n", i+1, rg.Start, rg.End)
		o.Stdout = os.Stdout
		engine.RunRange(rg, strings.NewReader(text), o)
	}
	// Output:
	// range 1: bytes 0-50
	// 1:http://example.com/1
	// 2:http://example.com/wrapped
	// range 2: bytes 50-87
	// 4:http://example.com/3
}
