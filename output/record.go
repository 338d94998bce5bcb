package output

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// Record is one URI found, as the JSON Lines output writes it (behaviour
// §7, and §9 for where in mail, news and WARC input it came from). A
// program that reads urix --json decodes each line into a Record.
//
// The output is written by AppendJSON, which makes the same bytes as
// encoding/json with SetEscapeHTML(false) does for the Record that
// NewRecord gives, only faster, except that DEL is written \u007f.
type Record struct {
	URI string `json:"uri"`
	// Normalized is the normal form (behaviour §6), null when the URI is
	// invalid.
	Normalized *string `json:"normalized"`
	// Raw is the input from Offset to End, line breaks included.
	Raw string `json:"raw"`
	// File is the file name, "-" for standard input. A name that is not
	// valid UTF-8 has each invalid byte as U+FFFD here, and its bytes in
	// FileBytes (base64 in JSON, as ripgrep's JSON gives a path's
	// {"bytes": ...}), so that the file can be opened again.
	File      string `json:"file"`
	FileBytes []byte `json:"file_bytes,omitempty"`
	// Mail and WARC are set when the text came from a message or a
	// WARC record; their fields are those of the object itself.
	*Mail
	*WARC
	// Source, Tag and Attr say what the text was (behaviour §9), in a
	// message (Mail's) or a WARC record (WARC's): "body" (a text part),
	// "header" (a field's value), "html_text" (the visible text of an
	// HTML part or page), "html_attr" (an attribute value, named by Tag
	// and Attr: a link a reader sees, or one hidden in markup) or
	// "http_header" (a redirect's Location in a WARC response).
	Source string `json:"source,omitempty"`
	Tag    string `json:"tag,omitempty"`  // the element of an html_attr ("a", "img")
	Attr   string `json:"attr,omitempty"` // the attribute of an html_attr ("href", "src")
	// Line and Column (1-based; the column in bytes) and Offset and End
	// (0-based byte offsets) are in the text the URI was found in: the
	// file, or the decoded part or record.
	Line      int64  `json:"line"`
	Column    int64  `json:"column"`
	Offset    int64  `json:"offset"`
	End       int64  `json:"end"`
	Delimiter string `json:"delimiter"`
	Valid     bool   `json:"valid"`
	// Reason says why an invalid URI is invalid.
	Reason string `json:"reason,omitempty"`
	// Flags is never null: an empty list when no flag is set.
	Flags []string `json:"flags"`
	// Alt is the form without the hyphens at line breaks, when Flags
	// holds hyphen_ambiguous; the form joined across the line break, when
	// it holds break_ambiguous.
	Alt string `json:"alt,omitempty"`
	// Link holds what a mail filter asks of the link (behaviour §10;
	// facts.go): host, domain, text, embedded_in.
	Link
}

// Mail says which message of a mail, mbox or news input, and which part
// of it, a URI came from.
type Mail struct {
	Message   int    `json:"message"`        // 1-based number in the input
	Offset    int64  `json:"message_offset"` // of its first byte (an mbox: of its "From " line)
	MessageID string `json:"message_id,omitempty"`
	// Field is the header field the URI stood in; Part the MIME part path
	// ("1", "1.2") of the body it stood in, when not a header field.
	Field string `json:"field,omitempty"`
	Part  string `json:"part,omitempty"`
	HTML  bool   `json:"html,omitempty"` // the part is text/html
}

// WARC says which record of a WARC file a URI came from.
type WARC struct {
	Record    int    `json:"record"` // 1-based number of the record in the file
	Offset    int64  `json:"record_offset"`
	TargetURI string `json:"warc_target_uri,omitempty"`
	RecordID  string `json:"warc_record_id,omitempty"`
}

// isMail tells whether from is a message of a mail, mbox or news input.
func isMail(from *document.Origin) bool { return from != nil && from.Message > 0 }

// isWARC tells whether from is a record of a WARC file.
func isWARC(from *document.Origin) bool {
	return from != nil && from.Message == 0 && from.Format == document.WARC
}

// mailOf is the Mail of a record found at from, nil when from is no
// message.
func mailOf(from *document.Origin) *Mail {
	if !isMail(from) {
		return nil
	}
	ml := &Mail{Message: from.Message, Offset: from.MessageOffset, MessageID: from.MessageID, Field: from.Field, HTML: from.HTML}
	if from.Field == "" {
		ml.Part = from.Part
	}
	return ml
}

