package mail

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	nettextproto "net/textproto"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/emersion/go-message"

	"github.com/urix-dev/urix/internal/inplace"
)

const (
	maxHeaderBytes = 1 << 20  // a header block is cut off beyond this
	maxPreamble    = 64 << 10 // preamble kept in case no boundary shows up
	maxDepth       = 64       // nesting of multiparts and messages
)

// lineReader reads a message line by line with bounded memory and knows
// the boundaries of the multiparts it is inside.
type lineReader struct {
	br      *bufio.Reader
	atStart bool
	err     error // the first read error other than io.EOF

	// held, when inMem, is the rest of a message held whole in memory
	// (MboxSplitter): read in place, not copied into br's buffer.
	held  []byte
	inMem bool
}

func (lr *lineReader) reset(r io.Reader) {
	if lr.br == nil {
		lr.br = bufio.NewReaderSize(r, bufSize)
	} else {
		lr.br.Reset(r)
	}
	lr.atStart = true
	lr.err = nil
	lr.held, lr.inMem = nil, false
}

// resetHeld makes lr read the message b, held in memory.
func (lr *lineReader) resetHeld(b []byte) {
	lr.atStart = true
	lr.err = nil
	lr.held, lr.inMem = b, true
}

// peek, buffered and discard are those of bufio.Reader, over the held
// message or br.
func (lr *lineReader) peek(n int) ([]byte, error) {
	if !lr.inMem {
		return lr.br.Peek(n)
	}
	if n > len(lr.held) {
		return lr.held, io.EOF
	}
	return lr.held[:n], nil
}

func (lr *lineReader) buffered() int {
	if !lr.inMem {
		return lr.br.Buffered()
	}
	return len(lr.held)
}

func (lr *lineReader) discard(n int) {
	if !lr.inMem {
		lr.br.Discard(n)
		return
	}
	lr.held = lr.held[min(n, len(lr.held)):]
}

func newLineReader(r io.Reader) *lineReader {
	lr := &lineReader{br: bufio.NewReaderSize(r, bufSize), atStart: true}
	return lr
}

// fill makes sure some bytes are buffered; it reports false at the end of
// input (or on a read error, which it records).
func (lr *lineReader) fill() bool {
	if _, err := lr.peek(1); err != nil {
		if err != io.EOF && lr.err == nil {
			lr.err = err
		}
		return false
	}
	return true
}

// peekLine returns the current line (at a line start), without "\n", cut
// to n bytes, and whether the whole line fitted.
func (lr *lineReader) peekLine(n int) ([]byte, bool) {
	// The line is most often buffered whole: Peek(n) of more than is
	// buffered slides the buffer and reads to fill it, each time.
	if b, _ := lr.peek(min(n, lr.buffered())); len(b) > 0 {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return b[:i], true
		}
	}
	b, _ := lr.peek(n)
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], true
	}
	if len(b) < n { // end of input
		return b, true
	}
	return b, false
}

// piece consumes up to max bytes of the current line (up to and including
// its '\n'); the slice is valid until the next read.
func (lr *lineReader) piece(max int) []byte {
	if !lr.fill() {
		return nil
	}
	data, _ := lr.peek(lr.buffered())
	eol := false
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
		eol = true
	}
	if len(data) > max {
		data = data[:max]
		eol = false
	}
	lr.atStart = eol
	return data
}

// boundaryAt reports which boundary of bounds (innermost last) the line at
// the current line start is a delimiter of, and whether it closes. -1 when
// none.
func (lr *lineReader) boundaryAt(bounds []string) (int, bool) {
	if len(bounds) == 0 || !lr.atStart {
		return -1, false
	}
	b, _ := lr.peek(2)
	if string(b) != "--" {
		return -1, false
	}
	line, _ := lr.peekLine(200)
	line = bytes.TrimRight(line, " \t\r")
	for i := len(bounds) - 1; i >= 0; i-- {
		bd := bounds[i]
		if len(line) < 2+len(bd) || string(line[2:2+len(bd)]) != bd {
			continue
		}
		rest := line[2+len(bd):]
		if len(rest) == 0 {
			return i, false
		}
		if bytes.HasPrefix(rest, []byte("--")) {
			return i, true
		}
	}
	return -1, false
}

// skipLine consumes the current line.
func (lr *lineReader) skipLine() {
	for {
		p := lr.piece(bufSize)
		n := len(p)
		if n == 0 {
			return
		}
		lr.discard(n)
		if lr.atStart {
			return
		}
	}
}

// bodyReader reads the raw bytes of an entity's body, up to a delimiter
// line of one of the enclosing multiparts, or the end of input.
type bodyReader struct {
	lr     *lineReader
	bounds []string
	done   bool
}

func (b *bodyReader) Read(p []byte) (int, error) {
	data, err := b.next(len(p))
	return copy(p, data), err
}

