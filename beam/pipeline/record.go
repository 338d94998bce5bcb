package pipeline

import (
	"strconv"
	"unicode/utf8"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// encodeRecord appends the line of one result: the object that
// `urix --json` prints for m found in file, from origin o (behaviour §7,
// §9), the same keys in the same order, the same escaping, without the
// line break. The results must join byte for byte with the CLI's, so this
// is the CLI's encoder (json.go of the main package) copied whole; it
// stands behind this one function so that it is swapped for the shared
// output package's encoder when that is public.
func encodeRecord(b []byte, file string, m *extract.Match, o *document.Origin) []byte {
	b = append(b, `{"uri":`...)
	b = appendString(b, m.URI)
	b = append(b, `,"normalized":`...)
	if m.Valid {
		b = appendString(b, m.Normalized)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"raw":`...)
	b = appendString(b, string(m.Raw))
	b = append(b, `,"file":`...)
	b = appendString(b, file)
	b = appendOrigin(b, o)
	b = appendInt(b, "line", m.Line)
	b = appendInt(b, "column", m.Column)
	b = appendInt(b, "offset", m.Offset)
	b = appendInt(b, "end", m.End)
	b = append(b, `,"delimiter":"`...)
	b = append(b, m.Delimiter.String()...)
	b = append(b, `","valid":`...)
	b = strconv.AppendBool(b, m.Valid)
	if !m.Valid && m.Err != nil {
		b = append(b, `,"reason":`...)
		b = appendString(b, m.Err.Error())
	}
	b = append(b, `,"flags":[`...)
	for i, name := range m.Flags.Names() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"')
	}
	b = append(b, ']')
	if m.Flags&extract.HyphenAmbiguous != 0 {
		b = append(b, `,"alt":`...)
		b = appendString(b, m.Alt)
	}
	return append(b, '}')
}

func appendInt(b []byte, key string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string: UTF-8 kept, controls escaped,
// invalid UTF-8 replaced by U+FFFD (the CLI's escaping, byte for byte).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && jsonPlain[s[j]] {
			j++
		}
		b = append(b, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			// Valid JSON, not valid JavaScript: escaped for the consumers
			// that eval JSON Lines.
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xF])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// jsonPlain marks the bytes that appendString copies as they are: ASCII
// but the control characters, DEL, '"' and '\\'.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendOrigin appends where in a mail or WARC input the text came from,
// as the CLI does (behaviour §9).
func appendOrigin(b []byte, o *document.Origin) []byte {
	switch {
	case o.Message > 0:
		b = appendInt(b, "message", int64(o.Message))
		b = appendInt(b, "message_offset", o.MessageOffset)
		if o.MessageID != "" {
			b = append(b, `,"message_id":`...)
			b = appendString(b, o.MessageID)
		}
		if o.Field != "" {
			b = append(b, `,"field":`...)
			b = appendString(b, o.Field)
		} else {
			b = append(b, `,"part":`...)
			b = appendString(b, o.Part)
		}
		if o.HTML {
			b = append(b, `,"html":true`...)
		}
	case o.Format == document.WARC:
		b = appendInt(b, "record_offset", o.RecordOffset)
		if o.TargetURI != "" {
			b = append(b, `,"warc_target_uri":`...)
			b = appendString(b, o.TargetURI)
		}
		if o.RecordID != "" {
			b = append(b, `,"warc_record_id":`...)
			b = appendString(b, o.RecordID)
		}
	}
	return b
}
