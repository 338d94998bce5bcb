// Package scan finds URI candidates in a stream of bytes, the way RFC 2396
// Appendix E and RFC 3986 Appendix C say a reader should delimit them: by
// angle brackets, double quotes, brackets, braces, parentheses or
// whitespace, with line breaks inside <...> rejoined, mail quote prefixes
// dropped, hyphen breaks flagged and trailing sentence punctuation left out.
// The rules are those of doc/behaviour.md, sections 1 to 4. Inside <...> a break
// between a scheme's ':' and its "//", or inside a scheme whose joined
// name is registered, is rejoined (the RFC series wraps so), and so is an
// RFC 8792 fold ('\' at the end of a line); line numbers count LF, CRLF
// and a CR alone (behaviour §3).
//
// The scanner knows nothing of validation: a candidate is a span of text
// that a reader would take for a URI. Package extract validates and
// normalizes candidates through package uri.
//
// # Use
//
// The legal call sequence is that of bufio.Scanner:
//
//	s := scan.New(r, scan.Config{})
//	for s.Scan() {
//		c := s.Candidate() // valid until the next call to Scan
//		...
//	}
//	if err := s.Err(); err != nil { ... }
//
// Scan returns false at the end of the input or on the first read error,
// which Err then reports (it is sticky: every later Scan returns false).
// The candidates found before the error are all delivered first.
//
// # Streaming
//
// The scanner reads through a buffer of fixed size (about twice
// Config.MaxLength) that slides over the input, so memory does not grow
// with the input, whatever its line lengths. It does not look at every
// byte: it jumps from anchor to anchor (a ':' for schemes, and '@' or
// "www." when asked) with bytes.IndexByte and looks back a bounded
// distance for the scheme and the delimiter before it. A candidate longer
// than MaxLength is not kept: it is delivered with the TooLong flag and no
// text, so the caller can report it, and scanning goes on after it.
//
// Results do not depend on how the input is split into reads. Reset reads
// a new input with the buffers kept (the buffer starts at 8 KiB and grows
// as the input needs), for callers that read many small inputs. An input
// already in memory, given as an InPlaceReader, is scanned where it lies,
// without a copy into the buffer (a mail message held whole).
//
// # Wrappers and less-than signs
//
// Inside <...> and "..." the candidate is the whole text up to the closer
// (behaviour §3): a character that cannot be in a URI ('"', '{', '}', '|',
// '\', '^', '`'; '<' and '>' too inside "...") makes the whole candidate
// invalid, for package extract to report with its position; it is never
// cut to a valid prefix (<https://launchpad.net/\~user>,
// "https://x/css?family=Roboto|Open+Sans").
//
// A '<' is not always a wrapper, though; it may be a less-than. Beyond the
// letter of behaviour §3, the angle context is abandoned, as at a blank
// line, and the text after the '<' read as if whitespace-delimited, when
// such a character shows the '<' was no wrapper: a second '<' before the
// '>' ("0 < http://x = c && c < 32 >"), such a character at the start of a
// word ("Name < http://x {name}@host>"), or a line break between such a
// character and the '>' ("if (0 < http://x/|y)", no '>' on its line). The
// closer must still come before a blank line. Inside "...", the escape of
// a string literal ('\n', '\"', '\u', ...) ends the URI: the quotes are a
// program's or a JSON document's ("https://go.dev/issue/new\n").
//
// Between a scheme's ':' and its "//" only a line break wraps, and the
// "//" must be followed by its authority: "a < b:" + newline + "// c > d"
// is code, not a wrapped URI.
package scan
