package main

import (
	"io"
	"strings"
	"testing"

	"github.com/urix-dev/urix/extract"
)

// markNext counts the lines up to the next chunk's base itself when the
// scanner has not read that far (a file that shrank while it was read).
func TestMarkNextCountsWhatTheScannerDidNotRead(t *testing.T) {
	text := strings.Repeat("ab\ncdefg ", 30000) + "tail without a break " + strings.Repeat("x", 70000)
	for _, to := range []int64{1, 3, 4, 100, 150000, int64(len(text)) - 5} {
		for _, base := range []int64{0, 7} {
			if to <= base {
				continue
			}
			c := &chunkReader{base: base, section: io.NewSectionReader(strings.NewReader(text), base, int64(len(text))-base)}
			c.sc = extract.NewScanner(strings.NewReader(""), extract.Options{})
			c.sc.MarkLine(to - base)
			c.markNext(to)
			seg := text[base:to]
			wantLine := int64(strings.Count(seg, "\n")) + 1
			wantCol := int64(len(seg) - strings.LastIndexByte(seg, '\n'))
			if c.nextLine != wantLine || c.nextColumn != wantCol {
				t.Errorf("base %d, next base %d: line %d, column %d; want %d, %d", base, to, c.nextLine, c.nextColumn, wantLine, wantCol)
			}
		}
	}
}
