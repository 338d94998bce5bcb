package scan

import "testing"

// Behaviour §2.3 (revision 5): urn:, data:, geo: and sms: must show their
// shape, as tel: and mid: do, checked after trailing punctuation.
func TestShapesRev5(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		// RFC 8141: urn:NID:NSS.
		{"   syntax of URN:NBNs.  That syntax", nil},
		{"     <urn:spppAddRequest>\n", nil},
		{"   urn:dvb:<NSS>\n", nil},
		{"urn:isbn:0451450523.", []string{"urn:isbn:0451450523"}},
		{"<urn:ietf:params:xml:ns:yang:ietf-interfaces>", []string{"urn:ietf:params:xml:ns:yang:ietf-interfaces"}},
		{"urn:a:b urn:-ab:c urn:ab-:c", nil},
		// RFC 2397: data: holds a ','.
		{"Data:Secret data:ErrorData", nil},
		{"data:,A%20brief%20note", []string{"data:,A%20brief%20note"}},
		// RFC 5870: geo: starts with two numbers; the vCard property is not one.
		{"           GEO:geo:37.386013,-122.082932\n", []string{"geo:37.386013,-122.082932"}},
		{"geo:lat,lon geo:1,x", nil},
		{"<geo:-1.5,2>", []string{"geo:-1.5,2"}},
		// RFC 5724: sms: holds a number.
		{"E2U+sms:tel and E2U+sms:mailto", nil},
		{"sms:+15105550101?body=hi", []string{"sms:+15105550101?body=hi"}},
	})
}

// Behaviour §2.3 (revision 5): inside <...> any permanent scheme is found,
// without "//" too; XML elements named with a scheme's prefix are not.
func TestPermanentInAngle(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		{"      To: Winnie the Pooh <im:pooh@100akerwood.com>\n", []string{"im:pooh@100akerwood.com"}},
		{"URI of the form <pres:user@domain> but", []string{"pres:user@domain"}},
		{"open <about:blank> in", []string{"about:blank"}},
		{"   If: (<opaquelocktoken:f81d4fae-7dec-11d0-a765-00a0c91e6bf6>)", []string{"opaquelocktoken:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"}},
		{"<URL:im:a@b.example>", []string{"im:a@b.example"}},
		// Not permanent, or not in <...>.
		{"<content:encoded> im:pooh@100akerwood.com about:blank", nil},
		// XML: an element alone on its line, a tag after, camelCase,
		// attributes, an empty element, "element" after it.
		{"      <info:uri>\n         xcon:x@example.com\n", nil},
		{"   S:     <iris:answer>\n", nil},
		{"x <info:display-text>Alice</info:display-text>", nil},
		{"x <info:purpose> <info:x>", []string{"info:x"}},
		{"Support for <iris:lookupEntity> ....", nil},
		{"the <DAV:error> element", nil},
		{"the <iris:answer> element", nil},
		{"x <DAV:resource/> y", nil},
		{`<info:endpoint entity="sip:Alice@example.com">`, []string{"sip:Alice@example.com"}},
	})
}

// Behaviour §2.3 (revision 5): an SLP service URL keeps its head.
func TestServiceURL(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		{"   will match the URL service:printer:lpr://hostname and\n", []string{"service:printer:lpr://hostname"}},
		{"      ; service:fcip:entity://192.0.2.0:4000\n", []string{"service:fcip:entity://192.0.2.0:4000"}},
		{"service:tftp://myhost", []string{"service:tftp://myhost"}},
		{"myservice:lpr://h/q", []string{"lpr://h/q"}},
		{"service:a:b:lpr://h/q", []string{"lpr://h/q"}},
	})
}

// Behaviour §2.1, §3.7, §3.9 and §4 (revision 5): emphasis, balanced
// quotes, an unbalanced ']', joiners and fullwidth delimiters.
func TestEndsRev5(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		// Emphasis after whitespace or the start of the text.
		{"_http://foo.com/bar_", []string{"http://foo.com/bar"}},
		{"see *http://foo.com/bar*.", []string{"http://foo.com/bar"}},
		{"see _http://a.example/b_c_ now", []string{"http://a.example/b_c"}},
		{"READ_DATA:ALLOW x_http://a/b", nil},
		{"x*http://a/c*", []string{"http://a/c*"}},
		// A ' closing one opened inside the URI stays.
		{"http://foo.com/blah_blah_'singlequoted'", []string{"http://foo.com/blah_blah_'singlequoted'"}},
		{"http://example.org/a'b'.", []string{"http://example.org/a'b'"}},
		{"http://a/b' and http://a/b's", []string{"http://a/b", "http://a/b's"}},
		// An unbalanced ']' ends a bare URI; an IP literal balances.
		{"[IMG: http://x.example/a.jpg][2]", []string{"http://x.example/a.jpg"}},
		{"sel=\"*/list/entry[@uri='sip:bill@example.com']/cs\"", []string{"sip:bill@example.com"}},
		{"http://[::1]/a]", []string{"http://[::1]/a"}},
		// ZWJ and ZWNJ after a letter, mark or symbol stay.
		{"http://lyricstranslate.com/en/someone-you-നിന്നെ-പോലൊരാള്\u200d.html", []string{"http://lyricstranslate.com/en/someone-you-നിന്നെ-പോലൊരാള്\u200d.html"}},
		{"http://a.example/\U0001F468\u200d\U0001F469 x", []string{"http://a.example/\U0001F468\u200d\U0001F469"}},
		{"<http://a.example/\u0645\u200c\u0647>", []string{"http://a.example/\u0645\u200c\u0647"}},
		{"http://a.example/x\u200d y", []string{"http://a.example/x"}},
		{"http://a.example/\u200dz http://a.example/b\u200bc", []string{"http://a.example/", "http://a.example/b"}},
		// Fullwidth delimiters end a URI.
		{"http://a.example/b｜c http://a.example/d＞e http://a.example/f＼", []string{"http://a.example/b", "http://a.example/d", "http://a.example/f"}},
		// file:/// names the root.
		{"file:/// and http:///", []string{"file:///"}},
	})
}

func TestBadAtJoiner(t *testing.T) {
	if k := BadAt("http://a.example/\u0645\u200c\u0647"); k != -1 {
		t.Errorf("ZWNJ between letters: BadAt %d, want -1", k)
	}
	if k := BadAt("http://a.example/\u200c"); k != 17 {
		t.Errorf("ZWNJ after '/': BadAt %d, want 17", k)
	}
}
