// Package extract finds the URIs in plain text and tells, for each, where
// it stood, how it was delimited, whether it is valid, and its normal form.
//
// It joins package scan, which finds candidates in a stream the way RFC
// 2396 Appendix E and RFC 3986 Appendix C say a reader should, and package
// uri, which validates and normalizes them by RFC 3986 and RFC 3987. The
// behaviour is that of doc/behaviour.md, sections 1 to 7.
//
// Two ways to read, the same results:
//
//	s := extract.NewScanner(r, extract.Options{})
//	for s.Scan() {
//		m := s.Match()
//		fmt.Println(m.URI)
//	}
//	if err := s.Err(); err != nil { ... }
//
//	for m, err := range extract.All(r, extract.Options{}) {
//		if err != nil { ... }
//		fmt.Println(m.URI)
//	}
//
// Memory is bounded by Options.MaxLength, not by the input: a 5 GB line is
// read through a buffer of about twice that length.
//
// One large file is read on several goroutines at once by Split
// (split.go), with the output one Scanner reading it in order gives. What
// only it needs of a Scanner (reading up to an offset, telling where two
// scanners may be joined, starting inside a line) is not exported.
package extract

import (
	"encoding/binary"
	"fmt"
	"io"
	"iter"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/urix-dev/urix/internal/scan"
	"github.com/urix-dev/urix/uri"
	"golang.org/x/text/transform"
	"golang.org/x/text/width"
)

// HyphenMode says what to do with a hyphen right before a line break inside
// a URI (behaviour §3): the hyphen may or may not belong to it.
type HyphenMode uint8

const (
	HyphenKeep HyphenMode = iota // report the URI with the hyphens (the default)
	HyphenDrop                   // report it without them
	HyphenBoth                   // report both: with the hyphens first, then without
)

// BareBreakMode says what to do with a bare URI that runs to a line end
// after one of / ? & = # . when the whole next line may go on with it
// (behaviour §3.8): the URI may or may not go on there.
type BareBreakMode uint8

const (
	BareBreakKeep BareBreakMode = iota // report the URI as it stands on its first line (the default)
	BareBreakJoin                      // report it joined with the next line
	BareBreakBoth                      // report both: the first line's form first, then the joined one
)

// ParseHyphenMode reads a --hyphen value: keep, drop or both ("" is
// keep), for the command line and the pipeline alike.
func ParseHyphenMode(s string) (HyphenMode, error) {
	switch s {
	case "", "keep":
		return HyphenKeep, nil
	case "drop":
		return HyphenDrop, nil
	case "both":
		return HyphenBoth, nil
	}
	return HyphenKeep, fmt.Errorf("--hyphen %q: want keep, drop or both", s)
}

// ParseBareBreakMode reads a --bare-break value: keep, join or both (""
// is keep).
func ParseBareBreakMode(s string) (BareBreakMode, error) {
	switch s {
	case "", "keep":
		return BareBreakKeep, nil
	case "join":
		return BareBreakJoin, nil
	case "both":
		return BareBreakBoth, nil
	}
	return BareBreakKeep, fmt.Errorf("--bare-break %q: want keep, join or both", s)
}

