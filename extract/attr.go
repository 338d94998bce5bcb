package extract

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/urix-dev/urix/internal/scan"
	"github.com/urix-dev/urix/uri"
)

// BrowserEncoded is the flag of a URI read from an HTML attribute value
// whose characters a URI cannot hold were percent-encoded, as the
// recipient's browser encodes them (behaviour §9): its Raw keeps the
// bytes as written. Its bit is the last, so that the flags of the plain
// text rules keep theirs.
const BrowserEncoded Flags = 1 << 7

// AttrKind says what an HTML attribute value gives (behaviour §9).
type AttrKind uint8

const (
	// AttrNone: nothing to report (an empty value, a relative reference
	// without a base, a URI already reported under Options.Unique).
	AttrNone AttrKind = iota
	// AttrURI: one URI, the whole value, valid or invalid as a whole.
	AttrURI
	// AttrText: the value does not start with a URI (javascript:,
	// onclick code): search it as text.
	AttrText
)

// AttrReader reads the values of HTML attributes that hold URLs as the
// recipient's browser reads them (behaviour §9): the WHATWG URL parser's
// stripping, then the characters a URI cannot hold percent-encoded, a
// relative reference resolved against the base. One reader serves any
// number of values; it is not safe for concurrent use.
type AttrReader struct {
	opts Options
	// sc tells where a URI starts in a value, read as "<" value ">" (the
	// rules of behaviour §2: registered schemes, glued words), without
	// Unique: the reader keeps the set itself.
	sc   *Scanner
	seen *UniqueSet
	in   attrInput
	m    Match
	buf  []byte
}

// NewAttrReader returns an AttrReader with the options of the scanners
// that read the text around the values (Unique and UniqueSet included).
func NewAttrReader(opts Options) *AttrReader {
	a := &AttrReader{opts: opts}
	sub := opts
	sub.Unique, sub.UniqueSet, sub.OnSkip, sub.ReuseStrings = false, nil, nil, false
	sub.NoLines = true
	a.sc = NewScanner(&a.in, sub)
	if opts.Unique {
		a.seen = opts.UniqueSet
		if a.seen == nil {
			a.seen = NewUniqueSet()
		}
	}
	return a
}