// next returns the body's next bytes, at most max, where they lie (valid
// until the next call): all that is buffered; inside a multipart, up to
// the start of the next line that begins with "--" (a delimiter line may:
// it is looked at on the next call). A Read per line cost more than the
// decoding. The base64 decoder reads its input so, without the copy of a
// Read.
func (b *bodyReader) next(max int) ([]byte, error) {
	if b.done || max == 0 {
		if b.done {
			return nil, io.EOF
		}
		return nil, nil
	}
	lr := b.lr
	if i, _ := lr.boundaryAt(b.bounds); i >= 0 {
		b.done = true
		return nil, io.EOF
	}
	if !lr.fill() {
		b.done = true
		if lr.err != nil {
			return nil, lr.err
		}
		return nil, io.EOF
	}
	data, _ := lr.peek(min(lr.buffered(), max))
	if len(b.bounds) > 0 {
		data = data[:dashSafe(data)]
	}
	lr.atStart = data[len(data)-1] == '\n'
	lr.discard(len(data))
	return data, nil
}

var dashes = []byte("--")

// dashSafe returns how much of data can be given before a line start
// where "--" begins, or may begin in bytes not yet in data. It looks for
// "--" and then at the byte before it, not at every line end.
func dashSafe(data []byte) int {
	end := len(data)
	if end >= 2 && data[end-1] == '-' && data[end-2] == '\n' {
		end--
	}
	for off := 0; off < end; {
		j := bytes.Index(data[off:end], dashes)
		if j < 0 {
			break
		}
		j += off
		if j > 0 && data[j-1] == '\n' {
			return j
		}
		off = j + 1
	}
	return end
}

// header is what the walker needs of a parsed header block: the values
// of the fields it reads (the last of each name wins) and the fields
// that may carry URIs, in order. Values are as go-message's textproto
// gives them: line ends and the blanks around them made one space,
// leading and trailing blanks removed.
type header struct {
	known    [nKnown]string
	uri      []field
	eightBit bool // 8-bit bytes seen in the block
}

type field struct{ key, value string }

// The fields the walker reads, by index into header.known.
const (
	hContentType = iota
	hCTE
	hMessageID
	hContentBase
	hContentLocation
	hContentDisposition // its filename: a .htm/.html part is HTML (behaviour §9)
	nKnown
)

var knownNames = [nKnown]string{"Content-Type", "Content-Transfer-Encoding", "Message-Id", "Content-Base", "Content-Location", "Content-Disposition"}

// Get returns the value of the field named k (one of knownNames).
func (h *header) Get(k string) string {
	for i, name := range knownNames {
		if name == k {
			return h.known[i]
		}
	}
	return ""
}

// parseBlock reads the fields of block, which readHeader made of whole
// lines, each a field ("name:" with a name of printable ASCII) or the
// continuation of the one before. It does by hand, over the block in
// place, what go-message's textproto.ReadHeader did (43 MB/s on small
// messages, a string and a map entry for every field): only the values
// that are used become strings.
func (h *header) parseBlock(block []byte, a *valueArena) {
	// The values kept are unfolded into vals and made one string at the
	// end, each value a piece of it: one allocation a header, where a
	// string a value was a third of the allocations of an mbox.
	var valsArr [512]byte
	var spansArr [12]valueSpan
	vals, spans := valsArr[:0], spansArr[:0]
	for len(block) > 0 {
		end := 0
		for {
			i := bytes.IndexByte(block[end:], '\n')
			if i < 0 {
				end = len(block)
				break
			}
			end += i + 1
			if end == len(block) || (block[end] != ' ' && block[end] != '\t') {
				break
			}
		}
		kv := block[:end]
		block = block[end:]
		// The ':' is a name's length away (a loop: IndexByte's call cost
		// more on names of 4 to 25 bytes).
		i := 0
		for i < len(kv) && kv[i] != ':' {
			i++
		}
		if i == len(kv) {
			continue
		}
		vals, spans = keepField(vals, spans, trimBlanks(kv[:i]), kv[i+1:])
	}
	h.finish(vals, spans, a)
}

// keepField appends to vals the unfolded value val of the field named key
// when the walker reads it or it may carry URIs, and where it is to spans.
func keepField(vals []byte, spans []valueSpan, key, val []byte) ([]byte, []valueSpan) {
	if len(key) == 0 || !keptFieldFirst[key[0]] {
		return vals, spans // most fields: Received, From, Subject, Date...
	}
	known, uriKey, isURI := fieldKind(key)
	if known < 0 && !isURI {
		return vals, spans
	}
	start := len(vals)
	vals = appendUnfolded(vals, val)
	return vals, append(spans, valueSpan{known: known, uriKey: uriKey, isURI: isURI, start: start, end: len(vals)})
}

