package mail

import (
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxHTMLToken bounds the memory of the HTML tokenizer.
const maxHTMLToken = 4 << 20

// linkAttrs maps an attribute name to the elements whose attribute of that
// name holds a URI ("" = any element).
var linkAttrs = map[string]map[atom.Atom]bool{
	"href":       {atom.A: true, atom.Area: true, atom.Link: true, atom.Base: true},
	"src":        {0: true}, // img, iframe, frame, script, embed, source, audio, video, input, track...
	"action":     {atom.Form: true},
	"formaction": {atom.Button: true, atom.Input: true},
	"cite":       {atom.Blockquote: true, atom.Q: true, atom.Del: true, atom.Ins: true},
	"poster":     {atom.Video: true},
	"data":       {atom.Object: true},
	"background": {0: true},
	"longdesc":   {atom.Img: true, atom.Frame: true, atom.Iframe: true},
	"manifest":   {atom.Html: true},
	"srcset":     {atom.Img: true, atom.Source: true},
}

// blockTags end a line of visible text.
var blockTags = map[atom.Atom]bool{
	atom.Br: true, atom.P: true, atom.Div: true, atom.Li: true, atom.Tr: true,
	atom.Td: true, atom.Th: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Blockquote: true,
	atom.Pre: true, atom.Table: true, atom.Ul: true, atom.Ol: true,
	atom.Hr: true, atom.Dd: true, atom.Dt: true, atom.Section: true,
	atom.Article: true, atom.Header: true, atom.Footer: true, atom.Title: true,
}

// htmlText turns an HTML stream into its link targets, each on its own
// line as "<URL>" (so the extractor's angle rule takes it whole), and its
// visible text (script and style contents left out; block elements end
// lines), with the golang.org/x/net/html Tokenizer.
type htmlText struct {
	z    *html.Tokenizer
	src  io.Reader
	base *url.URL
	warn func(string)
	out  []byte
	buf  []byte
	skip int // inside script/style/template... when > 0
	raw  bool
	err  error
}

func newHTMLText(r io.Reader, base string, warn func(string)) io.Reader {
	h := &htmlText{z: html.NewTokenizer(r), src: r, warn: warn}
	h.z.SetMaxBuf(maxHTMLToken)
	if base != "" {
		if u, err := url.Parse(base); err == nil && u.IsAbs() {
			h.base = u
		}
	}
	return h
}

func (h *htmlText) Read(p []byte) (int, error) {
	for len(h.out) == 0 {
		if h.err != nil {
			return 0, h.err
		}
		if h.raw {
			n, err := h.src.Read(p)
			if err != nil {
				h.err = err
			}
			return n, err
		}
		h.out = h.buf[:0]
		h.next()
		h.buf = h.out[:0]
	}
	n := copy(p, h.out)
	h.out = h.out[n:]
	return n, nil
}

func (h *htmlText) next() {
	tt := h.z.Next()
	switch tt {
	case html.ErrorToken:
		err := h.z.Err()
		if err == io.EOF {
			h.err = io.EOF
			return
		}
		if err == html.ErrBufferExceeded {
			// Give the rest as it stands.
			h.warn("HTML token too long; the rest read as it stands")
			h.out = append(h.out, h.z.Raw()...)
			h.out = append(h.out, h.z.Buffered()...)
			h.raw = true
			return
		}
		h.err = err
	case html.TextToken:
		if h.skip == 0 {
			h.out = append(h.out, h.z.Text()...)
		}
	case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
		name, hasAttr := h.z.TagName()
		a := atom.Lookup(name)
		switch a {
		case atom.Script, atom.Style, atom.Template, atom.Noscript:
			if tt == html.StartTagToken {
				h.skip++
			} else if tt == html.EndTagToken && h.skip > 0 {
				h.skip--
			}
		}
		if blockTags[a] {
			h.out = append(h.out, '\n')
		}
		if tt == html.EndTagToken {
			return
		}
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = h.z.TagAttr()
			els, ok := linkAttrs[string(k)]
			if !ok || !(els[0] || els[a]) {
				continue
			}
			if string(k) == "srcset" {
				for _, c := range strings.Split(string(v), ",") {
					if f := strings.Fields(c); len(f) > 0 {
						h.link(a, f[0])
					}
				}
				continue
			}
			h.link(a, string(v))
		}
	}
}

// link writes a link target on its own line as "<URL>". A relative
// reference is resolved against the base (Content-Base, Content-Location
// or <base href>) when there is one.
func (h *htmlText) link(a atom.Atom, v string) {
	v = strings.Map(func(r rune) rune {
		switch r {
		case '\t', '\n', '\r', '\f':
			return -1
		}
		return r
	}, strings.TrimSpace(v))
	if v == "" {
		return
	}
	if u, err := url.Parse(v); err == nil && !u.IsAbs() && h.base != nil {
		v = h.base.ResolveReference(u).String()
	} else if err == nil && u.IsAbs() && a == atom.Base {
		h.base = u
	}
	v = strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20").Replace(v)
	h.out = append(h.out, "\n<"...)
	h.out = append(h.out, v...)
	h.out = append(h.out, ">\n"...)
}
