// Package scan finds URI candidates in a stream of bytes, the way RFC 2396
// Appendix E and RFC 3986 Appendix C say a reader should delimit them: by
// angle brackets, double quotes, brackets, braces, parentheses or
// whitespace, with line breaks inside <...> rejoined, mail quote prefixes
// dropped, hyphen breaks flagged and trailing sentence punctuation left out.
// The rules are those of SPEC sections 1 to 4.
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
// as the input needs), for callers that read many small inputs.
//
// # Beyond the letter of SPEC 3
//
// Inside <...>, a character that never stands in a URI even with the
// whitespace dropped ('<', '"', '{', '}', '|', '\', '^', '`') abandons the
// angle context as a blank line does: the '<' was a less-than
// ("0 < http://x = c && c < 32"), not a wrapper.
package scan