// fieldKind tells of the field named key (any case) its index in
// knownNames (-1 when none) and, when Walk gives its value for URI
// extraction, its canonical name: the name made lower case is looked up
// once, in fieldKinds, where bytes.EqualFold against each name of
// knownNames, then of uriFields or listFields, was a tenth of the time of
// a header block (and a map lookup, its hash and probe, 7 % of the time
// of an mbox of short messages).
func fieldKind(key []byte) (known int, uriKey string, isURI bool) {
	var lower [32]byte
	if len(key) > len(lower) {
		// Longer than any name of the tables: only another List-* field.
		if bytes.EqualFold(key[:5], []byte("List-")) {
			k := nettextproto.CanonicalMIMEHeaderKey(string(key))
			return -1, k, strings.HasPrefix(k, "List-")
		}
		return -1, "", false
	}
	if len(key) < 2 {
		return -1, "", false
	}
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	l := lower[:len(key)]
	if k := &fieldKinds[fieldSlot(l)]; k.name == string(l) {
		return k.known, k.uriKey, k.uriKey != ""
	}
	if bytes.HasPrefix(l, []byte("list-")) {
		// Another List-* field (RFC 2369 allows more).
		k := nettextproto.CanonicalMIMEHeaderKey(string(key))
		return -1, k, strings.HasPrefix(k, "List-")
	}
	return -1, "", false
}

// finish sets h's values from what keepField kept, their strings and
// list out of a.
func (h *header) finish(vals []byte, spans []valueSpan, a *valueArena) {
	if len(spans) == 0 {
		return
	}
	all := a.string(vals)
	nURI := 0
	for _, sp := range spans {
		if sp.isURI {
			nURI++
		}
	}
	if nURI > 0 {
		h.uri = a.fields(nURI)
	}
	for _, sp := range spans {
		v := all[sp.start:sp.end]
		if sp.known >= 0 {
			h.known[sp.known] = v
		}
		if sp.isURI {
			h.uri = append(h.uri, field{sp.uriKey, v})
		}
	}
}

// valueArena gives headers the strings of their values and their lists
// of URI fields out of chunks it never writes to again once it has given
// a piece of them: one allocation for many headers, where a string and a
// list each were half of the allocations of an mbox. What it gives stays
// as it is for as long as it is held, as any string.
type valueArena struct {
	strs []byte
	list []field
}

// Chunk sizes of a valueArena: some 60 headers of a list message a
// chunk of strings, 20 of fields. A longer value is a string of its own.
const (
	arenaStrs   = 16 << 10
	arenaFields = 64
)

// string returns b as a string.
func (a *valueArena) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaStrs/4 {
		return string(b)
	}
	if cap(a.strs)-len(a.strs) < len(b) {
		a.strs = make([]byte, 0, arenaStrs)
	}
	start := len(a.strs)
	a.strs = append(a.strs, b...)
	return unsafe.String(&a.strs[start], len(b))
}

// fields returns an empty list with room for n fields, to be appended to
// up to n only.
func (a *valueArena) fields(n int) []field {
	if n > arenaFields/4 {
		return make([]field, 0, n)
	}
	if cap(a.list)-len(a.list) < n {
		a.list = make([]field, 0, arenaFields)
	}
	start := len(a.list)
	a.list = a.list[:start+n]
	return a.list[start : start : start+n]
}

// valueSpan is where parseBlock put a field's unfolded value.
type valueSpan struct {
	known      int // the index in knownNames, or -1
	uriKey     string
	isURI      bool
	start, end int
}

// trimBlanks removes leading and trailing spaces and tabs.
func trimBlanks(s []byte) []byte {
	i, n := 0, len(s)
	for i < n && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for n > i && (s[n-1] == ' ' || s[n-1] == '\t') {
		n--
	}
	return s[i:n]
}

