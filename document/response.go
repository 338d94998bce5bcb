package document

import (
	"errors"
	"io"
	"strings"

	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/document/warc"
)

// SourceHTTPHeader is the Source of a link in a header field of an HTTP
// response (a redirect's Location in a WARC response record): Field
// names it, Value holds it, Base is the record's target URI.
const SourceHTTPHeader = mail.SourceHTTPHeader

// record gives the documents of a WARC record's block, body, by the
// record's type (behaviour §9, revision 5): a response holding an HTTP
// message is read as the browser receives it; request, metadata and
// warcinfo records are not searched (a request's Referer is no link of
// the page); any other record (conversion, resource, revisit) is text.
func (w *MessageReader) record(m *Message, body io.Reader, fn func(*Document) error) error {
	switch strings.ToLower(m.warcType) {
	case "request", "metadata", "warcinfo":
		return nil
	case "response":
		mt, _ := mail.ParseMediaType(m.warcContentType)
		if mt == "application/http" {
			return w.response(m, body, fn)
		}
	}
	w.doc = Document{Origin: m.Origin, Body: body}
	return fn(&w.doc)
}

// response reads the HTTP response of a record: its Location (a link,
// resolved against the target URI), then its body, decoded by its
// Content-Encoding and read by its media type as a mail part is (HTML
// with the target URI as base). A block that holds no HTTP response is
// read as text, with a warning; a body that does not decode is read as
// far as it does, with a warning.
func (w *MessageReader) response(m *Message, body io.Reader, fn func(*Document) error) error {
	resp, err := warc.ReadHTTPResponse(body)
	if err != nil {
		w.warnRecord(m, "not an HTTP response ("+err.Error()+"); not searched")
		return nil
	}
	base := targetBase(m.Origin.TargetURI)
	if loc := resp.Get("Location"); loc != "" {
		w.doc = Document{Origin: m.Origin, Body: strings.NewReader(loc), Value: loc, Base: base}
		w.doc.Source, w.doc.Field = SourceHTTPHeader, "Location"
		if err := fn(&w.doc); err != nil {
			return err
		}
	}
	if resp.Body == nil {
		w.warnRecord(m, "HTTP body in the unknown content coding \""+resp.Unsupported+"\"; not searched")
		return nil
	}
	mediaType, charset := mail.ParseMediaType(resp.Get("Content-Type"))
	if mediaType == "" {
		return nil // no media type: a browser sniffs; urix does not guess
	}
	w.cur, w.fn = m, fn
	defer func() { w.cur, w.fn = nil, nil }()
	err = w.mw.WalkBody(resp.Body, mediaType, charset, base, w.mailOptions(), w.partFn)
	var be *warc.BodyError
	if errors.As(err, &be) {
		w.warnRecord(m, be.Error()+"; read as far as it decodes")
		return nil
	}
	return err
}

// warnRecord tells Warn of something wrong in record m.
func (w *MessageReader) warnRecord(m *Message, msg string) {
	if w.Warn != nil {
		w.Warn(Warning{Origin: m.Origin, Message: msg})
	}
}

// targetBase is a WARC-Target-URI as a base URI: WARC 1.0 wrote it in
// "<...>", which some files still do.
func targetBase(t string) string {
	t = strings.TrimSpace(t)
	if len(t) >= 2 && t[0] == '<' && t[len(t)-1] == '>' {
		t = t[1 : len(t)-1]
	}
	return t
}
