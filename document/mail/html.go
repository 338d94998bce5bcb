package mail

import (
	"bytes"
	"io"
	"strings"
)

// maxHTMLToken bounds the memory of the HTML tokenizer.
const maxHTMLToken = 4 << 20

// htmlReadAhead bounds the visible text an HTML run's Read takes ahead.
const htmlReadAhead = 32 << 10

// maxBlankRun bounds the whitespace held back at the start of a run of
// visible text (runs of whitespace only are not given).
const maxBlankRun = 4 << 10

// tagKind tells what a tag does to visible text: nothing, end a line
// (a block element), or hide what it holds (script, style, template,
// noscript). A switch on the name: a map lookup per tag was a tenth of
// the time of HTML parts, and atom.Lookup's hash a fortieth.
func tagKind(name []byte) int {
	switch string(name) {
	case "br", "p", "div", "li", "tr", "td", "th", "h1", "h2", "h3",
		"h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol",
		"hr", "dd", "dt", "section", "article", "header", "footer", "title":
		return blockTag
	case "script", "style", "template", "iframe":
		// Not shown: code, a style sheet, and the fallback text of an
		// iframe (a browser shows the framed page). <noscript> is shown
		// by a mail reader, which runs no script (behaviour §9).
		return hidingTag
	}
	return otherTag
}

const (
	otherTag = iota
	blockTag
	hidingTag
)

// urlAttr returns the lower-case name of an attribute that holds a URL
// (behaviour §9), or that tells where one hides (style, and http-equiv and
// content of <meta>), given its name as it stands (A-Z in any case), or ""
// for any other. Most attributes of mail HTML (class, width...) are told
// apart by their length, with no copy of the name.
func urlAttr(k []byte) string {
	var n string
	switch len(k) {
	case 3:
		n = "src"
	case 5:
		n = "style"
	case 7:
		n = "content"
	case 4:
		switch k[0] | 0x20 {
		case 'h':
			n = "href"
		case 'c':
			n = "cite"
		case 'd':
			n = "data"
		default:
			return ""
		}
	case 6:
		switch k[0] | 0x20 {
		case 's':
			n = "srcset"
		case 'a':
			n = "action"
		case 'p':
			n = "poster"
		default:
			return ""
		}
	case 10:
		switch k[0] | 0x20 {
		case 'f':
			n = "formaction"
		case 'b':
			n = "background"
		case 'h':
			n = "http-equiv"
		case 'x':
			n = "xlink:href" // SVG 1.1
		default:
			return ""
		}
	default:
		return ""
	}
	if string(k) == n || equalFoldASCII(k, n) {
		return n
	}
	return ""
}

// tagString returns name as a string, without an allocation for the tags
// that hold URL attributes in most mail.
func tagString(name []byte) string {
	switch string(name) {
	case "a":
		return "a"
	case "img":
		return "img"
	case "link":
		return "link"
	case "td":
		return "td"
	case "table":
		return "table"
	case "form":
		return "form"
	case "base":
		return "base"
	case "area":
		return "area"
	case "meta":
		return "meta"
	case "div":
		return "div"
	case "span":
		return "span"
	case "p":
		return "p"
	case "th":
		return "th"
	case "tr":
		return "tr"
	case "body":
		return "body"
	case "font":
		return "font"
	case "script":
		return "script"
	case "iframe":
		return "iframe"
	}
	return string(name)
}

// htmlAttr is a URL attribute value waiting to be given.
type htmlAttr struct {
	tag, name, value, base string
	// at is where in out the tag stood when it was met. For the href of
	// an <a> read with Options.AnchorText (anchortext.go), end is where
	// its </a> stood (-1 before it), and text the part of its visible
	// text moved out of out before the walker took it.
	at, end int
	text    []byte
}

