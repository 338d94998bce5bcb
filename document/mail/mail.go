// Package mail is urix's mail and news input layer: it reads a single
// RFC 5322 message, a Usenet article or an mbox, walks each message part by
// part (multipart of any depth, message/rfc822 inside), decodes transfer
// encodings and charsets to UTF-8, unflows format=flowed text, turns HTML
// into its link targets and visible text, and hands each piece of text to a
// callback for URI extraction.
//
// Header fields given (Source SourceHeader, Field set, value decoded per RFC 2047): every field
// whose name begins with "List-" (RFC 2369, RFC 2919: List-Unsubscribe,
// List-Subscribe, List-Post, List-Help, List-Archive, List-Owner, List-Id,
// ...), Archived-At (RFC 5064), X-Archived-At, Content-Location and
// Content-Base (RFC 2557, RFC 2110; also in MIME part headers, then with the
// part's Path), Link, X-Url, X-Uri, X-Original-Url, X-Homepage,
// X-Mailing-List, Organization and X-Complaints-To. No other field is given:
// in particular never Message-ID, References, In-Reply-To, Content-ID,
// Return-Path, Received, or the address fields (From, To, Cc, ...).
// The header fields of a message/rfc822 part are given with that part's Path
// (its MessageID stays the outer message's).
//
// Parts given (behaviour §9): every text/* part (attachments included),
// decoded to UTF-8; text/plain format=flowed unflowed; text/html (and
// application/xhtml+xml) as runs of visible text and, each as a Part of
// its own, the values of the attributes that hold URLs (href, src, srcset
// entries, action, formaction, cite, poster, background, data), each with
// the base a relative one resolves against (<base href>, Content-Base or
// Content-Location, as Options.ResolveBase judges them). The walker reads;
// it judges no URI: what a value gives is package extract's to decide. The
// media type is the text before the first ";" of Content-Type, whatever
// the parameters after it; other media types (application/octet-stream,
// image/*, ...) are never searched, whatever their parameters say. A
// missing Content-Type is text/plain (message/rfc822 in a multipart/digest);
// one that holds no type/subtype is read as text/plain. Multipart
// preambles and epilogues are skipped; a multipart whose boundary never
// appears is read as one text body, streamed. A <meta charset> in HTML is
// not looked at, only the MIME charset parameter.
//
// Every Part says where its text came from (Source: body, header field,
// HTML visible text, HTML attribute), besides the message number, its
// offset, its Message-ID and the part path. What Walk gives does not
// depend on how r splits the input into reads.
//
// Bad mail is read, not refused: unknown charsets and transfer encodings are
// read as they stand, broken base64 is decoded as far as it can be, missing
// or mismatched boundaries end the parts they should have ended, malformed
// header lines end the header; each such problem is reported through
// Options.Warn and every other part and message is still read.
//
// Libraries: github.com/emersion/go-message parses the header fields,
// decodes RFC 2047 words and, with golang.org/x/text, the charsets. The
// splitting of multiparts and the quoted-printable and base64 decoders are
// this package's own, because bad mail must be read, not refused:
// go-message's multipart reader gives up on the whole multipart at one bad
// part header or at mixed line endings, and the standard library's
// decoders stop at the first bad byte, losing the rest of the part.
package mail

import (
	"errors"
	"fmt"
	"io"
)

// Format is the kind of input.
type Format uint8

const (
	FormatText Format = iota // plain text, not mail
	FormatMail               // one RFC 5322 message
	FormatMbox               // a stream of messages, mboxo/mboxrd
	FormatNews               // one Usenet article (read like mail)
)