// appendUnfolded appends field value v made one line, as go-message's
// textproto does: each line without its line end and the blanks around
// it, the non-empty ones joined by one space.
func appendUnfolded(dst, v []byte) []byte {
	start := len(dst)
	for len(v) > 0 {
		l := v
		if i := bytes.IndexByte(v, '\n'); i >= 0 {
			l, v = v[:i], v[i+1:]
		} else {
			v = nil
		}
		if len(l) > 0 && l[len(l)-1] == '\r' {
			l = l[:len(l)-1]
		}
		l = trimBlanks(l)
		if len(l) == 0 {
			continue
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = append(dst, l...)
	}
	return dst
}

// readHeader reads a header block up to the blank line that ends it (which
// is consumed). A delimiter line of bounds, or a line that is neither a
// field nor a continuation, ends the header too (with a warning) and is
// left for the body.
func (w *walker) readHeader(lr *lineReader, bounds []string, where string) header {
	block := w.block[:0]
	if cap(block) > 64<<10 {
		block = nil // a huge header's buffer is not kept
	}
	var h header
	if lr.inMem && lr.atStart {
		if end, ok := h.parseHeld(lr.held, len(bounds) > 0, &w.values); ok {
			lr.discard(end)
			return h
		}
	}
	inField := false
	var f headerField
	for lr.fill() {
		if i, _ := lr.boundaryAt(bounds); i >= 0 {
			w.warn(where + ": header ended by a boundary line")
			break
		}
		line, _ := lr.peekLine(bufSize)
		trimmed := bytes.TrimSuffix(line, []byte("\r"))
		if len(trimmed) == 0 {
			lr.skipLine()
			break
		}
		cont := trimmed[0] == ' ' || trimmed[0] == '\t'
		if cont && !inField {
			if len(block) == 0 && !f.overHeader {
				w.warn(where + ": header begins with a continuation line; dropped")
			}
			lr.skipLine()
			continue
		}
		if !cont {
			name, ok := fieldName(trimmed)
			if !ok {
				if len(block) == 0 && !f.overHeader {
					w.warn(where + ": no header; read as body")
				} else {
					w.warn(where + ": malformed header line; header ends, read as body")
				}
				break
			}
			inField = true
			f.start(name)
		}
		// Consume the line, keeping it when the field and the header
		// have room for all of it: a field is cut at a line end.
		lineStart := len(block)
		keep := !f.dropped
		for {
			p := lr.piece(bufSize)
			if len(p) == 0 {
				break
			}
			overHeader := len(block)+len(p) > maxHeaderBytes
			if keep && (overHeader || f.size+len(block)-lineStart+len(p) > maxFieldBytes) {
				keep = false
				block = block[:lineStart]
				if msg := f.stop(cont, overHeader); msg != "" {
					w.warn(where + ": " + msg)
				}
			}
			if keep {
				block = append(block, p...)
			}
			lr.discard(len(p))
			if lr.atStart {
				break
			}
		}
		if keep {
			if block[len(block)-1] != '\n' {
				block = append(block, '\n')
			}
			f.size += len(block) - lineStart
		}
	}
	h.eightBit = asciiPrefix(block) < len(block)
	h.parseBlock(block, &w.values)
	w.block = block[:0]
	return h
}

// maxFieldBytes bounds one header field (its lines, folded or not), so
// that one field cannot take the room of maxHeaderBytes from those after
// it: a Received field folded over 175,000 lines cost a message its
// List-Help and List-Post (issue 32). Four such fields fit in a header.
const maxFieldBytes = maxHeaderBytes / 4

// headerField is what readHeader knows of the field it reads: its name,
// until it is told in a warning; its size; whether the rest of it is
// dropped; and whether the header has run over maxHeaderBytes, which drops
// every field after.
type headerField struct {
	name       []byte // in nameBuf: the line it lay in is read on
	nameBuf    [41]byte
	size       int
	dropped    bool
	overHeader bool
}

// start begins a field named name.
func (f *headerField) start(name []byte) {
	f.size, f.dropped = 0, f.overHeader
	f.name = append(f.nameBuf[:0], name[:min(len(name), len(f.nameBuf))]...)
}

// stop drops the rest of the field, from the line that does not fit on
// (cont: a continuation line; the first line drops the field whole), and
// returns the warning to give, once for the field, or "" (a field
// dropped with the rest of the header after it was told already).
func (f *headerField) stop(cont, overHeader bool) string {
	f.dropped = true
	name := quoteName(f.name)
	switch {
	case overHeader && !f.overHeader:
		f.overHeader = true
		if cont {
			return fmt.Sprintf("header longer than %d bytes; field %s cut there, and the fields after it dropped", maxHeaderBytes, name)
		}
		return fmt.Sprintf("header longer than %d bytes; field %s and the fields after it dropped", maxHeaderBytes, name)
	case overHeader:
		return ""
	case cont:
		return fmt.Sprintf("header field %s longer than %d bytes; cut there", name, maxFieldBytes)
	}
	return fmt.Sprintf("header field %s longer than %d bytes; dropped", name, maxFieldBytes)
}

// quoteName quotes a field name for a warning, cut to 40 bytes.
func quoteName(name []byte) string {
	if len(name) > 40 {
		return strconv.Quote(string(name[:40])) + "..."
	}
	return strconv.Quote(string(name))
}

// parseHeld is readHeader's path for a header held in memory that is
// nothing but well-formed lines: fields and their continuations, each
// ended by a line end, then a blank line, maxHeaderBytes at most. It
// parses it as parseBlock would, in the same pass that checks it, and
// returns where the body starts. It reports false, leaving h as it was,
// for anything else (a boundary line when inMultipart, a header that ends
// the input, a line longer than a bufSize, ...), which readHeader then
// reads line by line, with its warnings. Line by line, header blocks were
// 8 % of the CPU of an mbox; most of it was the bookkeeping of each line,
// which held bytes need not. Checked first and parsed after, each line was
// searched twice: a third of the time of a header.
func (h *header) parseHeld(data []byte, inMultipart bool, a *valueArena) (end int, ok bool) {
	var valsArr [512]byte
	var spansArr [12]valueSpan
	vals, spans := valsArr[:0], spansArr[:0]
	var key []byte // the name of the field being read
	valAt := 0     // where its value starts
	keyAt := 0     // where its first line starts
	for off := 0; off <= maxHeaderBytes; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 || i >= bufSize {
			return 0, false
		}
		line := data[off : off+i]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		switch {
		case len(line) == 0:
			if key != nil {
				vals, spans = keepField(vals, spans, key, data[valAt:off])
			}
			h.eightBit = asciiPrefix(data[:off]) < off
			h.finish(vals, spans, a)
			return off + i + 1, true
		case line[0] == ' ' || line[0] == '\t':
			if off == 0 {
				return 0, false // a header that begins with a continuation
			}
			if off+i+1-keyAt > maxFieldBytes {
				return 0, false // a field to cut, with a warning
			}
		case inMultipart && len(line) >= 2 && line[0] == '-' && line[1] == '-':
			return 0, false // perhaps a boundary line
		default:
			n, colon, ok := fieldNameColon(line)
			if !ok {
				return 0, false
			}
			if key != nil {
				vals, spans = keepField(vals, spans, key, data[valAt:off])
			}
			key, valAt, keyAt = line[:n], off+colon+1, off
		}
		off += i + 1
	}
	return 0, false
}

