package mail

import (
	"bytes"
	"errors"
	"html"
	"io"
	"unicode/utf8"
)

// The HTML tokenizer of HTML parts (behaviour §9). It gives the same
// tokens as golang.org/x/net/html's Tokenizer with SetMaxBuf (and
// AllowCDATA off, the default): the state machine below is that of
// x/net/html's token.go (Copyright The Go Authors, BSD-style license),
// state for state, so that the visible text and the URL attribute values
// of a part stay what they were. What differs is the speed: x/net reads
// one byte per method call (readByte), which was a fifth of the time of
// reading an mbox; here the states that loop over ordinary bytes (text,
// raw text, quoted attribute values, comments, ...) step over the
// buffered bytes they do not stop at with bytes.IndexByte or a table,
// and hand the rest to readByte, which refills the buffer and makes the
// checks of the end of input and of the token limit exactly where x/net
// makes them. Text, names and values are decoded into the caller's
// buffers, not allocated per token. The differential tests
// (htmltok_test.go) hold it to x/net over every read split.

type htmlTokenType uint8

const (
	htmlErrorToken htmlTokenType = iota
	htmlTextToken
	htmlStartTagToken
	htmlEndTagToken
	htmlSelfClosingTagToken
	htmlCommentToken
	htmlDoctypeToken
)

// errHTMLTooLong is the error of a token of maxBuf bytes or more
// (x/net's ErrBufferExceeded).
var errHTMLTooLong = errors.New("HTML token too long")

// hspan is a range of bytes in the tokenizer's buffer, end exclusive.
type hspan struct{ start, end int }

// htmlTokenizer is x/net/html's Tokenizer without AllowCDATA,
// NextIsNotRawText and fragments, which the walker does not use.
type htmlTokenizer struct {
	r  io.Reader
	tt htmlTokenType
	// err is the first error met; it stays. A token may be given with
	// err set (its text up to the end of input); the next is an error.
	err error
	// readErr is the reader's error, met when the buffer runs out.
	readErr error
	// buf[raw.start:raw.end] is the current token, buf[raw.end:] the
	// input buffered but not yet read.
	raw    hspan
	buf    []byte
	maxBuf int
	// lim is min(len(buf), raw.start+maxBuf-1): the bytes before it are
	// read without a refill and without the token reaching maxBuf bytes.
	lim int
	// data is the token's text, tag name, comment...
	data        hspan
	pendingAttr [2]hspan
	attr        [][2]hspan
	// attrNames holds the lower-case names of the tag's attributes once
	// it has more than attrScan of them (below that they are compared
	// one by one); names is whether it is in use for this tag.
	attrNames map[string]struct{}
	names     bool
	// rawTag is the lower-case name of the element whose end tag ends
	// the raw text or RCDATA that the next token reads, "" when none.
	rawTag     string
	textIsRaw  bool
	convertNUL bool
	// nameLower is whether the tag name holds no A-Z and no NUL, known
	// when readTagBuffered read it (false otherwise: tagName looks).
	nameLower bool
	// lt is 1 + the offset of the "<" that ended the text token just
	// given (0: none), so that the next token does not search for it
	// again; a refill, which moves the bytes, clears it.
	lt int

	name     []byte            // the tag name, decoded by tagName
	key      []byte            // an attribute name, decoded by attrKey
	entities map[string]string // named character references met, decoded (short names, 256 at most)
}

// htmlBufSize is the first size of the buffer; it grows (to twice the
// longest token, at most about 2*maxBuf) when a token does not fit.
const htmlBufSize = 16 << 10

// attrScan: with up to this many attributes, a duplicate name is found by
// comparing with each; above it, with a map (memory and time bounded for
// a tag of a million attributes).
const attrScan = 16

// reset makes z read r from its start with token limit maxBuf, keeping
// its buffers when they are of the usual size.
func (z *htmlTokenizer) reset(r io.Reader, maxBuf int) {
	buf := z.buf[:0]
	if cap(buf) > 4*htmlBufSize || buf == nil {
		buf = make([]byte, 0, htmlBufSize)
	}
	attr := z.attr[:0]
	if cap(attr) > 64 {
		attr = nil
	}
	name, key, ents := z.name, z.key, z.entities
	if len(ents) > 256 {
		ents = nil
	}
	*z = htmlTokenizer{r: r, buf: buf, maxBuf: maxBuf, attr: attr, name: name[:0], key: key[:0], entities: ents}
}

// Err returns the error of the last error token: io.EOF at the end,
// errHTMLTooLong, or the reader's error.
func (z *htmlTokenizer) Err() error {
	if z.tt != htmlErrorToken {
		return nil
	}
	return z.err
}

// rest returns the input from the start of the current token to the end
// of what is buffered: after errHTMLTooLong, what was not tokenized (the
// rest is still in the reader).
func (z *htmlTokenizer) rest() []byte { return z.buf[z.raw.start:] }

// readByte returns the next byte, refilling the buffer when it is all
// read. It sets err at the end of input, on a read error, and when the
// token reaches maxBuf bytes (that byte read, as x/net does).
func (z *htmlTokenizer) readByte() byte {
	if i := z.raw.end; i < z.lim {
		z.raw.end++
		return z.buf[i]
	}
	return z.readByteSlow()
}

