package pipeline

import (
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/output"
)

// encodeRecord appends the line of one result: the object that
// `urix --json` prints for m found in file, from origin o (behaviour §7,
// §9), without the line break. The results must join byte for byte with
// the CLI's: it is the CLI's own encoder, package output.
func encodeRecord(b []byte, file string, m *extract.Match, o *document.Origin) []byte {
	return output.AppendJSON(b, file, o, m)
}

// appendString appends s as a JSON string escaped as the results are.
func appendString(b []byte, s string) []byte { return output.AppendString(b, s) }