// uriFields are the header fields given to fn besides List-*, in
// canonical case.
var uriFields = []string{
	"Archived-At",
	"X-Archived-At",
	"Content-Location",
	"Content-Base",
	"Link",
	"X-Url",
	"X-Uri",
	"X-Original-Url",
	"X-Homepage",
	"X-Mailing-List",
	"Organization",
	"X-Complaints-To",
	// Unstructured fields a reader sees, after RFC 2047 decoding
	// (behaviour §9, revision 5: spam puts its link in the Subject).
	"Subject",
	"Comments",
	"Keywords",
}

// uriFieldFirst marks the first letters (either case) of the names of
// uriFields and listFields.
var uriFieldFirst = func() (t [256]bool) {
	for _, names := range [][]string{uriFields, listFields} {
		for _, n := range names {
			t[n[0]|0x20], t[n[0]&^0x20] = true, true
		}
	}
	return t
}()

// keptFieldFirst marks the first letters (either case) of the names of
// the fields keepField keeps: knownNames and those uriFieldName takes.
var keptFieldFirst = func() (t [256]bool) {
	t = uriFieldFirst
	for _, n := range knownNames {
		t[n[0]|0x20], t[n[0]&^0x20] = true, true
	}
	return t
}()

// listFields are the List-* fields of RFC 2369 and RFC 2919, whose names
// are given without a string made for each.
var listFields = []string{"List-Id", "List-Help", "List-Unsubscribe", "List-Subscribe", "List-Post", "List-Owner", "List-Archive"}

// IsURIField reports whether the header field name (any case) is one whose
// value Walk gives for URI extraction.
func IsURIField(name string) bool {
	_, ok := uriFieldName([]byte(name))
	return ok
}

// fieldKinds holds what fieldKind tells of the names of knownNames,
// uriFields and listFields, each at its fieldSlot, which no two share.
var fieldKinds = func() (t [64]fieldKindOf) {
	set := func(name string, f func(*fieldKindOf)) {
		l := strings.ToLower(name)
		k := &t[fieldSlot([]byte(l))]
		if k.name != "" && k.name != l {
			panic("mail: fieldSlot gives " + k.name + " and " + l + " one slot")
		}
		if k.name == "" {
			*k = fieldKindOf{name: l, known: -1}
		}
		f(k)
	}
	for _, names := range [][]string{uriFields, listFields} {
		for _, n := range names {
			set(n, func(k *fieldKindOf) { k.uriKey = n })
		}
	}
	for j, n := range knownNames {
		set(n, func(k *fieldKindOf) { k.known = j })
	}
	return t
}()

// fieldSlot is where fieldKinds holds the name l (lower case, two bytes
// or more): a hash of its length and last two bytes that no two names of
// the tables share (the init of fieldKinds checks).
func fieldSlot(l []byte) int {
	n := len(l)
	return (2*n + int(l[n-1]) + 22*int(l[n-2])) & 63
}

// fieldKindOf is what fieldKind tells: the index in knownNames (-1: none)
// and the canonical name of a field given for URI extraction ("": none),
// of the field whose lower-case name is name.
type fieldKindOf struct {
	name   string
	known  int
	uriKey string
}