// htmlDoc reads an HTML stream with htmlTokenizer (x/net/html's tokens)
// into visible text (script, style, template and noscript contents left
// out; block elements end lines) and the values of URL attributes, which
// it holds in attrs as it meets them. A run of visible text ends at a tag
// that holds such a value, so the walker gives text and values in
// document order while only one tag's values are held.
type htmlDoc struct {
	z     htmlTokenizer
	src   io.Reader
	base  string // absolute base URI, "" when none
	bset  bool   // a <base href> has set base (the first one counts)
	where string // the part, for warnings
	w     *walker
	out   []byte // visible text; out[off:] not yet read
	off   int
	val   []byte // an attribute value, decoded
	attrs []htmlAttr
	body  strings.Reader // the Body of the attribute Part being given
	skip  int            // inside script/style/template... when > 0
	idx   htmlIndex      // fast's masks of the tokenizer's buffer
	run   htmlRun        // the Body of the text Parts, one for all
	// inStyle: inside <style>, whose text is searched for url(...)
	inStyle bool
	// The end of the run of visible text, once URL attribute values are
	// held (attrs not empty): cut, an index in out, or -1 while the run
	// goes on past their tag because the text before it ended inside a
	// word, which inline markup does not end (behaviour §9: "<a>.../
	// reviews.</a><a>cfm</a>" shows ".../reviews.cfm"). The run then ends
	// at the next whitespace of out from scan on (a block element and
	// <br> give a line break), or when what is held reaches its bounds.
	cut, scan, heldFrom, heldBytes int
	// last is the last byte the run has given (' ' before any).
	last byte
	raw  bool // past a token too long: the rest is read as it stands
	err  error

	// anchortext.go: the values met reading an anchor's text ahead,
	// given after it; whether the last tag read was </a>.
	held []htmlAttr
	aEnd bool
}

// html gives the Parts of an HTML body r: runs of visible text and URL
// attribute values, in document order (behaviour §9). base is the part's
// absolute base URI, "" when there is none (htmlBase).
func (w *walker) html(r io.Reader, base, self, where string) error {
	// The walker keeps one htmlDoc, its tokenizer and buffers, for the
	// HTML parts to come: the parts are read one after the other.
	d := w.hdoc
	if d == nil {
		d = &htmlDoc{}
		w.hdoc = d
	}
	d.reset(w, r, where)
	d.base = base
	d.run = htmlRun{d: d}
	run := &d.run
	for {
		if run.start() {
			if err := w.give(w.newPart(Part{Path: self, Source: SourceHTMLText, HTML: true, Body: run})); err != nil {
				return err
			}
			if _, err := io.Copy(io.Discard, run); err != nil {
				return err // a read error of the input
			}
		}
		for i := 0; i < len(d.attrs); i++ {
			a := d.attrs[i]
			text := ""
			if w.opts.AnchorText && isAnchor(&a) {
				text = d.anchorText(i) // anchortext.go
			}
			p := w.newPart(Part{Path: self, Source: SourceHTMLAttr, HTML: true, Tag: a.tag, Attr: a.name, Value: a.value, Base: a.base, Text: text})
			d.body.Reset(a.value)
			p.Body = &d.body
			if err := w.give(p); err != nil {
				return err
			}
			d.attrs[i] = htmlAttr{}
		}
		d.attrs, d.cut, d.heldBytes, d.last = d.attrs[:0], -1, 0, ' '
		if len(d.held) > 0 {
			// Values met inside an anchor read ahead: given after its
			// text, which is all in out.
			// out ends where the first of them was met: the run
			// after them ends there or at the end of its word, as if
			// they had been met reading it.
			for _, a := range d.held {
				d.hold(a.value)
			}
			d.attrs = append(d.attrs, d.held...)
			clear(d.held)
			d.held = d.held[:0]
		}
		if d.err != nil && len(d.out) == d.off {
			return nil
		}
	}
}

// reset readies d for the HTML body r, keeping buffers of the usual size.
func (d *htmlDoc) reset(w *walker, r io.Reader, where string) {
	d.z.reset(r, maxHTMLToken)
	d.src, d.base, d.bset, d.where, d.w = r, "", false, where, w
	d.skip, d.raw, d.err, d.inStyle = 0, false, nil, false
	d.cut, d.heldBytes, d.last = -1, 0, ' '
	if cap(d.out) > 64<<10 {
		d.out = nil
	}
	if cap(d.val) > 64<<10 {
		d.val = nil
	}
	d.out, d.off, d.val, d.attrs = d.out[:0], 0, d.val[:0], d.attrs[:0]
	d.held, d.aEnd = d.held[:0], false
}