func (z *htmlTokenizer) readByteSlow() byte {
	if z.raw.end >= len(z.buf) && !z.fill() {
		return 0
	}
	x := z.buf[z.raw.end]
	z.raw.end++
	if z.raw.end-z.raw.start >= z.maxBuf {
		z.err = errHTMLTooLong
		return 0
	}
	return x
}

// fill moves the current token to the start of the buffer (a buffer
// twice the size when the token fills more than half of it) and reads
// more; it reports whether any byte came.
func (z *htmlTokenizer) fill() bool {
	if z.readErr != nil {
		z.err = z.readErr
		return false
	}
	c := cap(z.buf)
	d := z.raw.end - z.raw.start
	var buf1 []byte
	if 2*d > c {
		buf1 = make([]byte, d, 2*c)
	} else {
		buf1 = z.buf[:d]
	}
	copy(buf1, z.buf[z.raw.start:z.raw.end])
	z.lt = 0
	if x := z.raw.start; x != 0 {
		z.data.start -= x
		z.data.end -= x
		z.pendingAttr[0].start -= x
		z.pendingAttr[0].end -= x
		z.pendingAttr[1].start -= x
		z.pendingAttr[1].end -= x
		for i := range z.attr {
			z.attr[i][0].start -= x
			z.attr[i][0].end -= x
			z.attr[i][1].start -= x
			z.attr[i][1].end -= x
		}
	}
	z.raw.start, z.raw.end, z.buf = 0, d, buf1[:d]
	z.setLimit()
	var n int
	n, z.readErr = readAtLeastOneByte(z.r, buf1[d:cap(buf1)])
	if n == 0 {
		z.err = z.readErr
		return false
	}
	z.buf = buf1[:d+n]
	z.setLimit()
	return true
}

