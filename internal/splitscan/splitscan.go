// Package splitscan gives split reading (package parallel) the methods of
// an extract.Scanner that only a reader who splits a file between
// scanners needs: reading up to a limit, telling whether a scanner is
// quiet past it, the quote depth of a line, the first line break, the
// line and column of an offset, and a start inside a line. Package extract
// keeps them unexported, so that its API is what a library user needs, and
// hands them out here; being internal, they are not part of the module's
// API.
package splitscan

import "io"

// Scanner is what split reading needs of an extract.Scanner beyond its
// exported methods. Offsets are in the scanner's input.
type Scanner interface {
	// ScanBefore is Scan that also returns false once every URI that
	// starts before offset limit has been delivered, having read only a
	// little past limit (a few URIs past it may come first). Scan, or
	// ScanBefore with a later limit, then goes on exactly as if only Scan
	// had been called.
	ScanBefore(limit int64) bool
	// QuietPast tells, right after ScanBefore(limit) returned false,
	// whether the URIs found from then on depend on nothing before limit
	// but the mail quote depth of the lines from limit on.
	QuietPast(limit int64) bool
	// ResetFrom is Reset for an input that starts inside a line of mail
	// quote depth quoteDepth when midLine, at a line's start otherwise;
	// later Resets keep that start.
	ResetFrom(r io.Reader, midLine bool, quoteDepth int)
	// QuoteDepthAt returns the mail quote depth of the line holding off,
	// which must have been read since the last URI began; -1 if not.
	QuoteDepthAt(off int64) int
	// FirstLineBreak returns the offset of the first LF read so far, -1
	// when none.
	FirstLineBreak() int64
	// MarkLine asks the scanner to note the line and column of off as it
	// counts lines; Marked returns them once it has read that far.
	MarkLine(off int64)
	Marked() (line, column int64, ok bool)
}

// Of returns the Scanner methods of s, an *extract.Scanner. Package
// extract sets it when it is initialized (this package cannot name its
// type: extract imports it).
var Of func(s any) Scanner