func (d *htmlDoc) warn(msg string) { d.w.warn(d.where + ": " + msg) }

// htmlRun reads one run of visible text: up to the next tag that holds a
// URL attribute value, or the end.
type htmlRun struct{ d *htmlDoc }

// start reads on until the run holds something but whitespace, a tag with
// URL attribute values ends it, or the input ends; it reports whether the
// run is worth giving. Leading whitespace is held back up to maxBlankRun
// bytes, so memory stays bounded.
func (r *htmlRun) start() bool {
	d := r.d
	for !d.ends() && d.err == nil && !d.raw && len(d.out)-d.off < maxBlankRun {
		if len(bytes.TrimSpace(d.out[d.off:])) > 0 {
			return true
		}
		d.next()
	}
	if t := d.out[d.off:d.runEnd()]; len(bytes.TrimSpace(t)) > 0 || len(t) >= maxBlankRun || d.raw && d.err == nil {
		return true
	}
	// Whitespace only, up to the values held: dropped.
	d.moveAnchorText(d.runEnd()) // anchortext.go
	d.out, d.off = d.out[:copy(d.out, d.out[d.runEnd():])], 0
	if d.cut >= 0 {
		d.cut = 0
	}
	return false
}

// Bounds of what is held while a run goes on past a tag with URL
// attribute values: the values, their bytes, and the text after them.
const (
	maxHeldAttrs     = 16
	maxHeldAttrBytes = 64 << 10
	maxHeldText      = 4 << 10
)

// ends reports whether the run of visible text ends before what is now
// in out, at cut: values are held, and the run cannot go on past them.
func (d *htmlDoc) ends() bool {
	if len(d.attrs) == 0 {
		return false
	}
	if d.cut >= 0 {
		return true
	}
	// The first whitespace within maxHeldText bytes, else that count of
	// bytes: where the run ends does not depend on how much a read took.
	limit := min(len(d.out), d.heldFrom+maxHeldText)
	for i := d.scan; i < limit; i++ {
		if isHTMLSpace(d.out[i]) {
			d.cut = i
			return true
		}
	}
	d.scan = limit
	if limit == d.heldFrom+maxHeldText {
		d.cut = limit
		return true
	}
	if len(d.attrs) >= maxHeldAttrs || d.heldBytes >= maxHeldAttrBytes || d.err != nil || d.raw {
		d.cut = len(d.out)
		return true
	}
	return false
}

// runEnd is the end in out of what the run may give now: all of out but
// what stands past the end of the held word.
func (d *htmlDoc) runEnd() int {
	if d.ends() {
		return d.cut
	}
	return len(d.out)
}

// hold is told of a URL attribute value about to be held: the first of
// a run decides whether the run ends at once (the text before the tag is
// empty or ends in whitespace) or goes on to the end of its word.
func (d *htmlDoc) hold(v string) {
	d.heldBytes += len(v)
	if len(d.attrs) > 0 {
		return
	}
	d.cut = len(d.out)
	last := d.last
	if n := len(d.out); n > d.off {
		last = d.out[n-1]
	}
	if !isHTMLSpace(last) {
		d.cut, d.scan, d.heldFrom = -1, len(d.out), len(d.out)
	}
}

// Read gives the run's text. It reads tokens until p can be filled (or
// the run or the input ends): one Read for many tokens, where a Read per
// token cost a call through every reader above it.
func (r *htmlRun) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	d := r.d
	if want := min(len(p), htmlReadAhead); len(d.out)-d.off < want {
		// What is left moves to the front first, so that out stays
		// within htmlReadAhead and a token.
		d.moveAnchorText(d.off) // anchortext.go
		d.out = d.out[:copy(d.out, d.out[d.off:])]
		if d.cut > 0 {
			d.cut -= d.off
		}
		d.scan, d.heldFrom = max(0, d.scan-d.off), d.heldFrom-d.off
		d.off = 0
		for len(d.out) < want && !d.ends() && d.err == nil && !d.raw {
			if htmlFast {
				d.fast(want)
				if len(d.out) >= want || d.ends() {
					break
				}
			}
			d.next()
		}
	}
	if end := d.runEnd(); end > d.off {
		n := copy(p, d.out[d.off:end])
		d.off += n
		d.last = p[n-1]
		return n, nil
	}
	if len(d.attrs) > 0 {
		// At the values held: the text after them stays in out for the
		// next run.
		return 0, io.EOF
	}
	d.out, d.off = d.out[:0], 0
	switch {
	case d.err != nil:
		return 0, d.err
	}
	// Past a token too long (nothing else stops the loop above).
	n, err := d.src.Read(p)
	if err != nil {
		d.err = err
	}
	if n > 0 || err == nil {
		return n, nil
	}
	return 0, err
}