// uriFieldName returns the canonical name of the field named key (any
// case) when Walk gives its value for URI extraction.
func uriFieldName(key []byte) (string, bool) {
	if len(key) == 0 || !uriFieldFirst[key[0]] {
		return "", false // most fields: Received, From, Subject, Date...
	}
	_, k, ok := fieldKind(key)
	return k, ok
}

// giveFields calls fn for each URI-bearing field of h.
func (w *walker) giveFields(h header, path string, where string) error {
	for _, f := range h.uri {
		v, err := decodeWords(f.value)
		if err != nil {
			w.note(fmt.Sprintf("%s: field %s: %v; read as it stands", where, f.key, err))
			v = f.value
		}
		// A value of an all-ASCII header, as it stands, is UTF-8.
		if (h.eightBit || v != f.value) && !utf8.ValidString(v) {
			w.note(fmt.Sprintf("%s: field %s: 8-bit bytes that are not UTF-8; read as they stand", where, f.key))
		}
		// One reader for every field: a Body is valid only during the
		// callback. It gives the value's bytes in place (a scanner reads
		// them there, without the copy into its buffer and the reads to
		// its end: 2.5 % of the CPU of an mbox of short messages); no
		// reader of them writes to them, so viewing the string so is safe.
		if isProse(f.key) && !mayHoldURI(v) {
			continue // "Re: weekly notes": a scanner's reset for nothing
		}
		w.fieldBody.Reset(unsafe.Slice(unsafe.StringData(v), len(v)))
		if err := w.give(w.newPart(Part{Path: path, Source: SourceHeader, Field: f.key, Body: &w.fieldBody})); err != nil {
			return err
		}
	}
	return nil
}

// isProse reports whether key is one of the unstructured fields a reader
// sees (Subject, Comments, Keywords), most of which hold no URI.
func isProse(key string) bool {
	return key == "Subject" || key == "Comments" || key == "Keywords"
}

// mayHoldURI reports whether v may hold a URI in any form urix finds
// (behaviour §2): a scheme's ":" followed by something but whitespace, a
// host's or address's "." or "@", a "<" that may open a URI broken after
// its ":", or a non-ASCII byte (fullwidth forms, IRIs). A Subject such as
// "Re: [list] weekly notes" holds none, and is not given.
func mayHoldURI(v string) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '.' || c == '@' || c == '<' || c >= utf8.RuneSelf:
			return true
		case c == ':' && i+1 < len(v) && v[i+1] != ' ' && v[i+1] != '\t':
			return true
		}
	}
	return false
}

// decodeWords decodes the RFC 2047 encoded words of a field value with
// go-message (its charsets, its errors), as message.Header.Text does.
func decodeWords(v string) (string, error) {
	if !strings.Contains(v, "=?") {
		return v, nil
	}
	var h message.Header
	h.Set("X", v)
	return h.Text("X")
}

type walker struct {
	opts   Options
	fn     func(*Part) error
	msgNo  int
	msgOff int64
	msgID  string

	part Part // the Part given to fn, one for all (newPart)
	// the bodies of a text part and of one skipped: one each, not one
	// a part (they were a fifth of a message's allocations)
	textBody, drainBody bodyReader
	heldBody            inplace.Reader        // a held body given in place
	fieldBody           inplace.Reader        // the Body of a header field's Part
	block               []byte                // the header block being read, reused
	values              valueArena            // the strings of header values
	pre                 []byte                // a multipart's preamble, reused
	tables              map[string]*byteTable // single-byte charsets met, nil for others
	pool                decoders              // decoders to reuse
	hdoc                *htmlDoc              // the HTML reader, kept for the next HTML part
	msgBase             string                // the message's Content-Base or Content-Location
	msg                 msgReader             // an mbox message's reader (Walk), one for all
}

func (w *walker) warn(msg string) {
	if w.opts.Warn != nil {
		w.opts.Warn(w.msgNo, msg)
	}
}

// note tells of what a mail reader tolerates without a word (Options.Note).
func (w *walker) note(msg string) {
	if w.opts.Note != nil {
		w.opts.Note(w.msgNo, msg)
		return
	}
	w.warn(msg)
}

// newPart sets the walker's one Part to p and returns it: fn is given
// the same Part every time (valid, as its Body, only during the call),
// not a new one for each header field and part.
func (w *walker) newPart(p Part) *Part {
	w.part = p
	return &w.part
}

func (w *walker) give(p *Part) error {
	p.MsgNo, p.MsgOffset, p.MessageID = w.msgNo, w.msgOff, w.msgID
	if err := w.fn(p); err != nil {
		return stopError{err}
	}
	return nil
}