// Options tune a Scanner. The zero value gives the defaults of doc/behaviour.md.
type Options struct {
	// AnyScheme finds any syntactically valid scheme of two or more
	// characters, with or without "//".
	AnyScheme bool
	// Schemes, when not empty, are the only schemes found.
	Schemes []string
	// WWW finds bare "www.host..." and reports it as "http://www.host...".
	WWW bool
	// Email finds bare user@host.tld and reports it as "mailto:user@host.tld".
	Email bool
	// Hyphen chooses the form of a URI broken after a hyphen.
	Hyphen HyphenMode
	// BareBreak chooses the form of a bare URI broken at a line end.
	BareBreak BareBreakMode
	// MaxLength bounds a candidate's length in bytes (default 64 KiB);
	// longer ones are skipped and reported to OnSkip.
	MaxLength int
	// ASCII reports the URI form of IRIs (RFC 3987 3.1): UTF-8
	// percent-encoding and IDNA A-labels for the host.
	ASCII bool
	// FoldWidth folds fullwidth and halfwidth forms (ｈｔｔｐ：／／) to
	// their usual width before scanning. Offsets then count the bytes of
	// the folded text.
	FoldWidth bool
	// Unique reports each URI once: the first occurrence of each normal
	// form (invalid ones by their text as found).
	Unique bool
	// UniqueSet, when set, is the set Unique uses, so that scanners over
	// several inputs can share it; by default each Scanner has its own.
	// Its memory is bounded: see UniqueSet.
	UniqueSet *UniqueSet
	// NoLines leaves Match.Line and Match.Column zero, which saves
	// counting the line breaks of the whole input.
	NoLines bool
	// OnSkip, when set, is called for each candidate longer than
	// MaxLength, which is skipped.
	OnSkip func(Skip)
	// ReuseStrings lets the Scanner write the strings of the next match
	// (URI, Normalized, Alt) over those of the last: a Match's strings
	// are then valid only until the next call to Scan, as its Raw
	// always is. For a caller that prints or copies each match before
	// it asks for the next; the strings of all the matches then live in
	// one small buffer instead of new memory every 4 KiB of them, which
	// a run over a large input paid for in collections and page faults.
	// Unique (which keeps them) ignores it.
	ReuseStrings bool
}

// Skip tells where a candidate longer than the length limit stood.
type Skip struct {
	Offset, End  int64
	Line, Column int64
}

// Delimiter is what delimited a URI in its context.
type Delimiter = scan.Delim

// Flags tell how a URI was read.
type Flags uint8

const (
	Rejoined        Flags = 1 << iota // whitespace inside was dropped (a URI broken across lines)
	HyphenAmbiguous                   // a line break came right after a hyphen; see Match.Alt
	URLPrefix                         // a "URL:" prefix stood before it
	IRI                               // it holds non-ASCII characters
	BreakAmbiguous                    // a bare URI ran to a line end where the next line may go on with it; see Match.Alt
)

var flagNames = []string{"rejoined", "hyphen_ambiguous", "url_prefix", "iri", "break_ambiguous"}

// Names lists the flags set, by their names in behaviour §7.4.
func (f Flags) Names() []string {
	var names []string
	for i, name := range flagNames {
		if f&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if f&BrowserEncoded != 0 {
		names = append(names, "browser_encoded") // its own bit (attr.go)
	}
	return names
}

// Match is one URI found.
//
// Its strings (URI, Normalized, Alt) stay valid after the next Scan: the
// scanner makes them into chunks of a few KiB that it never writes
// again, one after the other, so a string kept holds its chunk. A program
// that keeps a few URIs of very many may strings.Clone them, to let the
// rest go; one that keeps none may set Options.ReuseStrings.
type Match struct {
	// URI is the URI as found: wrappers, "URL:" and the whitespace of a
	// broken URI removed (its ASCII form with Options.ASCII).
	URI string
	// Normalized is its normal form (behaviour §6), or "" when it is invalid.
	Normalized string
	// Raw is the input from Offset to End. It aliases the scanner's buffer
	// and is valid only until the next call to Scan.
	Raw          []byte
	Offset, End  int64
	Line, Column int64
	Delimiter    Delimiter
	Flags        Flags
	// Alt is the form without the hyphens at line breaks, when the
	// HyphenAmbiguous flag is set; the form joined across the line
	// break, when BreakAmbiguous is.
	Alt string
	// Valid tells whether URI is a valid URI (or IRI); Err says why not.
	Valid bool
	Err   error
	// EmbeddedIn is, for a URI read inside another one's query or path
	// rather than in the text (behaviour §10, --embedded), that URI; ""
	// for the URIs a Scanner finds.
	EmbeddedIn string
}

// Scanner reads the URIs of a stream one by one.
//
// Its methods for reading a file split between scanners are unexported:
// Split (split.go) is their one user, and they are not what a user of
// this package needs to learn.
type Scanner struct {
	sc      *scan.Scanner
	opts    Options
	m       Match
	pending []Match // the second form of a HyphenBoth match
	seen    *UniqueSet
	// midLine and quoteDepth: the input starts inside a line of that
	// mail quote depth (behaviour §3), as resetFrom told.
	midLine    bool
	quoteDepth int
	// strs holds the bytes of the strings of the matches (URI,
	// Normalized, Alt), made one after the other in a chunk whose bytes
	// before strsN are never written again, so that a string stays valid
	// however long it is kept. An allocation for each string (and the
	// prefix of a bare host or address joined by concatenation) cost a
	// third of the time of each URI of input packed with them (issue
	// #17). The end is an index, not the slice's length: a slice stored
	// at each string is a pointer written, which costs a write barrier
	// while the collector marks.
	strs  []byte
	strsN int
	// halt, set by OnSkip, ends the scan there: a RangeScanner past its
	// range's last candidate reads no further.
	halt bool
}

const (
	// strChunk is the size of a chunk of Scanner.strs.
	strChunk = 4 << 10
	// strOwn is the length past which a string gets an allocation of
	// its own: a long one would waste a chunk's end, and a string kept
	// holds its whole chunk.
	strOwn = 512
)

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader, opts Options) *Scanner {
	return newScannerAt(r, opts, false, 0)
}

