package mail

import (
	"bytes"
)

// typicalFields are header fields whose presence makes a header block mail
// (or news) rather than text that happens to begin with "Word: ".
var typicalFields = map[string]bool{
	"from": true, "to": true, "cc": true, "subject": true, "date": true,
	"message-id": true, "received": true, "return-path": true,
	"mime-version": true, "content-type": true, "delivered-to": true,
	"reply-to": true, "sender": true, "in-reply-to": true, "references": true,
	"newsgroups": true, "path": true, "x-mailer": true, "user-agent": true,
	"dkim-signature": true, "arc-seal": true, "authentication-results": true,
	"list-id": true, "xref": true, "nntp-posting-host": true, "lines": true,
	"content-transfer-encoding": true, "x-original-to": true, "envelope-to": true,
}

// Detect sniffs the first bytes of an input: an mbox ("From " line first)
// gives FormatMbox; an RFC 5322 header block (a first line "Name: value"
// with a valid field name, every following line up to the blank line or
// the end of prefix a field or a continuation, and at least one typical
// field such as From, Subject, Date, Message-ID, Received, Newsgroups or
// Path) gives FormatMail (news articles read like mail); anything else
// gives FormatText. A prefix of a few KiB is enough.
func Detect(prefix []byte) Format {
	if bytes.HasPrefix(prefix, []byte("From ")) {
		return FormatMbox
	}
	rest := prefix
	known := 0
	fields := 0
	for len(rest) > 0 {
		line := rest
		complete := false
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
			complete = true
		} else {
			rest = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			if complete {
				break // end of the header block
			}
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if fields == 0 {
				return FormatText
			}
			continue
		}
		name, ok := fieldName(line)
		if !ok {
			if !complete && fields > 0 {
				break // cut off by the end of prefix
			}
			return FormatText
		}
		fields++
		// Lower-cased on the stack, and only until one is known: a
		// string and its lower case for every field of every file were
		// 4 % of the CPU time of -r over a Maildir.
		if known == 0 && len(name) <= 64 {
			var lower [64]byte
			for i, c := range name {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				lower[i] = c
			}
			if typicalFields[string(lower[:len(name)])] {
				known++
			}
		}
	}
	if fields > 0 && known > 0 {
		return FormatMail
	}
	return FormatText
}

// fieldName returns the field name of a header line "Name: value" (RFC 5322
// 2.2: printable ASCII but ':'; blanks before the ':' are tolerated).
// DetectEarly tells what Detect would say of any longer prefix, when the
// beginning of the input already decides it: an mbox "From " line, or a
// complete line at which Detect stops (a blank line, one that is no header
// field). It lets a reader of a slow stream (tail -f | urix) decide
// without waiting for more input, and decide as Detect on a longer prefix
// would.
func DetectEarly(prefix []byte) (Format, bool) {
	if len(prefix) >= 5 && bytes.HasPrefix(prefix, []byte("From ")) {
		return FormatMbox, true
	}
	fields := 0
	for rest := prefix; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return FormatText, false
		}
		line := bytes.TrimSuffix(rest[:i], []byte("\r"))
		rest = rest[i+1:]
		cont := len(line) > 0 && (line[0] == ' ' || line[0] == '\t')
		_, isField := fieldName(line)
		if len(line) == 0 || cont && fields == 0 || !cont && !isField {
			// Detect stops at this line: what it says now, it says of
			// any longer prefix.
			return Detect(prefix[:len(prefix)-len(rest)]), true
		}
		if !cont {
			fields++
		}
	}
}

// fieldName returns the name of the header field line starts with (bytes
// of printable ASCII, blanks after them, then ':'), and whether it does.
func fieldName(line []byte) ([]byte, bool) {
	n, _, ok := fieldNameColon(line)
	if !ok {
		return nil, false
	}
	return line[:n], true
}

// fieldNameColon is fieldName that gives the name's length n (without
// the blanks after it) and the index of the ':'.
func fieldNameColon(line []byte) (n, colon int, ok bool) {
	// One pass to the ':': bytes.IndexByte, then bytes.TrimRight (whose
	// cutset is made at each call) and a loop over the name were a
	// quarter of the time of a header.
	i := 0
	for ; i < len(line); i++ {
		c := line[i]
		if c == ':' {
			break
		}
		if c == ' ' || c == '\t' {
			continue
		}
		if c < 33 || c > 126 || n < i {
			return 0, 0, false // a byte that cannot be in a name, or a blank inside it
		}
		n = i + 1
	}
	if i == len(line) || n == 0 {
		return 0, 0, false
	}
	if bytes.HasPrefix(line[i+1:], []byte("//")) {
		// "http://example.com/": a URI, not a field "http" (no field of
		// mail or news has a value that starts with "//").
		return 0, 0, false
	}
	return n, i, true
}