// walkMessageLR reads one whole message from lr.
func (w *walker) walkMessageLR(lr *lineReader) error {
	w.msgID = ""
	h := w.readHeader(lr, nil, "header")
	if id := h.Get("Message-Id"); id != "" {
		id = strings.TrimSpace(id)
		if i := strings.IndexByte(id, '<'); i >= 0 {
			id = id[i+1:]
			if j := strings.IndexByte(id, '>'); j >= 0 {
				id = id[:j]
			}
		}
		w.msgID = strings.TrimSpace(id)
	}
	if h.eightBit {
		w.note("header: 8-bit bytes in the header")
	}
	if err := w.giveFields(h, "", "header"); err != nil {
		return err
	}
	// The message's base URI, for the HTML parts that give none (RFC
	// 2557 5, behaviour §9.5).
	w.msgBase = strings.TrimSpace(h.Get("Content-Base"))
	if w.msgBase == "" {
		w.msgBase = strings.TrimSpace(h.Get("Content-Location"))
	}
	if err := w.entity(lr, h, "1", "", "part 1", nil, 0, "text/plain"); err != nil {
		return err
	}
	if lr.err != nil {
		return lr.err
	}
	return nil
}

func childPath(prefix string, n int) string {
	if prefix == "" {
		return strconv.Itoa(n)
	}
	return prefix + "." + strconv.Itoa(n)
}

// entity reads the body of an entity whose header is h. self is the path of
// a non-multipart body, prefix the path prefix of its parts when it is a
// multipart, where "part " and self, made once by the caller for its
// warnings; bounds are the boundaries of the enclosing multiparts.
func (w *walker) entity(lr *lineReader, h header, self, prefix, where string, bounds []string, depth int, defaultType string) error {
	ct := h.Get("Content-Type")
	mediaType, params, ok := parseContentType(ct)
	if !ok {
		if strings.TrimSpace(ct) != "" {
			// RFC 2045 5.2: a Content-Type that holds no type/subtype
			// is taken for text/plain.
			w.warn(fmt.Sprintf("%s: bad Content-Type %q; read as text/plain", where, ct))
			mediaType = "text/plain"
		} else {
			mediaType = defaultType
		}
	}
	if depth > maxDepth {
		w.warn(where + ": nested too deep; read as text")
		mediaType = "text/plain"
	}
	cte := strings.ToLower(strings.TrimSpace(h.Get("Content-Transfer-Encoding")))

	if strings.HasPrefix(mediaType, "multipart/") && cte != "" && cte != "7bit" && cte != "8bit" && cte != "binary" {
		// RFC 2045 6.4 forbids any other encoding of a multipart: the
		// label is ignored, so that a base64 label never loses the text
		// (behaviour §9).
		cte = ""
	}
	switch {
	case strings.HasPrefix(mediaType, "multipart/"):
		bd := params.get("boundary")
		if bd == "" {
			w.warn(where + ": multipart without boundary; read as text")
			return w.text(lr, h, "text/plain", &params, cte, self, where, bounds)
		}
		return w.multipart(lr, h, mediaType, &params, cte, self, prefix, where, bounds, depth)
	case mediaType == "message/rfc822" || mediaType == "message/global" || mediaType == "message/news":
		inner := lr
		var body io.Reader
		if cte == "base64" || cte == "quoted-printable" {
			body = w.decodeCTE(&bodyReader{lr: lr, bounds: bounds}, cte, where)
			inner = newLineReader(body)
		}
		ibounds := bounds
		if inner != lr {
			ibounds = nil
		}
		ih := w.readHeader(inner, ibounds, "message "+self)
		if err := w.giveFields(ih, self, "message "+self); err != nil {
			return err
		}
		if err := w.entity(inner, ih, self+".1", self, "part "+self+".1", ibounds, depth+1, "text/plain"); err != nil {
			return err
		}
		if inner != lr {
			if inner.err != nil && lr.err == nil {
				lr.err = inner.err
			}
		}
		return w.drain(lr, bounds)
	case strings.HasPrefix(mediaType, "text/") || mediaType == "application/xhtml+xml":
		if mediaType != "text/html" && htmlFileName(&params, h.Get("Content-Disposition")) {
			mediaType = "text/html"
		}
		return w.text(lr, h, mediaType, &params, cte, self, where, bounds)
	case htmlFileName(&params, h.Get("Content-Disposition")):
		// Spam sends HTML as application/octet-stream; the reader's
		// program opens it by its name (behaviour §9).
		return w.text(lr, h, "text/html", &params, cte, self, where, bounds)
	}
	// Not text (application/octet-stream, image/*, ...): never searched,
	// whatever its parameters say (behaviour §9).
	return w.drain(lr, bounds)
}

// drain skips the rest of the current body.
func (w *walker) drain(lr *lineReader, bounds []string) error {
	w.drainBody = bodyReader{lr: lr, bounds: bounds}
	_, err := io.Copy(io.Discard, &w.drainBody)
	return err
}

