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
	return output.AppendJSON(b, file, outputOrigin(o), m)
}

// outputOrigin is what the output tells of where a document came from,
// as the CLI maps it.
func outputOrigin(o *document.Origin) output.Origin {
	switch {
	case o.Message > 0:
		m := &output.Mail{Message: o.Message, Offset: o.MessageOffset, MessageID: o.MessageID, Field: o.Field, HTML: o.HTML,
			Source: o.Source.String(), Tag: o.Tag, Attr: o.Attr}
		if o.Field == "" {
			m.Part = o.Part
		}
		return output.Origin{Mail: m, Text: o.Text}
	case o.Format == document.WARC:
		w := &output.WARC{Record: o.Record, Offset: o.RecordOffset, TargetURI: o.TargetURI, RecordID: o.RecordID}
		if o.Source != document.SourceBody {
			w.Source, w.Tag, w.Attr = o.Source.String(), o.Tag, o.Attr
		}
		return output.Origin{WARC: w}
	}
	return output.Origin{}
}

// appendString appends s as a JSON string escaped as the results are.
func appendString(b []byte, s string) []byte { return output.AppendString(b, s) }