// newScannerAt is NewScanner for an input that starts inside a line of
// mail quote depth quoteDepth when midLine (see resetFrom).
func newScannerAt(r io.Reader, opts Options, midLine bool, quoteDepth int) *Scanner {
	if opts.FoldWidth {
		r = transform.NewReader(r, width.Fold)
	}
	cfg := scan.Config{
		MaxLength: opts.MaxLength,
		AnyScheme: opts.AnyScheme,
		Schemes:   opts.Schemes,
		WWW:       opts.WWW,
		Email:     opts.Email,
		NoLines:   opts.NoLines,

		StartsMidLine:   midLine,
		StartQuoteDepth: quoteDepth,
	}
	s := &Scanner{sc: scan.New(r, cfg), opts: opts, midLine: midLine, quoteDepth: quoteDepth}
	if opts.Unique {
		s.seen = opts.UniqueSet
		if s.seen == nil {
			s.seen = NewUniqueSet()
		}
	}
	return s
}

// Reset makes s read from r with the same options, keeping its buffers
// (and, under Options.Unique, the URIs seen): reading many small inputs,
// the parts of mail messages say, then costs no allocation each.
func (s *Scanner) Reset(r io.Reader) {
	if s.opts.FoldWidth {
		r = transform.NewReader(r, width.Fold)
	}
	// The scan.Scanner keeps the start resetFrom gave it; its ResetFrom
	// would also give it the buffer of a split file's chunk.
	s.sc.Reset(r)
	s.pending = s.pending[:0]
	s.m = Match{}
}

// resetFrom is Reset for an input whose start is told afresh: inside a
// line of mail quote depth quoteDepth when midLine (see
// scan.Config.StartsMidLine), at a line's start otherwise; later Resets
// keep that start. Readers that split a file between scanners reuse one
// scanner for chunks of either kind.
func (s *Scanner) resetFrom(r io.Reader, midLine bool, quoteDepth int) {
	s.midLine, s.quoteDepth = midLine, quoteDepth
	if s.opts.FoldWidth {
		r = transform.NewReader(r, width.Fold)
	}
	s.sc.ResetFrom(r, midLine, quoteDepth)
	s.pending = s.pending[:0]
	s.m = Match{}
}

// firstLineBreak and quoteDepthAt are those of the underlying
// scan.Scanner, for readers that split a file between scanners.
func (s *Scanner) firstLineBreak() int64      { return s.sc.FirstLineBreak() }
func (s *Scanner) quoteDepthAt(off int64) int { return s.sc.QuoteDepthAt(off) }

// markLine and marked are those of the underlying scan.Scanner: the line
// and column of an offset, noted as the scanner counts lines, for readers
// that split a file between scanners and number its lines. Under
// Options.FoldWidth the offset is one of the folded text.
func (s *Scanner) markLine(off int64)                    { s.sc.MarkLine(off) }
func (s *Scanner) marked() (line, column int64, ok bool) { return s.sc.Marked() }

// Scan advances to the next URI; it returns false at the end of the input
// or on a read error, which Err then reports.
func (s *Scanner) Scan() bool { return s.scan(-1) }

// scanBefore is Scan for readers that split a file between scanners: it
// returns false also once every URI that starts before offset limit has
// been delivered, having read only a little past limit (a few URIs past
// it may come first). Scan, or scanBefore with a later limit, then goes on
// exactly as if only Scan had been called (see scan.Scanner.ScanBefore).
func (s *Scanner) scanBefore(limit int64) bool { return s.scan(max(0, limit)) }