// String returns the name of f, as document.ParseFormat reads it.
func (f Format) String() string {
	switch f {
	case FormatText:
		return "text"
	case FormatMail:
		return "mail"
	case FormatMbox:
		return "mbox"
	case FormatNews:
		return "news"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Source says where the text of a Part came from (behaviour §9).
type Source uint8

const (
	// SourceBody: the decoded text of a text part that is not HTML (for
	// FormatText, the whole input).
	SourceBody Source = iota
	// SourceHeader: the decoded value of a header field; Part.Field names it.
	SourceHeader
	// SourceHTMLText: a run of the visible text of an HTML part.
	SourceHTMLText
	// SourceHTMLAttr: the value of an HTML attribute that holds a URL;
	// Part.Attr and Part.Tag name it, Part.Value holds it.
	SourceHTMLAttr
	// SourceHTTPHeader: a header field of an HTTP response that holds a
	// link (a redirect's Location, in a WARC response record); Field
	// names it, Value holds it, Base is the URI it resolves against.
	SourceHTTPHeader
)

// String returns the name of s as --json gives it: "body", "header",
// "html_text", "html_attr" or "http_header".
func (s Source) String() string {
	switch s {
	case SourceBody:
		return "body"
	case SourceHeader:
		return "header"
	case SourceHTMLText:
		return "html_text"
	case SourceHTMLAttr:
		return "html_attr"
	case SourceHTTPHeader:
		return "http_header"
	}
	return fmt.Sprintf("Source(%d)", uint8(s))
}

// Part is one piece of decoded text to search for URIs.
//
// An HTML part is given as several Parts, in document order, all with the
// same Path and HTML set: runs of visible text (SourceHTMLText), each
// ended by a tag that holds a URL attribute, and one Part for each such
// attribute value (SourceHTMLAttr; one per srcset entry). Runs that are
// only whitespace are left out.
type Part struct {
	MsgNo     int    // 1-based number of the message in the input
	MsgOffset int64  // byte offset of the message's first byte in the input (for an mbox, of its "From " line)
	MessageID string // the Message-ID, without <>; "" when none
	Path      string // MIME part path as in IMAP: "1", "1.2", ...; "" for a header field of the message itself
	Source    Source // where the text came from
	Field     string // header field name (canonical case) when Source is SourceHeader, else ""
	HTML      bool   // the text comes from a text/html part

	// Tag and Attr name the element (lower case, "a", "img") and the
	// attribute ("href", "srcset") of a SourceHTMLAttr Part; "" otherwise.
	Tag, Attr string
	// Text is, for the href of an <a> or <area>, the link's visible
	// text: whitespace collapsed, trimmed, at most 256 bytes (behaviour
	// §10); "" otherwise.
	Text string
	// Value is, for a SourceHTMLAttr Part, the attribute value as the
	// HTML tokenizer gives it: entity references decoded, nothing else;
	// Body reads it as it stands. What it gives is extract's to decide:
	// extract.AttrReader reads it as the recipient's browser reads it
	// (behaviour §9), one candidate resolved against Base, or text to
	// search when it does not start with a URI. A value that is a
	// relative reference where there is no base is not given.
	Value string
	// Base is, for a SourceHTMLAttr Part, the absolute URI a relative
	// Value resolves against: the first <base href>, else the part's
	// Content-Location or the message's Content-Base, else (WARC) the
	// record's target URI; "" when there is none.
	Base string

	Body io.Reader // UTF-8 text; valid only during the callback
}

// Options tell Walk how to read.
type Options struct {
	Format Format
	Warn   func(msgNo int, msg string) // bad mail is read, not refused: report here (may be nil)
	// AnchorText gives the visible text of each <a> with its href
	// (Part.Text, behaviour §10): the walker reads the anchor's text
	// ahead, which costs a little on HTML full of links.
	AnchorText bool
	// Note, when set, is told instead of Warn of what a mail reader
	// tolerates without a word (behaviour §9, data-quality warnings): a
	// missing closing boundary, an unknown charset label, 8-bit bytes in
	// a header.
	Note func(msgNo int, msg string)
	// ResolveBase decides the base URI of HTML (behaviour §9.5): it
	// returns the absolute URI that ref gives, read against base (ref
	// alone when base is ""), or "" when it gives none. The walker asks
	// it of a part's Content-Base or Content-Location (against the
	// message's), of the first <base href>, and of WalkBody's base; it
	// judges no URI itself. extract.ResolveBase is urix's rule. When nil,
	// HTML has no base: Base is "", and relative references are not
	// given.
	ResolveBase func(base, ref string) string
}

// bufSize is the size of every line buffer: lines longer than this are
// read in pieces, so memory never depends on the input.
const bufSize = 64 << 10

// errStop wraps an error returned by fn so that it is passed through as is.
type stopError struct{ err error }

func (e stopError) Error() string { return e.err.Error() }

// Walk reads messages from r (one message for FormatMail and FormatNews, a
// stream of messages for FormatMbox; for FormatText, fn is called once with
// r itself as the Body of part "1" of message 1) and calls fn for each header field that may carry URIs and each text
// part. It streams: memory does not grow with the input. fn is given one
// Part, set anew for each call: the Part and its Body are valid only
// during the call. An error returned by fn stops the walk and is returned;
// a read error of r is returned.
func Walk(r io.Reader, opts Options, fn func(*Part) error) error {
	w := &walker{opts: opts, fn: fn}
	var err error
	if opts.Format == FormatText {
		w.msgNo = 1
		err = w.give(w.newPart(Part{Path: "1", Body: r}))
	} else if opts.Format == FormatMbox {
		err = w.walkMbox(r)
	} else {
		var wk PartWalker
		return wk.WalkMessage(r, opts, fn)
	}
	var se stopError
	if errors.As(err, &se) {
		return se.err
	}
	return err
}