// warcOf is the WARC of a record found at from, nil when from is no WARC
// record.
func warcOf(from *document.Origin) *WARC {
	if !isWARC(from) {
		return nil
	}
	return &WARC{Record: from.Record, Offset: from.RecordOffset, TargetURI: from.TargetURI, RecordID: from.RecordID}
}

// NewRecord returns the record of m, found in file at from.
func NewRecord(file string, from *document.Origin, m *extract.Match) Record {
	r := Record{
		URI: m.URI, Raw: string(m.Raw), File: file, FileBytes: nameBytes(file), Mail: mailOf(from), WARC: warcOf(from),
		Line: m.Line, Column: m.Column, Offset: m.Offset, End: m.End,
		Delimiter: m.Delimiter.String(), Valid: m.Valid, Flags: m.Flags.Names(),
	}
	r.Source, r.Tag, r.Attr = markup(from)
	if r.Flags == nil {
		r.Flags = []string{}
	}
	if m.Valid {
		n := m.Normalized
		r.Normalized = &n
	} else if m.Err != nil {
		r.Reason = m.Err.Error()
	}
	if m.Flags&(extract.HyphenAmbiguous|extract.BreakAmbiguous) != 0 {
		r.Alt = m.Alt
	}
	lf := linkFactsOf(from, m)
	r.Flags = lf.addFlags(r.Flags)
	r.Link = lf.record()
	return r
}

// nameBytes is Record.FileBytes of the file name: its bytes when it is
// not valid UTF-8, else nil.
func nameBytes(file string) []byte {
	if utf8.ValidString(file) {
		return nil
	}
	return []byte(file)
}

// AppendJSON appends the JSON object of NewRecord(file, from, m), without
// a line break. It is written by hand: encoding/json's reflection would
// cost more than finding the URI.
func AppendJSON(b []byte, file string, from *document.Origin, m *extract.Match) []byte {
	return appendJSON(b, file, from, m, nil)
}

// appendJSON is AppendJSON; with posAt not nil, line and column are left
// out and *posAt is set to where Options.AppendPosition puts them.
func appendJSON(b []byte, file string, from *document.Origin, m *extract.Match, posAt *int) []byte {
	b = append(b, `{"uri":`...)
	uri := len(b)
	b = appendString(b, m.URI)
	uriEnd := len(b)
	// The normal form and the raw text are most often the URI, or (raw)
	// a tail of it with no escape (the address of "mailto:" + address):
	// their JSON is then copied from the URI's, not made again (every
	// string escaped byte by byte, and Raw made a string, cost a third
	// of the time of each URI written so).
	b = append(b, `,"normalized":`...)
	if !m.Valid {
		b = append(b, "null"...)
	} else if m.Normalized == m.URI {
		b = append(b, b[uri:uriEnd]...)
	} else {
		b = appendString(b, m.Normalized)
	}
	b = append(b, `,"raw":`...)
	switch raw := m.Raw; {
	case string(raw) == m.URI:
		b = append(b, b[uri:uriEnd]...)
	case uriEnd-uri == len(m.URI)+2 && strings.HasSuffix(m.URI, string(raw)) &&
		(len(raw) == 0 || utf8.RuneStart(raw[0])):
		// No escape in the URI's JSON (each makes it longer), and the
		// tail starts a character: its bytes are its JSON.
		b = append(b, '"')
		b = append(b, b[uriEnd-1-len(raw):uriEnd]...)
	default:
		b = appendString(b, string(raw))
	}
	b = append(b, `,"file":`...)
	b = appendString(b, file)
	if !utf8.ValidString(file) {
		b = append(b, `,"file_bytes":"`...)
		b = base64.StdEncoding.AppendEncode(b, []byte(file))
		b = append(b, '"')
	}
	b = appendOrigin(b, from)
	if posAt != nil {
		*posAt = len(b)
	} else {
		b = appendInt(b, "line", m.Line)
		b = appendInt(b, "column", m.Column)
	}
	b = appendInt(b, "offset", m.Offset)
	b = appendInt(b, "end", m.End)
	b = append(b, `,"delimiter":"`...)
	b = append(b, m.Delimiter.String()...)
	b = append(b, `","valid":`...)
	b = strconv.AppendBool(b, m.Valid)
	if !m.Valid && m.Err != nil {
		if reason := m.Err.Error(); reason != "" {
			b = append(b, `,"reason":`...)
			b = appendString(b, reason)
		}
	}
	b = append(b, `,"flags":[`...)
	names := m.Flags.Names()
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"')
	}
	lf := linkFactsOf(from, m)
	b = lf.appendFlags(b, len(names) > 0)
	b = append(b, ']')
	if m.Flags&(extract.HyphenAmbiguous|extract.BreakAmbiguous) != 0 && m.Alt != "" {
		b = append(b, `,"alt":`...)
		b = appendString(b, m.Alt)
	}
	b = lf.appendFields(b)
	return append(b, '}')
}