// quietPast is that of scan.Scanner: right after scanBefore(limit)
// returned false, it tells whether the URIs found from then on depend on
// nothing before limit but the quote depth of the lines from limit on.
func (s *Scanner) quietPast(limit int64) bool {
	return len(s.pending) == 0 && s.sc.QuietPast(max(0, limit))
}

func (s *Scanner) scan(limit int64) bool {
	for {
		if len(s.pending) > 0 {
			s.m = s.pending[0]
			s.pending = s.pending[1:]
			if s.fresh(&s.m) {
				return true
			}
			continue
		}
		if s.opts.ReuseStrings && s.seen == nil {
			// The last match's strings are dead (no pending form uses
			// them: it would have been given first).
			s.strsN = 0
		}
		if limit < 0 && !s.sc.Scan() || limit >= 0 && !s.sc.ScanBefore(limit) {
			return false
		}
		c := s.sc.Candidate()
		if c.Flags&scan.TooLong != 0 {
			if s.opts.OnSkip != nil {
				s.opts.OnSkip(Skip{Offset: c.Offset, End: c.End, Line: c.Line, Column: c.Column})
				if s.halt {
					return false
				}
			}
			continue
		}
		s.fromCandidate(c)
		if s.seen == nil || s.fresh(&s.m) {
			return true
		}
	}
}

// room makes room for n more bytes in s.strs, n <= strChunk.
func (s *Scanner) room(n int) {
	if len(s.strs)-s.strsN < n {
		s.strs, s.strsN = make([]byte, strChunk), 0
	}
}

// bytesString views b, bytes of s.strs that are never written again, as
// a string.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// fresh reports whether m is to be reported under Options.Unique.
func (s *Scanner) fresh(m *Match) bool {
	if s.seen == nil {
		return true
	}
	key := m.Normalized
	if !m.Valid {
		key = "\x00" + m.URI // invalid ones are told apart as found
	}
	return s.seen.Add(key)
}

// Match returns the URI found by the last call to Scan. Its Raw field is
// valid only until the next call to Scan.
func (s *Scanner) Match() *Match { return &s.m }

// Err returns the first read error, or nil at a clean end of input.
func (s *Scanner) Err() error { return s.sc.Err() }

func (s *Scanner) fromCandidate(c *scan.Candidate) {
	withHyphens := s.schemeText(c)
	var flags Flags
	if c.Flags&scan.Rejoined != 0 {
		flags |= Rejoined
	}
	if c.Flags&scan.URLPrefix != 0 {
		flags |= URLPrefix
	}
	var alt string
	if c.Flags&scan.HyphenBreak != 0 {
		flags |= HyphenAmbiguous
		alt = s.dropHyphens(withHyphens, c.Hyphens, len(withHyphens)-len(c.Text))
	}
	// The match is filled in place, every field one by one: a Match is
	// twenty words, and its copies in and out of judge, or from a
	// composite literal built on the stack (narrow stores read back by
	// wide loads, which stall), cost a fifth of the time of a short URI.
	// Its strings and Err are set by judge, each pointer once: while the
	// collector marks, every pointer stored costs a write barrier, which
	// took a sixth of the time of each URI of input packed with them
	// (Alt, mostly "", is stored only when it changes).
	m := &s.m
	if m.Alt != alt {
		m.Alt = alt
	}
	if m.EmbeddedIn != "" {
		m.EmbeddedIn = "" // a caller wrote it; the Scanner's are never embedded
	}
	m.Raw, m.Offset, m.End, m.Line, m.Column = c.Raw, c.Offset, c.End, c.Line, c.Column
	m.Delimiter, m.Flags = c.Delim, flags
	// Every form is the candidate's text less some hyphens, with an
	// ASCII scheme before it: it is an IRI when the text is not ASCII,
	// told from the scanner's buffer, which the cache holds still.
	if !isASCIIBytes(c.Text) {
		m.Flags |= IRI
	}
	if c.Flags&scan.BareBreak != 0 {
		s.bareBreak(m, c)
		return
	}
	if flags&HyphenAmbiguous != 0 && s.opts.Hyphen == HyphenBoth {
		s.pending = append(s.pending[:0], *m)
		s.judge(&s.pending[0], alt, c.Kind == scan.KindWWW)
	}
	first := withHyphens
	if flags&HyphenAmbiguous != 0 && s.opts.Hyphen == HyphenDrop {
		first = alt
	}
	s.judge(m, first, c.Kind == scan.KindWWW)
	if c.Flags&scan.Unusable != 0 {
		// Taken whole over a character that cannot be in a URI, so as
		// not to name another host (behaviour §2): invalid as a whole.
		k := max(0, scan.BadAt(first))
		m.Valid, m.Normalized = false, ""
		m.Err = &uri.Error{Input: first, Offset: k, Reason: "character that cannot be in a URI, inside the authority"}
	}
}

