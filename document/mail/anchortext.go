package mail

import (
	"unicode"
	"unicode/utf8"
)

// maxAnchorText is the most of an anchor's visible text given (behaviour
// §10), in bytes, after its whitespace is collapsed.
const maxAnchorText = 256

// maxAnchorRead bounds the visible text read ahead for an anchor's text,
// whitespace included: memory stays bounded whatever the anchor holds.
const maxAnchorRead = 4096

// anchorText reads ahead the visible text of the <a> whose href is being
// given, up to its </a> (or a tag with a URL value of its own, the end of
// the input, or maxAnchorRead bytes), and returns it collapsed. The text
// read stays in d.out, to be given as visible text after the href as
// before: the document order of what is given does not change. Values
// met on the way (an <img src> inside the anchor) are held, and given
// after that text.
func (d *htmlDoc) anchorText() string {
	n, start := len(d.attrs), len(d.out)
	d.aEnd = false
	for !d.aEnd && len(d.attrs) == n && d.err == nil && !d.raw && len(d.out)-start < maxAnchorRead {
		d.next()
	}
	if len(d.attrs) > n {
		d.held = append(d.held, d.attrs[n:]...)
		clear(d.attrs[n:])
		d.attrs = d.attrs[:n]
	}
	return collapseSpace(d.out[start:], maxAnchorText)
}

// collapseSpace returns b with each run of white space (Unicode's, NBSP
// included) one space, trimmed, cut to at most max bytes at a character
// boundary.
func collapseSpace(b []byte, max int) string {
	out := make([]byte, 0, min(len(b), max))
	space := false
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if unicode.IsSpace(r) {
			space = len(out) > 0
			continue
		}
		if space {
			if len(out)+1 > max {
				break
			}
			out = append(out, ' ')
			space = false
		}
		if len(out)+size > max {
			break
		}
		out = append(out, b[i-size:i]...)
	}
	return string(out)
}