// appendJSONPosition appends the line and column that AppendJSON left out.
func appendJSONPosition(b []byte, line, column int64) []byte {
	b = appendInt(b, "line", line)
	return appendInt(b, "column", column)
}

// appendOrigin appends the fields of Mail or WARC, as encoding/json puts
// those of the embedded structs, and the markup's.
func appendOrigin(b []byte, from *document.Origin) []byte {
	if isMail(from) {
		b = appendInt(b, "message", int64(from.Message))
		b = appendInt(b, "message_offset", from.MessageOffset)
		b = appendOptional(b, "message_id", from.MessageID)
		b = appendOptional(b, "field", from.Field)
		if from.Field == "" {
			b = appendOptional(b, "part", from.Part)
		}
		if from.HTML {
			b = append(b, `,"html":true`...)
		}
	}
	if isWARC(from) {
		b = appendInt(b, "record", int64(from.Record))
		b = appendInt(b, "record_offset", from.RecordOffset)
		b = appendOptional(b, "warc_target_uri", from.TargetURI)
		b = appendOptional(b, "warc_record_id", from.RecordID)
	}
	source, tag, attr := markup(from)
	b = appendOptional(b, "source", source)
	b = appendOptional(b, "tag", tag)
	return appendOptional(b, "attr", attr)
}

// markup returns the source, tag and attribute of the text at from: of
// every message's (the body's too), and of a WARC record's other than
// its body (revision 5: a response record's page is read as HTML, its
// Location is an http_header).
func markup(from *document.Origin) (source, tag, attr string) {
	switch {
	case isMail(from):
		return from.Source.String(), from.Tag, from.Attr
	case isWARC(from) && from.Source != document.SourceBody:
		return from.Source.String(), from.Tag, from.Attr
	}
	return "", "", ""
}

// appendOptional appends the key and string value v, unless v is empty
// (an omitempty field).
func appendOptional(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

func appendInt(b []byte, key string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendDecimal(b, v)
}

// appendDecimal is strconv.AppendInt(b, v, 10), two digits at a time into
// a buffer on the stack: AppendInt's layers of calls cost as much as the
// digits of the four numbers of each record.
func appendDecimal(b []byte, v int64) []byte {
	if v < 0 {
		return strconv.AppendInt(b, v, 10)
	}
	var buf [20]byte
	i := len(buf)
	u := uint64(v)
	for u >= 100 {
		q := u / 100
		r := u - q*100
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*r], digitPairs[2*r+1]
		u = q
	}
	if u >= 10 {
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*u], digitPairs[2*u+1]
	} else {
		i--
		buf[i] = byte('0' + u)
	}
	return append(b, buf[i:]...)
}

const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, as AppendJSON writes the
// strings of a record: for programs that write other JSON Lines beside the
// results (counts, say) with the same escaping.
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// appendString appends s as a JSON string as encoding/json writes it
// without HTML escaping: UTF-8 kept, controls escaped, invalid UTF-8
// replaced by U+FFFD; and DEL escaped, which encoding/json leaves as is.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		// Most of a URI needs no escape: copy such runs whole.
		j := plainRun(s, i)
		b = append(b, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default: // the other controls and DEL
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			// Valid JSON, but not valid JavaScript: escaped for the
			// consumers that eval JSON Lines (as encoding/json does).
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xF])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// plainRun returns the end of the run of jsonPlain bytes of s from i,
// eight bytes at a time while all of them are: a look at each byte cost
// a tenth of the time of writing a short URI's record.
func plainRun(s string, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// The high bit of a byte is set, in each term, for some byte
		// below 0x20; from 0x7F up; '"'; '\' (a byte of x that is
		// zero in y gives a set high bit in (y - ones) &^ y).
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		stop := (x-ones*0x20)&^x | (x + ones) | x | (quote-ones)&^quote | (backslash-ones)&^backslash
		if stop&highs != 0 {
			break
		}
	}
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	return i
}

// jsonPlain marks the bytes that appendString copies as they are: ASCII
// but the control characters, DEL, '"' and '\\'.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