// Read reads value, an attribute value as the HTML tokenizer gives it
// (entity references decoded), against base, the absolute URI relative
// references resolve against ("" when there is none). For AttrURI, the
// Match is the URI; its strings stay valid, its Raw (the value's bytes
// from the URI's start) only until the next Read. Offset, End and Column
// are in value.
func (a *AttrReader) Read(value, base string) (AttrKind, *Match) {
	// WHATWG URL parser: leading and trailing C0 controls and spaces
	// are stripped (" http://img.example.org/a b.gif ").
	i, j := 0, len(value)
	for i < j && value[i] <= ' ' {
		i++
	}
	for j > i && value[j-1] <= ' ' {
		j--
	}
	v := value[i:j]
	if v == "" {
		return AttrNone, nil
	}
	target, encoded := v, false
	plain := plainValue(v)
	if !plain {
		scheme := schemeOf(v)
		special := isSpecialScheme(scheme) || scheme == "" && isSpecialScheme(schemeOf(base))
		a.buf, encoded = appendBrowserForm(a.buf[:0], v, special)
		if string(a.buf) != v {
			target = string(a.buf)
		}
	}
	relative := !hasScheme(target)
	if relative {
		if base == "" {
			return AttrNone, nil // not a URI where there is no base (most mail)
		}
		t, err := uri.Resolve(base, target)
		if err != nil {
			return AttrNone, nil
		}
		target = t
	}
	// Where does a URI start? The scanner reads the value as a whole in
	// "<...>" as it reads any candidate, scheme rules and glued words
	// included ("hhttp://x" gives "http://x").
	a.in.reset(target)
	a.sc.Reset(&a.in)
	if !a.sc.Scan() {
		if relative {
			return AttrNone, nil
		}
		return AttrText, nil
	}
	first := a.sc.Match()
	k := int(first.Offset) - 1 // the glued word before the scheme
	if k < 0 || first.Flags&URLPrefix != 0 || !gluedWord(target[:k]) {
		if relative {
			return AttrNone, nil
		}
		return AttrText, nil
	}
	// Set field by field: a Match copied whole is twenty words and their
	// write barriers.
	m := &a.m
	m.Delimiter, m.Line, m.Flags, m.Alt = first.Delimiter, 1, 0, ""
	u := target[k:]
	bad := -1
	if !plain {
		bad = scan.BadAt(u)
	}
	switch {
	case bad >= 0:
		// Left as written (the host), a character the browser refuses
		// makes the whole value invalid, never cut (behaviour §3, §9).
		r, _ := utf8.DecodeRuneInString(u[bad:])
		m.URI, m.Normalized, m.Valid = strings.Clone(u), "", false
		m.Err = &uri.Error{Input: u, Offset: bad, Reason: fmt.Sprintf("%U %q cannot be in a URI", r, r)}
	case first.End == int64(1+len(target)) && first.Flags&Rejoined == 0:
		m.URI, m.Normalized, m.Valid, m.Err = first.URI, first.Normalized, first.Valid, first.Err
	default:
		// The scanner ends it early (a character that ends a URI in
		// text, such as a quotation mark of another script): the value
		// is still one candidate, judged whole.
		a.judgeWhole(m, strings.Clone(u))
	}
	if !plain && !isASCIIString(u) {
		m.Flags |= IRI
	}
	if encoded {
		m.Flags |= BrowserEncoded
	}
	// Raw: the bytes as written, from the URI's start when the glued
	// word stands as it was.
	raw, off := v, i
	if !relative && k <= len(v) && v[:k] == target[:k] {
		raw, off = v[k:], i+k
	}
	m.Raw = unsafe.Slice(unsafe.StringData(raw), len(raw))
	m.Offset, m.End = int64(off), int64(off+len(raw))
	m.Column = int64(off + 1)
	if a.opts.NoLines {
		m.Line, m.Column = 0, 0
	}
	if a.seen != nil {
		key := m.Normalized
		if !m.Valid {
			key = "\x00" + m.URI
		}
		if !a.seen.Add(key) {
			return AttrNone, nil
		}
	}
	return AttrURI, m
}

// judgeWhole validates and normalizes u as one candidate.
func (a *AttrReader) judgeWhole(m *Match, u string) {
	norm, err := uri.Normalize(u, uri.KindIRI)
	found := u
	if err == nil && a.opts.ASCII && !isASCIIString(u) {
		found, norm, err = asciiForms(u)
	}
	var ue *uri.Error
	if err != nil && !errors.As(err, &ue) {
		err = &uri.Error{Input: u, Reason: err.Error()}
	}
	m.URI, m.Normalized, m.Valid, m.Err = found, norm, err == nil, err
}

// gluedWord reports whether w, what stands in a value before the URI the
// scanner finds there, is nothing or a word glued to "http", "https" or
// "ftp" (behaviour §2: "hhttp://x" reads as "http://x", in an attribute
// as in text).
func gluedWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// hasScheme reports whether v starts with a scheme and ":".
func hasScheme(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == ':':
			return i > 0
		case 'a' <= c|0x20 && c|0x20 <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

// schemeOf returns the scheme of v, lower case, or "" when v does not
// start with one and ":" (RFC 3986 3.1).
func schemeOf(v string) string {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == ':':
			if i == 0 {
				return ""
			}
			return strings.ToLower(v[:i])
		case 'a' <= c|0x20 && c|0x20 <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return ""
		}
	}
	return ""
}

// isSpecialScheme reports whether s is one of the WHATWG URL Standard's
// special schemes, whose paths read "\" as "/".
func isSpecialScheme(s string) bool {
	switch s {
	case "http", "https", "ftp", "ws", "wss", "file":
		return true
	}
	return false
}