// next reads one token: its visible text goes to out, its URL attribute
// values to attrs.
func (d *htmlDoc) next() {
	z := &d.z
	tt := z.Next()
	switch tt {
	case htmlErrorToken:
		err := z.Err()
		if err == errHTMLTooLong {
			// Give the rest as it stands.
			d.warn("HTML token too long; the rest read as it stands")
			d.out = append(d.out, z.rest()...)
			d.raw = true
			return
		}
		d.err = err
	case htmlTextToken:
		if d.skip == 0 {
			d.out = z.appendText(d.out)
		} else if d.inStyle {
			// A style sheet: not shown, but its url(...) are fetched.
			d.val = z.appendText(d.val[:0])
			for _, u := range cssURLs(d.val) {
				d.attr("style", "", u)
			}
		}
	case htmlStartTagToken, htmlSelfClosingTagToken, htmlEndTagToken:
		d.tag(tt)
	}
}

// tag takes the tag token z has just read: what it does to the visible
// text, and its URL attribute values.
func (d *htmlDoc) tag(tt htmlTokenType) {
	z := &d.z
	{
		name := z.tagName()
		d.aEnd = tt == htmlEndTagToken && len(name) == 1 && name[0]|0x20 == 'a'
		if d.aEnd {
			d.endAnchor() // anchortext.go
		}
		switch tagKind(name) {
		case hidingTag:
			if tt == htmlStartTagToken {
				d.skip++
			} else if tt == htmlEndTagToken && d.skip > 0 {
				d.skip--
			}
		case blockTag:
			d.out = append(d.out, '\n')
		}
		if tt == htmlStartTagToken && string(name) == "style" {
			d.inStyle = true
		} else if tt == htmlEndTagToken && string(name) == "style" {
			d.inStyle = false
		}
		tag := ""
		refresh, content := false, -1
		for i := range z.attrCount() {
			k := urlAttr(z.attrKeyRaw(i))
			if k == "" {
				continue
			}
			switch k {
			case "http-equiv":
				refresh = refresh || string(name) == "meta" && equalFoldASCII(bytes.TrimSpace(z.appendAttrVal(d.val[:0], i)), "refresh")
				continue
			case "content":
				content = i
				continue
			case "style":
				if !containsFoldASCII(z.attrValRaw(i), "url") {
					continue // most style attributes: no copy, not even of the tag's name
				}
			}
			if tag == "" {
				tag = tagString(name)
			}
			d.val = z.appendAttrVal(d.val[:0], i)
			switch k {
			case "srcset":
				for _, u := range srcsetURLs(d.val) {
					d.attr(tag, "srcset", u)
				}
			case "style":
				for _, u := range cssURLs(d.val) {
					d.attr(tag, "style", u)
				}
			default:
				d.attr(tag, k, string(d.val))
			}
		}
		if refresh && content >= 0 {
			tag = "meta"
			d.val = z.appendAttrVal(d.val[:0], content)
			if u, ok := refreshURL(d.val); ok {
				d.attr(tag, "content", u)
			}
		}
	}
}

// htmlFast is whether htmlRun.Read takes tokens with fast; the tests
// turn it off to compare.
var htmlFast = true