// readAtLeastOneByte reads into b; (0, nil) a hundred times in a row is
// io.ErrNoProgress.
func readAtLeastOneByte(r io.Reader, b []byte) (int, error) {
	for range 100 {
		if n, err := r.Read(b); n != 0 || err != nil {
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// setLimit sets lim after raw.start or buf change: the skip functions
// step over bytes only up to it and leave the rest to readByte, which
// refills the buffer and stops a token too long.
func (z *htmlTokenizer) setLimit() {
	z.lim = min(len(z.buf), z.raw.start+z.maxBuf-1)
}

// skipTo steps over the buffered bytes before the next c.
func (z *htmlTokenizer) skipTo(c byte) {
	lim := z.lim
	if z.raw.end >= lim {
		return
	}
	if i := bytes.IndexByte(z.buf[z.raw.end:lim], c); i >= 0 {
		z.raw.end += i
	} else {
		z.raw.end = lim
	}
}

// skipOver steps over the buffered bytes not in stop; it reports whether
// it stepped over any.
func (z *htmlTokenizer) skipOver(stop *[256]bool) bool {
	lim := z.lim
	i := z.raw.end
	for i < lim && !stop[z.buf[i]] {
		i++
	}
	moved := i > z.raw.end
	z.raw.end = i
	return moved
}

func byteSet(s string) *[256]bool {
	var t [256]bool
	for i := range len(s) {
		t[s[i]] = true
	}
	return &t
}

var (
	commentStop   = byteSet("-!>")
	scriptEscStop = byteSet("-<")
	tagNameStop   = byteSet(" \n\r\t\f/>")
	// tagNameLowerStop is tagNameStop with A-Z and NUL, the bytes that
	// tagName changes.
	tagNameLowerStop = byteSet(" \n\r\t\f/>ABCDEFGHIJKLMNOPQRSTUVWXYZ\x00")
	attrKeyStop      = byteSet("= \n\r\t\f/>")
	unquotedStop     = byteSet(" \n\r\t\f>")
)

func (z *htmlTokenizer) skipWhiteSpace() {
	if z.err != nil {
		return
	}
	for {
		c := z.readByte()
		if z.err != nil {
			return
		}
		switch c {
		case ' ', '\n', '\r', '\t', '\f':
		default:
			z.raw.end--
			return
		}
	}
}

// readRawOrRCDATA reads to the next "</" rawTag.
func (z *htmlTokenizer) readRawOrRCDATA() {
	if z.rawTag == "script" {
		z.readScript()
		z.textIsRaw = true
		z.rawTag = ""
		return
	}
	for {
		z.skipTo('<')
		c := z.readByte()
		if z.err != nil {
			break
		}
		if c != '<' {
			continue
		}
		c = z.readByte()
		if z.err != nil {
			break
		}
		if c != '/' {
			z.raw.end--
			continue
		}
		if z.readRawEndTag() || z.err != nil {
			break
		}
	}
	z.data.end = z.raw.end
	// The RCDATA of textarea and title holds character references.
	z.textIsRaw = z.rawTag != "textarea" && z.rawTag != "title"
	z.rawTag = ""
}

// readRawEndTag reads rawTag and a byte that ends a tag name after "</";
// when they are there it backs up to the "<" and reports true.
func (z *htmlTokenizer) readRawEndTag() bool {
	for i := 0; i < len(z.rawTag); i++ {
		c := z.readByte()
		if z.err != nil {
			return false
		}
		if c != z.rawTag[i] && c != z.rawTag[i]-('a'-'A') {
			z.raw.end--
			return false
		}
	}
	c := z.readByte()
	if z.err != nil {
		return false
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		z.raw.end -= 3 + len(z.rawTag)
		return true
	}
	z.raw.end--
	return false
}

// readScript reads to the next </script>, by the script data states of
// the HTML standard (escaped "<!--" and double-escaped "<script>").
func (z *htmlTokenizer) readScript() {
	defer func() {
		z.data.end = z.raw.end
	}()
	var c byte

scriptData:
	z.skipTo('<')
	c = z.readByte()
	if z.err != nil {
		return
	}
	if c == '<' {
		goto scriptDataLessThanSign
	}
	goto scriptData

scriptDataLessThanSign:
	c = z.readByte()
	if z.err != nil {
		return
	}
	switch c {
	case '/':
		goto scriptDataEndTagOpen
	case '!':
		goto scriptDataEscapeStart
	}
	z.raw.end--
	goto scriptData

scriptDataEndTagOpen:
	if z.readRawEndTag() || z.err != nil {
		return
	}
	goto scriptData

scriptDataEscapeStart:
	c = z.readByte()
	if z.err != nil {
		return
	}
	if c == '-' {
		goto scriptDataEscapeStartDash
	}
	z.raw.end--
	goto scriptData

scriptDataEscapeStartDash:
	c = z.readByte()
	if z.err != nil {
		return
	}
	if c == '-' {
		goto scriptDataEscapedDashDash
	}
	z.raw.end--
	goto scriptData

scriptDataEscaped:
	z.skipOver(scriptEscStop)
	c = z.readByte()
	if z.err != nil {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDash:
	c = z.readByte()
	if z.err != nil {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDashDash:
	c = z.readByte()
	if z.err != nil {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataEscaped

scriptDataEscapedLessThanSign:
	c = z.readByte()
	if z.err != nil {
		return
	}
	if c == '/' {
		goto scriptDataEscapedEndTagOpen
	}
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
		goto scriptDataDoubleEscapeStart
	}
	z.raw.end--
	goto scriptData

scriptDataEscapedEndTagOpen:
	if z.readRawEndTag() || z.err != nil {
		return
	}
	goto scriptDataEscaped

scriptDataDoubleEscapeStart:
	z.raw.end--
	for i := 0; i < len("script"); i++ {
		c = z.readByte()
		if z.err != nil {
			return
		}
		if c != "script"[i] && c != "SCRIPT"[i] {
			z.raw.end--
			goto scriptDataEscaped
		}
	}
	c = z.readByte()
	if z.err != nil {
		return
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		goto scriptDataDoubleEscaped
	}
	z.raw.end--
	goto scriptDataEscaped

scriptDataDoubleEscaped:
	z.skipOver(scriptEscStop)
	c = z.readByte()
	if z.err != nil {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDash:
	c = z.readByte()
	if z.err != nil {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDashDash:
	c = z.readByte()
	if z.err != nil {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedLessThanSign:
	c = z.readByte()
	if z.err != nil {
		return
	}
	if c == '/' {
		goto scriptDataDoubleEscapeEnd
	}
	z.raw.end--
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapeEnd:
	if z.readRawEndTag() {
		z.raw.end += len("</script>")
		goto scriptDataEscaped
	}
	if z.err != nil {
		return
	}
	goto scriptDataDoubleEscaped
}

// readComment reads a comment after its "<!--".
func (z *htmlTokenizer) readComment() {
	z.data.start = z.raw.end
	defer func() {
		if z.data.end < z.data.start {
			// A comment with no data, like <!-->.
			z.data.end = z.data.start
		}
	}()
	var dashCount int
	beginning := true
	for {
		// Each byte stepped over is one of x/net's "default" bytes.
		if z.skipOver(commentStop) {
			dashCount = 0
			beginning = false
		}
		c := z.readByte()
		if z.err != nil {
			z.data.end = z.abruptCommentDataEnd()
			return
		}
		switch c {
		case '-':
			dashCount++
			continue
		case '>':
			if dashCount >= 2 || beginning {
				z.data.end = z.raw.end - len("-->")
				return
			}
		case '!':
			if dashCount >= 2 {
				c = z.readByte()
				if z.err != nil {
					z.data.end = z.abruptCommentDataEnd()
					return
				} else if c == '>' {
					z.data.end = z.raw.end - len("--!>")
					return
				} else if c == '-' {
					dashCount = 1
					beginning = false
					continue
				}
			}
		}
		dashCount = 0
		beginning = false
	}
}

func (z *htmlTokenizer) abruptCommentDataEnd() int {
	raw := z.buf[z.raw.start:z.raw.end]
	const prefixLen = len("<!--")
	if len(raw) >= prefixLen {
		raw = raw[prefixLen:]
		if bytes.HasSuffix(raw, []byte("--!")) {
			return z.raw.end - 3
		} else if bytes.HasSuffix(raw, []byte("--")) {
			return z.raw.end - 2
		} else if bytes.HasSuffix(raw, []byte("-")) {
			return z.raw.end - 1
		}
	}
	return z.raw.end
}

// readUntilCloseAngle reads to the next ">".
func (z *htmlTokenizer) readUntilCloseAngle() {
	z.data.start = z.raw.end
	for {
		z.skipTo('>')
		c := z.readByte()
		if z.err != nil {
			z.data.end = z.raw.end
			return
		}
		if c == '>' {
			z.data.end = z.raw.end - len(">")
			return
		}
	}
}

// readMarkupDeclaration reads a token after its "<!": a comment, a
// doctype, or a bogus comment (CDATA sections among them: CDATA is only
// text in foreign content, which x/net leaves to its caller).
func (z *htmlTokenizer) readMarkupDeclaration() htmlTokenType {
	z.data.start = z.raw.end
	var c [2]byte
	for i := range 2 {
		c[i] = z.readByte()
		if z.err != nil {
			z.data.end = z.raw.end
			if i == 1 && c[0] == '>' {
				z.data.end--
			}
			return htmlCommentToken
		}
	}
	if c[0] == '-' && c[1] == '-' {
		z.readComment()
		return htmlCommentToken
	}
	z.raw.end -= 2
	if z.readDoctype() {
		return htmlDoctypeToken
	}
	z.readUntilCloseAngle()
	return htmlCommentToken
}

// readDoctype reads a doctype after its "<!", or backs up and reports
// false.
func (z *htmlTokenizer) readDoctype() bool {
	const s = "DOCTYPE"
	for i := 0; i < len(s); i++ {
		c := z.readByte()
		if z.err != nil {
			if z.err == io.EOF {
				// Back up; the next read meets the end again.
				z.raw.end = z.data.start
				z.err = nil
				return false
			}
			z.data.end = z.raw.end
			return false
		}
		if c != s[i] && c != s[i]+('a'-'A') {
			z.raw.end = z.data.start
			return false
		}
	}
	if z.skipWhiteSpace(); z.err != nil {
		z.data.start = z.raw.end
		z.data.end = z.raw.end
		return true
	}
	z.readUntilCloseAngle()
	return true
}

// resetAttrs forgets the attributes of the tag before.
func (z *htmlTokenizer) resetAttrs() {
	z.attr = z.attr[:0]
	if z.names {
		clear(z.attrNames)
		z.names = false
	}
}

// readStartTag reads a start tag after its "<" and first letter.
func (z *htmlTokenizer) readStartTag() htmlTokenType {
	z.resetAttrs()
	if !z.readTagBuffered(saveAll) {
		z.readTag(true)
		if z.err != nil {
			return htmlErrorToken
		}
	}
	// The elements whose content is raw text or RCDATA for the tokenizer
	// (the HTML standard's tree construction sets those states).
	if n := z.data.end - z.data.start; 3 <= n && n <= 9 {
		z.rawTag = rawTextElement(z.buf[z.data.start:z.data.end])
	}
	// Self-closing when the byte before ">" is a "/" that is not the end
	// of an unquoted value (<p a=/>).
	nAttrs := len(z.attr)
	if z.buf[z.raw.end-2] == '/' && (nAttrs == 0 || z.raw.end-2 != z.attr[nAttrs-1][1].end-1) {
		return htmlSelfClosingTagToken
	}
	return htmlStartTagToken
}

// rawTextElement returns the lower-case name of name when it is one of
// the elements x/net reads raw text or RCDATA after, "" otherwise.
func rawTextElement(name []byte) string {
	// Not "noscript": x/net/html reads it as raw text when scripting is
	// on; a mail reader runs no script and shows it as markup, its links
	// too (behaviour §9).
	for _, s := range [...]string{"iframe", "noembed", "noframes", "plaintext", "script", "style", "textarea", "title", "xmp"} {
		if len(name) == len(s) && equalFoldASCII(name, s) {
			return s
		}
	}
	return ""
}

// equalFoldASCII reports whether b is s (lower case) with ASCII letters
// in any case.
func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// readTag reads a tag's name and attributes after its "<" or "</" and
// first letter; saveAttr keeps the attributes (the first of each name).
func (z *htmlTokenizer) readTag(saveAttr bool) {
	z.resetAttrs()
	save := saveNone
	if saveAttr {
		save = saveAll
	}
	if z.readTagBuffered(save) {
		return
	}
	// Not all of it before lim: again from its start, a byte at a time.
	z.resetAttrs()
	z.readTagName()
	if z.skipWhiteSpace(); z.err != nil {
		return
	}
	for {
		c := z.readByte()
		if z.err != nil || c == '>' {
			break
		}
		z.raw.end--
		z.readTagAttrKey()
		z.readTagAttrVal()
		if saveAttr && z.pendingAttr[0].start != z.pendingAttr[0].end && z.newAttrName() {
			z.attr = append(z.attr, z.pendingAttr)
		}
		if z.skipWhiteSpace(); z.err != nil {
			break
		}
	}
}

// What readTagBuffered keeps of a tag's attributes: none (an end tag),
// all (the first of each name, as readTag), or only those urlAttr names
// (the first of each name: a name that urlAttr gives is only ever the
// same as another such), which is all that htmlDoc looks at.
const (
	saveNone = iota
	saveAll
	saveURL
)

// readTagBuffered is readTag over the bytes before lim, with no
// readByte: when the tag ends (its ">") before lim, no refill and no
// token limit can meet it, so the states of readTagName, readTagAttrKey,
// readTagAttrVal and skipWhiteSpace are followed here on the buffer
// itself, a tag at a time instead of a call per byte (most tags of mail
// HTML are whole in the buffer). When the tag runs to lim it reports
// false having set only what readTag sets again from the tag's start.
func (z *htmlTokenizer) readTagBuffered(save int) bool {
	end, ok := z.tagIn(z.buf[:z.lim], z.raw.end, save)
	if ok {
		z.raw.end = end
	}
	return ok
}

// tagIn is readTagBuffered over b (the buffer to the limit) with the
// tag's name starting at i-1: it returns the end of the tag (after its
// ">"), or false when the tag runs to the end of b.
func (z *htmlTokenizer) tagIn(b []byte, i int, save int) (int, bool) {
	if i > len(b) || i < 1 {
		return 0, false
	}
	// readTagName: its first byte is read. The first loop stops at A-Z
	// and NUL too, so that a name with none (most) is known to be its own
	// lower-case form.
	name := i - 1
	lower := b[name]-'A' >= 26 && b[name] != 0
	for i < len(b) && !tagNameLowerStop[b[i]] {
		i++
	}
	if i < len(b) && !tagNameStop[b[i]] {
		lower = false
		for i < len(b) && !tagNameStop[b[i]] {
			i++
		}
	}
	if i >= len(b) {
		return 0, false
	}
	nameEnd := i
	if b[i] != '/' && b[i] != '>' {
		i++ // the white space that ends it
	}
	lastVal := -1 // the end of the last value of a named attribute, for saveURL
	for {
		for i < len(b) && isHTMLSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return 0, false
		}
		if b[i] == '>' {
			i++
			break
		}
		// readTagAttrKey: an "=" as its first byte is part of it.
		ks := i
		for {
			for i < len(b) && !attrKeyStop[b[i]] {
				i++
			}
			if i >= len(b) {
				return 0, false
			}
			if b[i] == '=' && i == ks {
				i++
				continue
			}
			break
		}
		ke := i
		// readTagAttrVal.
		vs, ve := ke, ke
		for i < len(b) && isHTMLSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case '/':
			i++
		case '=':
			i++
			for i < len(b) && isHTMLSpace(b[i]) {
				i++
			}
			if i >= len(b) {
				return 0, false
			}
			switch q := b[i]; q {
			case '>':
			case '\'', '"':
				i++
				j := bytes.IndexByte(b[i:], q)
				if j < 0 {
					return 0, false
				}
				vs, ve = i, i+j
				i += j + 1
			default:
				vs = i
				i++
				for i < len(b) && !unquotedStop[b[i]] {
					i++
				}
				if i >= len(b) {
					return 0, false
				}
				ve = i
				if b[i] != '>' {
					i++ // the white space that ends it
				}
			}
		}
		if ks == ke {
			continue
		}
		switch save {
		case saveAll:
			z.pendingAttr = [2]hspan{{ks, ke}, {vs, ve}}
			if z.newAttrName() {
				z.attr = append(z.attr, z.pendingAttr)
			}
		case saveURL:
			lastVal = ve
			if urlAttr(b[ks:ke]) != "" {
				z.pendingAttr = [2]hspan{{ks, ke}, {vs, ve}}
				if z.newAttrName() {
					z.attr = append(z.attr, z.pendingAttr)
				}
			}
		}
	}
	if save == saveURL && b[i-2] == '/' && lastVal == i-1 {
		// Whether the tag is self-closing depends on whether the value
		// that ends in its "/" is kept (readStartTag): the caller reads
		// it again keeping all.
		return 0, false
	}
	z.data = hspan{name, nameEnd}
	z.nameLower = lower
	return i, true
}

func isHTMLSpace(c byte) bool { return htmlSpace[c] }

// htmlSpace is the HTML standard's ASCII whitespace: a table, one load
// where five compares were.
var htmlSpace = byteSet(" \n\r\t\f")

// newAttrName reports whether the pending attribute's name (ASCII case
// folded) is not one of the tag's attributes yet.
func (z *htmlTokenizer) newAttrName() bool {
	k := z.buf[z.pendingAttr[0].start:z.pendingAttr[0].end]
	if !z.names {
		for _, a := range z.attr {
			if foldEqual(z.buf[a[0].start:a[0].end], k) {
				return false
			}
		}
		if len(z.attr) < attrScan {
			return true
		}
		// From here on, a map.
		if z.attrNames == nil {
			z.attrNames = make(map[string]struct{})
		}
		for _, a := range z.attr {
			z.attrNames[string(lowerASCII(nil, z.buf[a[0].start:a[0].end]))] = struct{}{}
		}
		z.names = true
	}
	z.key = lowerASCII(z.key[:0], k)
	if _, ok := z.attrNames[string(z.key)]; ok {
		return false
	}
	z.attrNames[string(z.key)] = struct{}{}
	return true
}

// foldEqual reports whether a and b are equal with A-Z folded to a-z
// and nothing else folded (x/net's lower).
func foldEqual(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// lowerASCII appends b to dst with A-Z lower-cased.
func lowerASCII(dst, b []byte) []byte {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// readTagName sets data to the tag's name; its first byte is read.
func (z *htmlTokenizer) readTagName() {
	z.nameLower = false
	z.data.start = z.raw.end - 1
	for {
		z.skipOver(tagNameStop)
		c := z.readByte()
		if z.err != nil {
			z.data.end = z.raw.end
			return
		}
		switch c {
		case ' ', '\n', '\r', '\t', '\f':
			z.data.end = z.raw.end - 1
			return
		case '/', '>':
			z.raw.end--
			z.data.end = z.raw.end
			return
		}
	}
}

// readTagAttrKey sets pendingAttr[0] to an attribute's name.
func (z *htmlTokenizer) readTagAttrKey() {
	z.pendingAttr[0].start = z.raw.end
	for {
		z.skipOver(attrKeyStop)
		c := z.readByte()
		if z.err != nil {
			z.pendingAttr[0].end = z.raw.end
			return
		}
		switch c {
		case '=':
			if z.pendingAttr[0].start+1 == z.raw.end {
				// An "=" before the name begins is part of it.
				continue
			}
			fallthrough
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			z.raw.end--
			z.pendingAttr[0].end = z.raw.end
			return
		}
	}
}

// readTagAttrVal sets pendingAttr[1] to an attribute's value.
func (z *htmlTokenizer) readTagAttrVal() {
	z.pendingAttr[1].start = z.raw.end
	z.pendingAttr[1].end = z.raw.end
	if z.skipWhiteSpace(); z.err != nil {
		return
	}
	c := z.readByte()
	if z.err != nil {
		return
	}
	if c == '/' {
		return
	}
	if c != '=' {
		z.raw.end--
		return
	}
	if z.skipWhiteSpace(); z.err != nil {
		return
	}
	quote := z.readByte()
	if z.err != nil {
		return
	}
	switch quote {
	case '>':
		z.raw.end--
		return
	case '\'', '"':
		z.pendingAttr[1].start = z.raw.end
		for {
			z.skipTo(quote)
			c := z.readByte()
			if z.err != nil {
				z.pendingAttr[1].end = z.raw.end
				return
			}
			if c == quote {
				z.pendingAttr[1].end = z.raw.end - 1
				return
			}
		}
	default:
		z.pendingAttr[1].start = z.raw.end - 1
		for {
			z.skipOver(unquotedStop)
			c := z.readByte()
			if z.err != nil {
				z.pendingAttr[1].end = z.raw.end
				return
			}
			switch c {
			case ' ', '\n', '\r', '\t', '\f':
				z.pendingAttr[1].end = z.raw.end - 1
				return
			case '>':
				z.raw.end--
				z.pendingAttr[1].end = z.raw.end
				return
			}
		}
	}
}

// Next reads the next token and returns its type.
func (z *htmlTokenizer) Next() htmlTokenType {
	z.raw.start = z.raw.end
	z.setLimit()
	z.data.start = z.raw.end
	z.data.end = z.raw.end
	if z.err != nil {
		z.tt = htmlErrorToken
		return z.tt
	}
	if z.rawTag != "" {
		if z.rawTag == "plaintext" {
			// Everything to the end of input.
			for z.err == nil {
				z.raw.end = z.lim
				z.readByte()
			}
			z.data.end = z.raw.end
			z.textIsRaw = true
		} else {
			z.readRawOrRCDATA()
		}
		if z.data.end > z.data.start {
			z.tt = htmlTextToken
			z.convertNUL = true
			return z.tt
		}
	}
	z.textIsRaw = false
	z.convertNUL = false

loop:
	for {
		// The next "<" and the byte after it: taken from the buffer when
		// both are before lim, else read with readByte (refill, limit).
		var c byte
		buffered := false
		if i, lim := z.raw.end, z.lim; i <= lim {
			j := 0
			if z.lt != i+1 {
				j = bytes.IndexByte(z.buf[i:lim], '<')
			}
			z.lt = 0
			switch {
			case j >= 0 && i+j+1 < lim:
				c = z.buf[i+j+1]
				z.raw.end = i + j + 2
				buffered = true
			case j >= 0:
				z.raw.end = i + j
			default:
				z.raw.end = lim
			}
		}
		if !buffered {
			c = z.readByte()
			if z.err != nil {
				break loop
			}
			if c != '<' {
				continue loop
			}
			c = z.readByte()
			if z.err != nil {
				break loop
			}
		}
		// Is the "<" the start of a tag, comment or doctype, or text?
		var tokenType htmlTokenType
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			tokenType = htmlStartTagToken
		case c == '/':
			tokenType = htmlEndTagToken
		case c == '!' || c == '?':
			tokenType = htmlCommentToken
		default:
			z.raw.end--
			continue
		}
		// Text before the tag is a token of its own, given first.
		if x := z.raw.end - len("<a"); z.raw.start < x {
			z.raw.end = x
			z.data.end = x
			z.lt = x + 1
			z.tt = htmlTextToken
			return z.tt
		}
		switch tokenType {
		case htmlStartTagToken:
			z.tt = z.readStartTag()
			return z.tt
		case htmlEndTagToken:
			c = z.readByte()
			if z.err != nil {
				break loop
			}
			if c == '>' {
				// "</>" is no token; x/net gives an empty comment.
				z.tt = htmlCommentToken
				return z.tt
			}
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
				z.readTag(false)
				if z.err != nil {
					z.tt = htmlErrorToken
				} else {
					z.tt = htmlEndTagToken
				}
				return z.tt
			}
			z.raw.end--
			z.readUntilCloseAngle()
			z.tt = htmlCommentToken
			return z.tt
		case htmlCommentToken:
			if c == '!' {
				z.tt = z.readMarkupDeclaration()
				return z.tt
			}
			z.raw.end--
			z.readUntilCloseAngle()
			z.tt = htmlCommentToken
			return z.tt
		}
	}
	if z.raw.start < z.raw.end {
		z.data.end = z.raw.end
		z.tt = htmlTextToken
		return z.tt
	}
	z.tt = htmlErrorToken
	return z.tt
}

// appendText appends the text of a text, comment or doctype token to
// dst, as x/net's Text gives it: CR LF and CR as LF, NUL as U+FFFD in
// raw text and comments, character references decoded but in raw text.
func (z *htmlTokenizer) appendText(dst []byte) []byte {
	switch z.tt {
	case htmlTextToken, htmlCommentToken, htmlDoctypeToken:
		return z.decode(dst, z.buf[z.data.start:z.data.end], z.convertNUL || z.tt == htmlCommentToken, !z.textIsRaw, false)
	}
	return dst
}

// tagName returns the lower-case name of a tag token, NUL as U+FFFD: the
// input's own bytes when they are that already (most names), else in a
// buffer of z's own; valid until the next Next, not to be modified.
func (z *htmlTokenizer) tagName() []byte {
	switch z.tt {
	case htmlStartTagToken, htmlEndTagToken, htmlSelfClosingTagToken:
		b := z.buf[z.data.start:z.data.end]
		if z.nameLower || isLowerNoNUL(b) {
			return b
		}
		z.name = lowerNUL(z.name[:0], b)
		return z.name
	}
	return nil
}

// isLowerNoNUL reports whether b holds no A-Z and no NUL, so that
// lowerNUL would give it unchanged.
func isLowerNoNUL(b []byte) bool {
	for _, c := range b {
		if c-'A' < 26 || c == 0 {
			return false
		}
	}
	return true
}

// attrCount is the number of attributes of a start tag token.
func (z *htmlTokenizer) attrCount() int {
	switch z.tt {
	case htmlStartTagToken, htmlSelfClosingTagToken:
		return len(z.attr)
	}
	return 0
}

// attrKey returns the lower-case name of attribute i, NUL as U+FFFD, as
// tagName does.
func (z *htmlTokenizer) attrKey(i int) []byte {
	a := z.attr[i][0]
	b := z.buf[a.start:a.end]
	if isLowerNoNUL(b) {
		return b
	}
	z.key = lowerNUL(z.key[:0], b)
	return z.key
}

// attrKeyRaw returns the name of attribute i as it stands in the input.
func (z *htmlTokenizer) attrKeyRaw(i int) []byte {
	a := z.attr[i][0]
	return z.buf[a.start:a.end]
}

// attrValRaw returns the value of attribute i as it stands (character
// references not decoded).
func (z *htmlTokenizer) attrValRaw(i int) []byte {
	a := z.attr[i][1]
	return z.buf[a.start:a.end]
}

// appendAttrVal appends the value of attribute i to dst: NUL as U+FFFD,
// CR LF and CR as LF, character references decoded by the rule of
// attribute values.
func (z *htmlTokenizer) appendAttrVal(dst []byte, i int) []byte {
	a := z.attr[i][1]
	return z.decode(dst, z.buf[a.start:a.end], true, true, true)
}

// lowerNUL appends b to dst with A-Z lower-cased and NUL as U+FFFD.
func lowerNUL(dst, b []byte) []byte {
	for _, c := range b {
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == 0:
			dst = append(dst, "\ufffd"...)
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// decode appends s to dst with CR LF and CR as LF, NUL as U+FFFD when
// nul, and character references decoded when refs (by the rule of
// attribute values when attr). x/net does these one after the other over
// the token; they do not meet (a reference holds no CR, NUL or "<", and
// what ends one is the same after either), so one pass does them all,
// copying the runs between the bytes that matter.
func (z *htmlTokenizer) decode(dst, s []byte, nul, refs, attr bool) []byte {
	// Most text holds no CR, NUL or "&": one look for each, one copy.
	cr, zero, amp := bytes.IndexByte(s, '\r'), -1, -1
	if refs {
		amp = bytes.IndexByte(s, '&')
	}
	if nul {
		zero = bytes.IndexByte(s, 0)
	}
	if cr < 0 && zero < 0 && amp < 0 {
		return append(dst, s...)
	}
	return z.decodeSlow(dst, s, cr, zero, amp, attr)
}

// decodeSlow is decode past its first look: cr, zero and amp are the
// offsets of the first CR, NUL and "&" in s, -1 for none (zero and amp
// also when they are not to be decoded).
func (z *htmlTokenizer) decodeSlow(dst, s []byte, cr, zero, amp int, attr bool) []byte {
	// The next CR, NUL and "&" at or after p (len(s): none), each found
	// by IndexByte and found again once passed: most text has few.
	next := func(c byte, from int) int {
		if j := bytes.IndexByte(s[from:], c); j >= 0 {
			return from + j
		}
		return len(s)
	}
	if cr < 0 {
		cr = len(s)
	}
	if zero < 0 {
		zero = len(s)
	}
	if amp < 0 {
		amp = len(s)
	}
	p := 0
	for {
		i := min(cr, zero, amp)
		dst = append(dst, s[p:i]...)
		if i == len(s) {
			return dst
		}
		switch s[i] {
		case '\r':
			dst = append(dst, '\n')
			p = i + 1
			if p < len(s) && s[p] == '\n' {
				p++
			}
			cr = next('\r', p)
		case 0:
			dst = append(dst, "\ufffd"...)
			p = i + 1
			zero = next(0, p)
		default: // '&'
			// The references that escaping tools write (html.EscapeString,
			// template engines) in full, with their ";": what charRef makes
			// of them in text and in values alike, without its scan.
			t := s[i+1:]
			switch {
			case len(t) >= 4 && string(t[:4]) == "amp;":
				dst, p = append(dst, '&'), i+5
			case len(t) >= 3 && string(t[:3]) == "lt;":
				dst, p = append(dst, '<'), i+4
			case len(t) >= 3 && string(t[:3]) == "gt;":
				dst, p = append(dst, '>'), i+4
			case len(t) >= 5 && string(t[:5]) == "quot;":
				dst, p = append(dst, '"'), i+6
			case len(t) >= 4 && string(t[:4]) == "#39;":
				dst, p = append(dst, '\''), i+5
			case len(t) >= 4 && string(t[:4]) == "#34;":
				dst, p = append(dst, '"'), i+5
			case len(t) >= 5 && string(t[:5]) == "nbsp;":
				dst, p = append(dst, "\u00a0"...), i+6
			default:
				var n int
				dst, n = z.charRef(dst, s[i:], attr)
				p = i + n
			}
			amp = next('&', p)
		}
		// A reference holds no CR or NUL: the others are still ahead.
	}
}

// charRef decodes the character reference at the start of s (which
// starts with "&") onto dst, by x/net's unescapeEntity, and returns the
// bytes of s it took; an "&" that starts none is given as it stands.
func (z *htmlTokenizer) charRef(dst, s []byte, attr bool) ([]byte, int) {
	if len(s) <= 1 {
		return append(dst, '&'), 1
	}
	i := 1
	if s[i] == '#' {
		if len(s) <= 2 {
			return append(dst, '&'), 1
		}
		i++
		c := s[i]
		hex := false
		if c == 'x' || c == 'X' {
			hex = true
			i++
		}
		i0 := i
		x := rune(0)
		for i < len(s) {
			c = s[i]
			var d rune
			var mult rune
			if hex {
				mult = 16
				if '0' <= c && c <= '9' {
					d = rune(c) - '0'
				} else if 'a' <= c && c <= 'f' {
					d = rune(c) - 'a' + 10
				} else if 'A' <= c && c <= 'F' {
					d = rune(c) - 'A' + 10
				} else {
					break
				}
			} else {
				mult = 10
				if '0' <= c && c <= '9' {
					d = rune(c) - '0'
				} else {
					break
				}
			}
			if x <= 0x10FFFF {
				x = mult*x + d
			}
			i++
		}
		if i == i0 {
			return append(dst, '&'), 1
		}
		if i < len(s) && s[i] == ';' {
			i++
		}
		if 0x80 <= x && x <= 0x9F {
			// Numbers of windows-1252 characters.
			x = windows1252[x-0x80]
		} else if x == 0 || (0xD800 <= x && x <= 0xDFFF) || x > 0x10FFFF {
			x = utf8.RuneError
		}
		return utf8.AppendRune(dst, x), i
	}
	// A name: the longest run of ASCII letters and digits, with the ";"
	// after it.
	for i < len(s) {
		c := s[i]
		i++
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			continue
		}
		if c != ';' {
			i--
		}
		break
	}
	name := s[1:i]
	switch {
	case len(name) == 0:
		return append(dst, '&'), 1
	case attr && name[len(name)-1] != ';' && i < len(s) && s[i] == '=':
		// In a value, "&copy=" is no reference (the HTML standard's
		// rule for query strings written without &amp;).
		return append(dst, '&'), 1
	}
	v, full := z.namedRef(name)
	if attr && !full {
		// In a value, only a whole name counts (no "&notit;" as "¬it;").
		return append(dst, '&'), 1
	}
	return append(dst, v...), i
}

// namedRef returns what x/net makes of "&" name in text (name: letters
// and digits, with or without a ";" after them), and whether it took the
// whole name (not a prefix of it, as text allows for the names that may
// go without ";"). The table of names is the standard library's (the
// same as x/net's, built on first use), through UnescapeString:
// for "&" name alone that gives the decoded name, or the decoded prefix
// and the rest of the name as it stands, or "&" name unchanged. A whole
// name decodes to one code point, or two when the name ends in ";"
// (x/net's entity2 names all do); a prefix leaves at least one letter or
// digit (and the ";") after its code point, so the count of code points
// tells the cases apart.
func (z *htmlTokenizer) namedRef(name []byte) (string, bool) {
	switch string(name) {
	case "amp;", "amp":
		return "&", true
	case "lt;", "lt":
		return "<", true
	case "gt;", "gt":
		return ">", true
	case "quot;", "quot":
		return `"`, true
	case "nbsp;", "nbsp":
		return "\u00a0", true
	}
	v, ok := z.entities[string(name)]
	if !ok {
		v = html.UnescapeString("&" + string(name))
		if z.entities == nil {
			z.entities = make(map[string]string)
		}
		if len(z.entities) < 256 && len(name) <= 40 {
			z.entities[string(name)] = v
		}
	}
	return v, isWholeRef(v, name)
}

func isWholeRef(v string, name []byte) bool {
	if len(v) == len(name)+1 && v[0] == '&' && v[1:] == string(name) {
		return false
	}
	n := utf8.RuneCountInString(v)
	return n == 1 || n == 2 && name[len(name)-1] == ';'
}

// windows1252 gives the code points of the numeric references 0x80-0x9F,
// as the HTML standard does.
var windows1252 = [32]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}