// appendBrowserForm appends v (stripped) read as a browser reads it
// (behaviour §9): tab, LF and CR removed (WHATWG URL Standard, "remove
// all ASCII tab or newline"); "\" read as "/" before the query of a
// special scheme; then, in the path, query and fragment, the characters
// of this list percent-encoded in UTF-8, wider than WHATWG's so that the
// result is a valid reference: controls, spaces and format characters,
// '"' '<' '>' '`' '{' '}' '|' '^' '[' ']', '\' where it is not a "/",
// a second '#', and bytes that are not UTF-8. The authority is left as
// written: a bad host is the browser's refusal, and so invalid.
//
// encoded tells whether anything was percent-encoded.
func appendBrowserForm(b []byte, v string, special bool) (_ []byte, encoded bool) {
	start := len(b)
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '\t' && c != '\n' && c != '\r' {
			b = append(b, c)
		}
	}
	s := b[start:]
	// The scheme, then "//" and the authority, stand as written.
	p := len(schemeOf(string(s)))
	if p > 0 {
		p++ // the ':'
	}
	if special {
		for q := p; q < len(s) && (s[q] == '/' || s[q] == '\\'); q++ {
			s[q] = '/' // "http:\\host\path" is "http://host/path"
		}
	}
	if p+1 < len(s) && s[p] == '/' && s[p+1] == '/' {
		p += 2
		for p < len(s) && s[p] != '/' && s[p] != '?' && s[p] != '#' && !(special && s[p] == '\\') {
			p++
		}
	}
	if !encodingNeeded(s[p:]) {
		return b, false
	}
	rest := string(s[p:]) // copied: b is written over below
	b = b[:start+p]
	inPath, inFragment := true, false
	for i := 0; i < len(rest); {
		c := rest[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(rest[i:])
			if r == utf8.RuneError && n == 1 || unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Cf) {
				b, encoded = appendPercent(b, rest[i:i+n]), true
			} else {
				b = append(b, rest[i:i+n]...)
			}
			i += n
			continue
		}
		switch {
		case c == '\\' && special && inPath:
			b = append(b, '/') // WHATWG: a path separator of special schemes
		case c == '?' && !inFragment:
			inPath = false
			b = append(b, c)
		case c == '#' && !inFragment:
			inPath, inFragment = false, true
			b = append(b, c)
		case c == '#' || encodeASCII[c]:
			b, encoded = appendPercent(b, rest[i:i+1]), true // a second '#', "Site Feedback"
		default:
			b = append(b, c)
		}
		i++
	}
	return b, encoded
}

// plainValue reports whether v (stripped) is read by a browser as it
// stands: ASCII, no tab, LF, CR or '\', nothing of the encoding list and
// at most one '#' (most values: no copy of them).
func plainValue(v string) bool {
	hashes := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= utf8.RuneSelf || encodeASCII[c] {
			return false // '\', tab, LF and CR are on the list too
		}
		if c == '#' {
			if hashes++; hashes > 1 {
				return false
			}
		}
	}
	return true
}

// encodeASCII marks the ASCII characters appendBrowserForm encodes
// wherever they stand after the authority (behaviour §9's list).
var encodeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c <= ' '; c++ {
		t[c] = true // controls, and the space of "subject=Site Feedback"
	}
	t[0x7f] = true
	for _, c := range []byte("\"<>`{}|^[]\\") {
		t[c] = true
	}
	return t
}()

// encodingNeeded reports whether appendBrowserForm changes rest (the
// path, query and fragment): most values are left as they are, with no
// copy.
func encodingNeeded(rest []byte) bool {
	hashes := 0
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c >= utf8.RuneSelf:
			return true // decided rune by rune (rare)
		case c == '#':
			if hashes++; hashes > 1 {
				return true
			}
		case encodeASCII[c]:
			return true
		}
	}
	return false
}

func appendPercent(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		b = append(b, '%', hex[s[i]>>4], hex[s[i]&15])
	}
	return b
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// attrInput reads "<" v ">" with no copy of v.
type attrInput struct {
	v   string
	off int
}

func (r *attrInput) reset(v string) { r.v, r.off = v, 0 }

func (r *attrInput) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.off < len(r.v)+2 {
		switch {
		case r.off == 0:
			p[n] = '<'
			n++
			r.off++
		case r.off <= len(r.v):
			c := copy(p[n:], r.v[r.off-1:])
			n += c
			r.off += c
		default:
			p[n] = '>'
			n++
			r.off++
		}
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}