// fast reads, without Next, the tokens of the data state that are whole
// before the tokenizer's limit: text (decoded as appendText does) and
// tags (by readTagBuffered), the tokens of nearly all mail HTML; Next
// and next cost more than the token itself. It stops at the start of a
// token that Next must read (a comment, a doctype, "</>", raw text after
// <style> or <title>, a token that runs to the limit, whatever the input
// holds past it) and when out holds want bytes or a URL attribute value
// is held, as the loop of Read would. A text token here is a run of bytes
// up to a "<" followed by a letter, "/", "!" or "?", as in Next; it is
// decoded piece by piece no differently than whole, since what decode
// changes (CR LF, references) never spans a "<".
func (d *htmlDoc) fast(want int) {
	z := &d.z
	if z.rawTag != "" || z.err != nil {
		return
	}
	z.lt = 0
	d.idx.reset()
	// The loop keeps the position and the buffer in locals and sets
	// raw where it stops: Next starts from there.
	buf, maxBuf := z.buf, z.maxBuf
	p := z.raw.end
	defer func() { z.raw.start, z.raw.end = p, p }()
	for len(d.out) < want && (len(d.attrs) == 0 || !d.ends()) {
		// Next's limit for a token starting at p.
		b := buf
		if l := p + maxBuf - 1; l < len(b) {
			b = b[:l]
		}
		if d.skip == 0 {
			// Lines of text and "<br>" first, as many as come.
			if d.out, p = d.idx.textAndBreaks(d.out, b, p, want); len(d.out) >= want {
				return
			}
		}
		if p+1 >= len(b) {
			return
		}
		c := b[p+1]
		if b[p] != '<' || !tagOpen[c] {
			// Text, to the next "<" that starts a tag or a comment.
			q, special := d.idx.textEnd(b, p)
			if q < 0 {
				return // runs to the limit: Next's
			}
			if d.skip == 0 {
				// decode's first looks, without its call.
				if !special {
					d.out = append(d.out, b[p:q]...)
				} else if out, ok := d.idx.appendText(d.out, b, p, q); ok {
					d.out = out
				} else {
					d.out = z.decode(d.out, b[p:q], false, true, false)
				}
			}
			// The token that ends it is read here, not by a second
			// textEnd at q (a fifth of the time of a tag and its text),
			// within the limit of a token that starts at q.
			p = q
			if len(d.out) >= want {
				return
			}
			b = buf
			if l := p + maxBuf - 1; l < len(b) {
				b = b[:l]
			}
			c = b[p+1] // textEnd saw it within the limit of the text
		}
		// A tag at p. First "<br>", "<p>", "</p>", "<div>" and "</div>",
		// most tags of mail HTML (one a line, in HTML written from text
		// and by mail programs): each is a line break (a blockTag, as tag
		// would append) with no attributes and no state to keep, read
		// here without tagIn and tag (a fifth of the time of a tag and
		// its text).
		if p+8 <= len(b) {
			if n := breakTagLen(b[p:]); n > 0 {
				d.out = append(d.out, '\n')
				p += n
				continue
			}
		}
		if len(d.attrs) > 0 && d.ends() {
			return // the run ends in the text before this tag
		}
		var tt htmlTokenType
		switch {
		case isASCIILetter(c):
			z.resetAttrs()
			end, ok := z.tagIn(b, p+2, saveURL)
			if !ok {
				return // Next reads it (keeping all attributes)
			}
			tt = htmlStartTagToken
			// As readStartTag (tagIn gave up on a tag where only the URL
			// attributes would not tell).
			if nAttrs := len(z.attr); b[end-2] == '/' && (nAttrs == 0 || end-2 != z.attr[nAttrs-1][1].end-1) {
				tt = htmlSelfClosingTagToken
			}
			if n := z.data.end - z.data.start; 3 <= n && n <= 9 {
				z.rawTag = rawTextElement(b[z.data.start:z.data.end])
			}
			p = end
		case c == '/' && p+2 < len(b) && isASCIILetter(b[p+2]):
			z.resetAttrs()
			end, ok := z.tagIn(b, p+3, saveNone)
			if !ok {
				return
			}
			tt = htmlEndTagToken
			p = end
		default:
			return
		}
		z.tt = tt
		d.tag(tt)
		if z.rawTag != "" {
			return
		}
	}
}

// tagOpen marks the bytes that make a "<" before them the start of a
// tag, an end tag, a comment or a doctype (Next's test).
var tagOpen = func() (t [256]bool) {
	for c := range t {
		t[c] = isASCIILetter(byte(c)) || c == '/' || c == '!' || c == '?'
	}
	return t
}()