// bareBreak fills m, whose other fields are set, for a candidate with
// the BareBreak flag (behaviour §3.8): the form of the first line, the
// joined form, or both (the first line's first), as Options.BareBreak
// says; Alt holds the joined form.
func (s *Scanner) bareBreak(m *Match, c *scan.Candidate) {
	m.Flags |= BreakAmbiguous
	first := s.schemeText(c)
	joined := s.formOf(c, c.Joined)
	m.Alt = joined
	www := c.Kind == scan.KindWWW
	switch s.opts.BareBreak {
	case BareBreakJoin:
		m.Raw, m.End = c.JoinedRaw, c.JoinedEnd
		s.judge(m, joined, www)
	case BareBreakBoth:
		s.judge(m, first, www)
		s.pending = append(s.pending[:0], *m)
		p := &s.pending[0]
		p.Raw, p.End = c.JoinedRaw, c.JoinedEnd
		s.judge(p, joined, www)
	default:
		s.judge(m, first, www)
	}
}

// formOf is text with the scheme that behaviour §2 gives bare hosts.
func (s *Scanner) formOf(c *scan.Candidate, text []byte) string {
	if c.Kind == scan.KindWWW {
		return "http://" + string(text)
	}
	return string(text)
}

// schemeText is the candidate's text with the scheme that behaviour §2 gives
// bare hosts and addresses.
func (s *Scanner) schemeText(c *scan.Candidate) string {
	var scheme string
	switch c.Kind {
	case scan.KindWWW:
		scheme = "http://"
	case scan.KindEmail:
		scheme = "mailto:"
	}
	if c.Flags&scan.LocalEscape != 0 {
		if at := strings.LastIndexByte(bytesString(c.Text), '@'); at > 0 && needsMailtoEscape(c.Text[:at]) {
			return s.mailtoText(c.Text, at)
		}
	}
	n := len(scheme) + len(c.Text)
	if n > strOwn {
		return scheme + string(c.Text)
	}
	// Room for its normal form after it too (normalize): most are as
	// long, or one byte longer.
	s.room(2*n + 8)
	st := s.strsN
	k := st
	if scheme != "" {
		k += copy(s.strs[k:], scheme)
	}
	k += copy(s.strs[k:], c.Text)
	s.strsN = k
	return bytesString(s.strs[st:k])
}

// mailtoEscaped marks the ASCII bytes of a local part that RFC 6068 2
// percent-encodes in a mailto: URI (behaviour §2.9, revision 5): '%',
// '/', '?', '#', '[', ']', '{', '}', '|', '^', '`'; a#b@x.com is
// mailto:a%23b@x.com, never a URI of the mailbox a. Non-ASCII bytes are
// encoded too.
var mailtoEscaped = func() (t [256]bool) {
	for _, c := range "%/?#[]{}|^`" {
		t[c] = true
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = true
	}
	return t
}()

func needsMailtoEscape(local []byte) bool {
	for _, c := range local {
		if mailtoEscaped[c] {
			return true
		}
	}
	return false
}

// mailtoText is "mailto:" and the address text, its local part (before
// index at) percent-encoded as RFC 6068 says.
func (s *Scanner) mailtoText(text []byte, at int) string {
	const hex = "0123456789ABCDEF"
	out := make([]byte, 0, len("mailto:")+3*len(text))
	out = append(out, "mailto:"...)
	for _, c := range text[:at] {
		if mailtoEscaped[c] {
			out = append(out, '%', hex[c>>4], hex[c&15])
		} else {
			out = append(out, c)
		}
	}
	out = append(out, text[at:]...)
	return bytesString(out)
}

