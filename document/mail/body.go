package mail

import (
	"errors"
	"io"
	"strings"
)

// WalkBody reads r, a body that is not a message (the payload of an HTTP
// response in a WARC record), as a mail part of media type mediaType and
// charset charset is read (behaviour §9): text/html and
// application/xhtml+xml as HTML, whose relative references resolve
// against base when opts.ResolveBase makes it an absolute URI (the first
// <base href> wins over it); any other text as
// text; anything else (images, fonts, archives) is not searched. fn is
// given Parts with MsgNo 0 and Path "", as Walk gives them.
func (wk *PartWalker) WalkBody(r io.Reader, mediaType, charset, base string, opts Options, fn func(*Part) error) error {
	w := &wk.w
	w.opts, w.fn = opts, fn
	w.msgNo, w.msgOff, w.msgID = 0, 0, ""
	defer func() { w.fn = nil }()
	mediaType = strings.ToLower(strings.TrimSpace(mediaType))
	html := mediaType == "text/html" || mediaType == "application/xhtml+xml"
	if !html && !IsTextMediaType(mediaType) {
		return nil
	}
	dec := r
	if cs := strings.ToLower(strings.TrimSpace(charset)); cs != "" {
		dec = w.decodeCharset(r, cs, "body")
	}
	var err error
	if html {
		err = w.html(dec, w.resolveBase("", base), "", "body")
	} else {
		err = w.give(w.newPart(Part{Body: dec}))
	}
	w.release(dec)
	var se stopError
	if errors.As(err, &se) {
		return se.err
	}
	return err
}

// IsTextMediaType reports whether a body of media type t (lower case,
// no parameters) is text a reader reads: text/*, and the application
// types that are text (JSON, XML, JavaScript and their +xml, +json).
func IsTextMediaType(t string) bool {
	switch {
	case strings.HasPrefix(t, "text/"),
		t == "application/json", t == "application/xml", t == "application/javascript",
		t == "application/ecmascript", t == "application/x-javascript",
		strings.HasPrefix(t, "application/") && (strings.HasSuffix(t, "+xml") || strings.HasSuffix(t, "+json")):
		return true
	}
	return false
}

// ParseMediaType returns the media type of a Content-Type value (lower
// case, the text before the first ";", behaviour §9) and its charset
// parameter, read as a mail part's are.
func ParseMediaType(v string) (mediaType, charset string) {
	t, params, ok := parseContentType(v)
	if !ok {
		return "", ""
	}
	return t, params.get("charset")
}
