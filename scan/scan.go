package scan

import (
	"io"

	core "github.com/urix-dev/urix/internal/scan"
)

// The scanner's code is in internal/scan, which package extract uses
// whole: its methods for a reader that splits one input between scanners
// (extract.Split) are exported there and not here, so that this
// package's API is what a library user needs (issue 33). The types are
// the same; a Scanner here is a pointer to the scanner there, one call
// away on each method.

// Candidate is one span of text that a reader would take for a URI. Its
// slices alias the scanner's buffers and are valid until the next Scan.
type Candidate = core.Candidate

// Config holds the options of a Scanner. The zero value gives the
// defaults.
type Config = core.Config

// InPlaceReader is an io.Reader whose input is all in memory: a Scanner
// reads it where it lies, without copying (see internal/scan).
type InPlaceReader = core.InPlaceReader

// Kind tells what anchored a candidate.
type Kind = core.Kind

// The kinds of candidates.
const (
	KindScheme = core.KindScheme // "scheme:" (behaviour §2)
	KindWWW    = core.KindWWW    // a bare "www." host (Config.WWW)
	KindEmail  = core.KindEmail  // a bare user@host.tld (Config.Email)
)

// Delim is what delimits a candidate in its context (behaviour §3).
type Delim = core.Delim

// The delimiters.
const (
	DelimNone    = core.DelimNone    // whitespace, start of text, other punctuation
	DelimAngle   = core.DelimAngle   // <...>
	DelimQuote   = core.DelimQuote   // "..."
	DelimBracket = core.DelimBracket // [...]
	DelimBrace   = core.DelimBrace   // {...}
	DelimParen   = core.DelimParen   // (...)
)

// Flags describe how a candidate was read.
type Flags = core.Flags

// The flags of a candidate (see internal/scan for each one's rule).
const (
	Rejoined    = core.Rejoined    // a line break inside it was dropped
	URLPrefix   = core.URLPrefix   // "URL:" stood before it
	HyphenBreak = core.HyphenBreak // a hyphen stood before a dropped line break
	TooLong     = core.TooLong     // longer than Config.MaxLength: no text
	Unusable    = core.Unusable    // holds a character no URI may: taken whole, never cut to another host
	BareBreak   = core.BareBreak   // a bare URI that ends a line and may go on (Joined)
	LocalEscape = core.LocalEscape // an address whose local part needs encoding in mailto:
)

// DefaultMaxLength is the length limit of behaviour §1: 64 KiB.
const DefaultMaxLength = core.DefaultMaxLength

// Scanner reads candidates from an io.Reader; see the package doc.
type Scanner struct{ s *core.Scanner }

// New returns a Scanner reading from r.
func New(r io.Reader, cfg Config) *Scanner { return &Scanner{core.New(r, cfg)} }

// Scan finds the next candidate; it returns false at the end of the input
// or at the first read error (Err).
func (s *Scanner) Scan() bool { return s.s.Scan() }

// Candidate returns the candidate found by the last call to Scan.
func (s *Scanner) Candidate() *Candidate { return s.s.Candidate() }

// Err returns the first read error, or nil at a clean end of input.
func (s *Scanner) Err() error { return s.s.Err() }

// Reset makes s read from r as a new Scanner with the same Config would,
// keeping its buffers: reading many small inputs (the parts of mail
// messages) costs no allocation each.
func (s *Scanner) Reset(r io.Reader) { s.s.Reset(r) }

// BadAt returns the byte offset in s of the first character that can
// never stand in a URI whatever its context (behaviour §4), or -1.
func BadAt(s string) int { return core.BadAt(s) }

// QuoteDepth counts the '>' of the mail quote prefix that line starts
// with (behaviour §3).
func QuoteDepth(line []byte) int { return core.QuoteDepth(line) }
