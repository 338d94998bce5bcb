package engine

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"
)

// TestTellMessages: the messages of a file's ranges, told together,
// are those Run tells a Sink of for the whole file, in order: the file's
// cap of warnings of one cause (not a range's), the counts past it, the
// error that ends the reading (a truncated gzip member, in the last
// range).
func TestTellMessages(t *testing.T) {
	var members [][]byte
	for _, r := range genWARC(40, 9) {
		members = append(members, gzipMembers([][]byte{r}))
	}
	truncated := append(bytes.Join(members[:30], nil), members[30][:len(members[30])/2]...)
	files := map[string][]byte{"m.mbox": genMbox(200, 4), "t.warc.gz": truncated}
	o := DefaultOptions()
	o.Extract.MaxLength = 300 // the mbox's long URIs: warnings, many of one cause
	o.Stdout, o.Stderr = io.Discard, io.Discard
	for name, data := range files {
		file := writeFile(t, name, data)
		var whole recordingSink
		o.Sink = &whole
		Run([]string{file}, o)
		o.Sink = nil
		rs, err := Ranges(file, bytes.NewReader(data), int64(len(data)), o, 1)
		if err != nil {
			t.Fatal(err)
		}
		var held []RangeMessages
		for _, rg := range rs {
			held = append(held, RunRange(rg, bytes.NewReader(data), o).Messages)
		}
		var told recordingSink
		TellMessages(&told, held)
		if got, want := fmt.Sprintf("%+v", told.msgs), fmt.Sprintf("%+v", whole.msgs); got != want || len(rs) < 20 {
			t.Errorf("%s, %d ranges: told\n%s\nwant\n%s", name, len(rs), got, want)
		}
		// What the file must say for the test to check anything.
		capped := slices.ContainsFunc(whole.msgs, func(m Message) bool { return m.More > 0 })
		failed := slices.ContainsFunc(whole.msgs, func(m Message) bool { return m.Error })
		if !capped || name == "t.warc.gz" && !failed {
			t.Errorf("%s: told %+v: want a cap passed, and an error for the gzip", name, whole.msgs)
		}
	}
}