// multipart reads the parts of a multipart body whose header is h. A
// multipart whose boundary never shows up is read as one text body
// (behaviour §9): its preamble is held, up to maxPreamble bytes, until a
// delimiter line shows; when none comes within those bytes, the preamble
// is given as text from its start, streamed on to a delimiter line or the
// end. The decision falls at a byte count of the input, never at a read.
func (w *walker) multipart(lr *lineReader, h header, mediaType string, params *mediaParams, cte, self, prefix, where string, bounds []string, depth int) error {
	bd := params.get("boundary")
	if prefix == "" {
		where = "body"
	}
	stack := append(bounds[:len(bounds):len(bounds)], bd)
	// The parts of a multipart/digest are messages unless they say
	// otherwise (RFC 2046 5.1.5).
	childType := "text/plain"
	if mediaType == "multipart/digest" {
		childType = "message/rfc822"
	}

	pre := w.pre[:0]
	overflow := false
	for {
		if i, _ := lr.boundaryAt(stack); i >= 0 {
			break
		}
		if len(pre) == maxPreamble {
			overflow = true
			break
		}
		p := lr.piece(maxPreamble - len(pre))
		if len(p) == 0 {
			break
		}
		pre = append(pre, p...)
		lr.discard(len(p))
	}
	w.pre = pre[:0]
	asText := func(rest io.Reader) error {
		var r io.Reader = bytes.NewReader(pre)
		if rest != nil {
			r = io.MultiReader(r, rest)
		}
		r = w.decodeCTE(r, cte, where)
		if cs := strings.ToLower(strings.TrimSpace(params.get("charset"))); cs != "" {
			r = w.decodeCharset(r, cs, where)
		}
		return w.give(w.newPart(Part{Path: self, Body: r}))
	}
	given := false
	if overflow {
		given = true
		if err := asText(&bodyReader{lr: lr, bounds: stack}); err != nil {
			return err
		}
		if err := w.drain(lr, stack); err != nil {
			return err
		}
	}
	if i, _ := lr.boundaryAt(stack); i < 0 || i < len(stack)-1 {
		// End of input, or an enclosing multipart's boundary.
		w.note(where + ": boundary \"" + bd + "\" not found; read as text")
		if !given && len(bytes.TrimSpace(pre)) > 0 {
			return asText(nil)
		}
		return nil
	}
	for n := 1; ; n++ {
		// At a delimiter line of this multipart.
		_, closing := lr.boundaryAt(stack)
		lr.skipLine()
		if closing {
			if n == 1 {
				w.warn(where + ": no parts")
			}
			// Epilogue.
			return w.drain(lr, bounds)
		}
		path := childPath(prefix, n)
		pwhere := "part " + path
		ph := w.readHeader(lr, stack, pwhere)
		if ph.eightBit {
			w.note(pwhere + ": 8-bit bytes in the header")
		}
		if err := w.giveFields(ph, path, pwhere); err != nil {
			return err
		}
		if err := w.entity(lr, ph, path, path, pwhere, stack, depth+1, childType); err != nil {
			return err
		}
		if i, _ := lr.boundaryAt(stack); i < 0 || i < len(stack)-1 {
			w.note(where + ": missing closing boundary \"" + bd + "\"")
			return nil
		}
	}
}

// text gives the decoded text of a text/* body.
func (w *walker) text(lr *lineReader, h header, mediaType string, params *mediaParams, cte, self, where string, bounds []string) error {
	// A text body is a leaf: no other is read while this one is.
	w.textBody = bodyReader{lr: lr, bounds: bounds}
	dec := w.decodeCTE(&w.textBody, cte, where)
	r := dec
	if cs := strings.ToLower(strings.TrimSpace(params.get("charset"))); cs != "" {
		r = w.decodeCharset(r, cs, where)
	}
	if mediaType == "text/html" || mediaType == "application/xhtml+xml" {
		base := strings.TrimSpace(h.Get("Content-Base"))
		if base == "" {
			base = strings.TrimSpace(h.Get("Content-Location"))
		}
		if err := w.html(r, w.htmlBase(base, w.msgBase), self, where); err != nil {
			return err
		}
	} else {
		if mediaType == "text/plain" && strings.EqualFold(params.get("format"), "flowed") {
			r = newUnflow(r, strings.EqualFold(params.get("delsp"), "yes"))
		}
		body := r
		if r == io.Reader(&w.textBody) && lr.inMem && len(bounds) == 0 {
			// The rest of a message held in memory, as it stands: given
			// where it lies, for a scanner to scan there.
			w.heldBody.Reset(lr.held)
			body = &w.heldBody
		}
		err := w.give(w.newPart(Part{Path: self, Body: body}))
		if body == &w.heldBody {
			lr.discard(lr.buffered()) // read where it lay, or not at all
		}
		if err != nil {
			return err
		}
	}
	err := w.drain(lr, bounds)
	w.release(dec, r)
	return err
}
