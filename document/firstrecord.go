package document

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/urix-dev/urix/document/mail"
)

// An input told WARC or mbox by its first bytes is read so only when its
// first record starts as one does; otherwise it is text that happens to
// begin like one ("WARC/1.0 is a format. See http://..."; "From here on,
// see http://..."), read as text with a warning, as a file that begins
// with a compression's magic bytes but does not decode (behaviour §1.4,
// §9.1; issue 32: such a text printed nothing). Only the first record
// decides, and only what makes it no record at all: a real WARC file or
// mbox whose first record is damaged further in (a bad Content-Length, a
// body cut short), or whose later records are, is read as before.

// notWARC tells whether head, the first bytes of an input that begins
// with "WARC/1.", is no WARC record: why, or "" when it is one. decided is
// false when more input could change the answer (final: there is no more
// input, or head is HeadSize long). A WARC record begins with a version
// line ("WARC/1.0", "WARC/1.1": digits after "WARC/1."), then header
// fields ("Name: value", continuation lines) up to a blank line, one of
// them Content-Length (ISO 28500 5.3: every record has one; it is where
// the block ends). A header longer than HeadSize is taken for one.
func notWARC(head []byte, final bool) (why string, decided bool) {
	rest := head
	lines, hasLength := 0, false
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			switch {
			case !final:
				return "", false
			case len(head) >= HeadSize:
				return "", true // a long header: the WARC reader's to judge
			case lines == 0:
				return fmt.Sprintf("its first line %s is all there is", quoteLine(rest)), true
			}
			return "the input ends in the first record's header", true
		}
		line := bytes.TrimSuffix(rest[:i], []byte("\r"))
		rest = rest[i+1:]
		lines++
		switch {
		case lines == 1:
			v := bytes.TrimRight(line, " \t")[len(warcMagic):]
			if len(v) == 0 || len(bytes.Trim(v, "0123456789")) > 0 {
				return fmt.Sprintf("its first line %s is no WARC version line", quoteLine(line)), true
			}
		case len(line) == 0:
			if !hasLength {
				return "its first record has no Content-Length", true
			}
			return "", true
		case line[0] == ' ' || line[0] == '\t':
			if lines == 2 {
				return fmt.Sprintf("its first record's header begins with a continuation line %s", quoteLine(line)), true
			}
		default:
			colon := bytes.IndexByte(line, ':')
			name := bytes.TrimRight(line[:max(colon, 0)], " \t")
			if colon <= 0 || len(name) == 0 || bytes.ContainsAny(name, " \t") {
				return fmt.Sprintf("its first record's header has a line %s that is no field", quoteLine(line)), true
			}
			hasLength = hasLength || bytes.EqualFold(name, []byte("Content-Length"))
		}
	}
}

// notMbox tells whether head, the first bytes of an input that begins
// with "From ", is no mbox: why, or "" when its first line is an
// envelope line ("From addr date", with a hh:mm time: the one line of an
// mbox that is not a message's). decided as for notWARC.
func notMbox(head []byte, final bool) (why string, decided bool) {
	i := bytes.IndexByte(head, '\n')
	if i < 0 && !final {
		return "", false
	}
	if i < 0 {
		if len(head) >= HeadSize {
			return "", true // a line of 8 KiB: the mbox reader's to judge
		}
		i = len(head)
	}
	line := bytes.TrimSuffix(head[:i], []byte("\r"))
	if mail.EnvelopeLine(line) {
		return "", true
	}
	return fmt.Sprintf("its first line %s is no mbox \"From \" line (no sender and time)", quoteLine(line)), true
}

// quoteLine quotes a line of the input for a warning, cut to 40 bytes.
func quoteLine(line []byte) string {
	const max = 40
	if len(line) > max {
		return strconv.Quote(string(line[:max])) + "..."
	}
	return strconv.Quote(string(line))
}