// attr holds a URL attribute value as the tokenizer gives it (entity
// references decoded), with the base a relative reference resolves
// against; package extract reads it as the browser does (behaviour §9).
// A value that stays relative, with no base (most mail), is not a URI and
// is dropped here: held, it would end the run of visible text for nothing
// (and the lines of the URIs after it are counted in the run). The first
// <base href> that Options.ResolveBase makes an absolute URI, alone or
// against the part's base, is the base of the links after it (a browser
// applies it to those before too; a stream cannot, and <base> stands in
// <head>).
func (d *htmlDoc) attr(tag, name, raw string) {
	v := browserTrim(raw)
	if v == "" {
		return
	}
	if !hasScheme(v) {
		if d.base == "" {
			return
		}
		if tag == "base" && name == "href" && !d.bset {
			if t := d.w.resolveBase(d.base, v); t != "" {
				d.base, d.bset = t, true
			}
		}
	} else if tag == "base" && name == "href" && !d.bset {
		if t := d.w.resolveBase("", v); t != "" {
			d.base, d.bset = t, true
		}
	}
	d.hold(raw)
	d.attrs = append(d.attrs, htmlAttr{tag: tag, name: name, value: raw, base: d.base, at: len(d.out), end: -1})
}

// browserTrim is v as the WHATWG URL parser starts to read it: leading and
// trailing C0 controls and spaces stripped, inner tab, LF and CR removed.
func browserTrim(v string) string {
	// strings.Trim and ContainsAny build a set of bytes per call; a value
	// per link is worth these loops.
	i, j := 0, len(v)
	for i < j && v[i] <= ' ' {
		i++
	}
	for j > i && v[j-1] <= ' ' {
		j--
	}
	v = v[i:j]
	for k := 0; k < len(v); k++ {
		if c := v[k]; c <= '\r' && (c == '\t' || c == '\n' || c == '\r') {
			return strings.Map(func(r rune) rune {
				switch r {
				case '\t', '\n', '\r':
					return -1
				}
				return r
			}, v)
		}
	}
	return v
}

// srcsetURLs returns the URLs of a srcset value, by the parsing rules of
// the HTML standard (4.8.4.3.10): a URL is a run of characters but ASCII
// whitespace, commas at its end are not part of it, and its descriptors
// run to the next comma outside parentheses. So a URL may hold commas.
func srcsetURLs(v []byte) []string {
	var out []string
	isWS := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	i := 0
	for {
		for i < len(v) && (isWS(v[i]) || v[i] == ',') {
			i++
		}
		if i == len(v) {
			return out
		}
		j := i
		for j < len(v) && !isWS(v[j]) {
			j++
		}
		u := v[i:j]
		i = j
		if t := bytes.TrimRight(u, ","); len(t) < len(u) {
			// Commas at the end: no descriptors follow.
			out = append(out, string(t))
			continue
		}
		out = append(out, string(u))
		// Descriptors: to a comma outside parentheses.
		paren := false
		for i < len(v) {
			c := v[i]
			i++
			if c == '(' {
				paren = true
			} else if c == ')' {
				paren = false
			} else if c == ',' && !paren {
				break
			}
		}
	}
}

// hasScheme reports whether v starts with an RFC 3986 scheme and ":".
func hasScheme(v string) bool {
	if v == "" || !isASCIILetter(v[0]) {
		return false
	}
	for i := 1; i < len(v); i++ {
		c := v[i]
		switch {
		case c == ':':
			return true
		case isASCIILetter(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
		default:
			return false
		}
	}
	return false
}

// htmlBase is the base URI of an HTML part (behaviour §9.5): its own
// Content-Base or Content-Location, ref, resolved against the message's,
// msgRef, when relative (RFC 2557 5), else the message's; "" when that is
// not an absolute URI (Options.ResolveBase decides).
func (w *walker) htmlBase(ref, msgRef string) string {
	if ref == "" {
		return w.resolveBase("", msgRef)
	}
	if b := w.resolveBase("", ref); b != "" {
		return b
	}
	if m := w.resolveBase("", msgRef); m != "" {
		return w.resolveBase(m, ref)
	}
	return ""
}

// resolveBase is Options.ResolveBase, or no base when it is nil.
func (w *walker) resolveBase(base, ref string) string {
	if w.opts.ResolveBase == nil {
		return ""
	}
	return w.opts.ResolveBase(base, ref)
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