// dropHyphens removes the hyphens at the given indexes of the candidate's
// text (shifted by the length of an added scheme).
func (s *Scanner) dropHyphens(text string, hyphens []int, shift int) string {
	var out []byte
	if len(text) > strOwn {
		out = make([]byte, 0, len(text))
	} else {
		s.room(2*len(text) + 8)
		out = s.strs[s.strsN:s.strsN]
	}
	prev := 0
	for _, h := range hyphens {
		out = append(out, text[prev:h+shift]...)
		prev = h + shift + 1
	}
	out = append(out, text[prev:]...)
	if len(text) <= strOwn {
		s.strsN += len(out)
	}
	return bytesString(out)
}

// normalize is uri.Normalize of a form of a match, made in s.strs; www
// tells a bare www.host. Most forms are normal as they stand, and
// Normalize gives them back without a copy. A bare www.host is not, most
// often: with no path, its normal form is the form and a '/'. So its
// normal form is made in s.strs after it, by AppendNormalize, and when
// that is the form and a '/' and the form ends s.strs, it is the form
// and the '/'.
func (s *Scanner) normalize(form string, www bool) (string, error) {
	if !www || len(form) > strOwn {
		return uri.Normalize(form, uri.KindIRI)
	}
	s.room(len(form) + 8)
	st := s.strsN
	b, err := uri.AppendNormalize(s.strs[:st], form, uri.KindIRI)
	if err != nil {
		return "", err
	}
	norm := b[st:]
	if string(norm) == form {
		return form, nil // the bytes after st are written over next
	}
	if len(norm) == len(form)+1 && norm[len(form)] == '/' && st >= len(form) &&
		unsafe.StringData(form) == &s.strs[st-len(form)] && string(norm[:len(form)]) == form {
		s.strs[st] = '/'
		s.strsN++
		return bytesString(s.strs[st-len(form) : st+1]), nil
	}
	if cap(b) > len(s.strs) {
		// Grown, b is a new array holding a copy of the chunk: the
		// strings made in the chunk stay where they are, and the next
		// ones go on in b.
		s.strs = b[:cap(b)]
	}
	s.strsN = len(b)
	return bytesString(norm), nil
}

// judge validates and normalizes one form of a match, m, whose other
// fields are set.
func (s *Scanner) judge(m *Match, form string, www bool) {
	// Validated as found, so that an invalid URI is reported as found
	// with the position of its fault in that form (behaviour §5), --ascii or not.
	// Normalize parses as Validate does and fails with the same error:
	// one parse serves both (a URI every dozen bytes of hostile input
	// spent a third of its time parsing each twice).
	found := form
	norm, err := s.normalize(form, www)
	if err == nil && s.opts.ASCII && m.Flags&IRI != 0 {
		found, norm, err = asciiForms(form)
	}
	m.URI, m.Normalized, m.Valid = found, norm, err == nil
	if m.Err != nil || err != nil {
		m.Err = err
	}
}

// asciiForms gives the URI form of a valid IRI (Options.ASCII), its normal
// form, or the error that makes it invalid and the IRI as it was.
func asciiForms(iri string) (found, norm string, err error) {
	ascii, err := uri.ToASCII(iri)
	if err == nil {
		err = uri.Validate(ascii, uri.KindURI)
	}
	if err != nil {
		return iri, "", err // a host IDNA cannot convert
	}
	if norm, err = uri.Normalize(ascii, uri.KindIRI); err != nil {
		norm = ""
	}
	return ascii, norm, nil
}

func isASCIIBytes(b []byte) bool {
	// Eight bytes at a time: it is asked of every URI.
	for ; len(b) >= 8; b = b[8:] {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// All returns the URIs of r in order. A read error ends the sequence with a
// last pair holding the error. The Raw field of each Match is valid only
// during its iteration step.
func All(r io.Reader, opts Options) iter.Seq2[Match, error] {
	return func(yield func(Match, error) bool) {
		s := NewScanner(r, opts)
		for s.Scan() {
			if !yield(*s.Match(), nil) {
				return
			}
		}
		if err := s.Err(); err != nil {
			yield(Match{}, err)
		}
	}
}
