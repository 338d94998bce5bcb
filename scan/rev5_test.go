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
