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

// isAnchor reports whether a is the href of an <a>, whose visible text
// is its anchor text.
func isAnchor(a *htmlAttr) bool { return a.tag == "a" && a.name == "href" }

// anchorText returns the visible text of the <a> whose href is
// d.attrs[i], collapsed: what out holds from its tag to its </a>, to the
// next tag with a URL value, or (for the last value held, its anchor
// still open) what is read ahead up to one of those, the end of the
// input or maxAnchorRead bytes. The text stays in out, to be given as
// visible text as without AnchorText: the document order of what is
// given does not change. Values met reading ahead (an <img src> inside
// the anchor) are held, and given after that text.
func (d *htmlDoc) anchorText(i int) string {
	n := len(d.attrs)
	if i == n-1 {
		for d.attrs[i].end < 0 && len(d.attrs) == n && d.err == nil && !d.raw && len(d.out)-d.attrs[i].at < maxAnchorRead {
			d.next()
		}
	}
	a := &d.attrs[i]
	stop := a.end
	if stop < 0 {
		stop = len(d.out)
		if i+1 < len(d.attrs) {
			stop = d.attrs[i+1].at
		}
	}
	if len(d.attrs) > n {
		d.held = append(d.held, d.attrs[n:]...)
		clear(d.attrs[n:])
		d.attrs = d.attrs[:n]
	}
	text := d.out[a.at:max(a.at, stop)]
	if len(a.text) > 0 {
		text = append(a.text, text...)
	}
	return collapseSpace(text, maxAnchorText)
}

// endAnchor is told of an </a>: it ends the text of the last value held
// when that is an anchor's.
func (d *htmlDoc) endAnchor() {
	if n := len(d.attrs); n > 0 && isAnchor(&d.attrs[n-1]) && d.attrs[n-1].end < 0 {
		d.attrs[n-1].end = len(d.out)
	}
}

// moveAnchorText is told that out[:n], given or dropped, is about to be
// moved out of out: the anchors' text in it is kept (up to maxAnchorRead
// bytes each), and the places in out of the values held move with the
// rest.
func (d *htmlDoc) moveAnchorText(n int) {
	if n == 0 {
		return
	}
	for i := range d.attrs {
		a := &d.attrs[i]
		if d.w.opts.AnchorText && isAnchor(a) && a.at < n {
			stop := n
			if a.end >= 0 {
				stop = min(stop, a.end)
			} else if i+1 < len(d.attrs) {
				stop = min(stop, d.attrs[i+1].at)
			}
			if room := maxAnchorRead - len(a.text); room > 0 && stop > a.at {
				a.text = append(a.text, d.out[a.at:min(stop, a.at+room)]...)
			}
		}
		a.at = max(0, a.at-n)
		if a.end >= 0 {
			a.end = max(0, a.end-n)
		}
	}
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
