package scan

import (
	"strings"
	"testing"
)

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
		{"<file:///> (file:///)", []string{"file:///", "file:///"}},
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

// Behaviour §3.6 and §3.7 (revision 5): '...', line breaks inside "..."
// and (...), schemaLocation lists, RFC 8792 folds in every context.
func TestQuotesAndBreaksRev5(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		// '...' ends at the next ' on the line.
		{"   <starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>\n", []string{"urn:ietf:params:xml:ns:xmpp-tls"}},
		{"urlopen('http://a.example/b').read()", []string{"http://a.example/b"}},
		{"'http://foo.com/bar'more", []string{"http://foo.com/bar"}},
		{"'http://a.example/b c'", []string{"http://a.example/b"}},
		{"'http://a.example/b\nc'", []string{"http://a.example/b"}},
		{"'urn:ietf:params:xml:pi:<id>'", []string{"urn:ietf:params:xml:pi:<id>"}},
		// The narrowed quoted-break rule: hdrext: and uuid: are no schemes
		// found on their own; http:// is; an XCAP path may hold a SIP URI.
		{"   involving CNAMEs (e.g., \"urn:ietf:params:rtp-\n   hdrext:sdes:cname\" [RFC7941]).", []string{"urn:ietf:params:rtp-hdrext:sdes:cname"}},
		{"   ;pub-gruu=\"sip:callee@example.com;gr=urn:\n   uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6\"\n", []string{"sip:callee@example.com;gr=urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"}},
		{"\"http://xcap.example.com/users/\nsip:joe@example.com/index\"", []string{"http://xcap.example.com/users/sip:joe@example.com/index"}},
		{"x=\"urn:ab:c\n  http://x.example/b.xsd\"", []string{"urn:ab:c", "http://x.example/b.xsd"}},
		{"\"http://a.example/b\n  urn:ab:c\"", []string{"http://a.example/b", "urn:ab:c"}},
		// Over three lines, up to the closer; not past a blank line or a space.
		{"URL \"http://www.informatik.uni-\n   mannheim.de/informatik/\n   pi4/index.html\".", []string{"http://www.informatik.uni-mannheim.de/informatik/pi4/index.html"}},
		{"\"http://a.example/b\n  c/\n\n  d\"", []string{"http://a.example/b"}},
		{"\"http://a.example/b\n  c/\n  d e\"", []string{"http://a.example/b"}},
		// (...) rejoins as "..." does, with ')' for the closer.
		{"   Provisions Relating to IETF Documents (http://trustee.ietf.org/\n   license-info) in effect", []string{"http://trustee.ietf.org/license-info"}},
		{"(http://a.example/b/\n  c/\n  d.pdf).", []string{"http://a.example/b/c/d.pdf"}},
		{"(http://a.example/b/\n  c d)", []string{"http://a.example/b/"}},
		{"(http://a.example/w/Foo_(bar\n  )_x)", []string{"http://a.example/w/Foo_(bar)_x"}},
		// schemaLocation is a list (xsi:, or a value that starts with a URN).
		{"xsi:schemaLocation=\"urn:ietf:params:xml:ns:epp-1.0\n         epp-1.0.xsd\">", []string{"urn:ietf:params:xml:ns:epp-1.0"}},
		{"schemaLocation=\"urn:ietf:params:xml:ns:fdt\n    ietf-flute-fdt.xsd\"", []string{"urn:ietf:params:xml:ns:fdt"}},
		{"<xs:import schemaLocation=\"http://www.w3.org/TR/2002/\n  REC-xmldsig-core-20020212/xmldsig-core-schema.xsd\"/>", []string{"http://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd"}},
		// RFC 8792 folds outside <...>.
		{"      GET https://example.com/mymodules/example-jukebox/\\\n         2016-08-15 HTTP/1.1\n", []string{"https://example.com/mymodules/example-jukebox/2016-08-15"}},
		{"Location: https://example.com/a/\\\n    b/\\\n    \\c\n", []string{"https://example.com/a/b/c"}},
		{"\"https://example.com/modules/\\\n   ietf-yang-library/2016-06-21\",", []string{"https://example.com/modules/ietf-yang-library/2016-06-21"}},
		{"(https://example.com/a/\\\n   b) x", []string{"https://example.com/a/b"}},
		{"https://example.com/a/\\\n\n   b", []string{"https://example.com/a/"}},
		{"https://example.com/a \\\n   b", []string{"https://example.com/a"}},
	})
}

// Behaviour §2.9 (revision 5): --email addresses.
func TestEmailRev5(t *testing.T) {
	runStartCases(t, Config{Email: true}, []startCase{
		// The local part's characters are taken whole (extract encodes them).
		{"a#b@example.com a%b@x.com a|b@x.com a{b}c@x.com a^b@x.com a`b@x.com", []string{
			"mailto:a#b@example.com", "mailto:a%b@x.com", "mailto:a|b@x.com", "mailto:a{b}c@x.com", "mailto:a^b@x.com", "mailto:a`b@x.com"}},
		// A quoted string's tail is not taken.
		{`test."foo".bar@example.com`, nil},
		// Host labels neither start nor end with '-'.
		{"a@-foo.com a@foo-.example.com", nil},
		{"write to a@example.com- now", []string{"mailto:a@example.com"}},
		// Message ids of attribution lines and quoted header fields.
		{"In <id1@example.com> joe@example.org writes:\n", []string{"mailto:joe@example.org"}},
		{"In article id2@example.com, joe wrote:\n", nil},
		{"In article <id3@example.com>,\n  joe writes:\n", nil},
		{"From article <id4@example.com>\n", nil},
		{"> In <id5@example.com> joe writes:\n", nil},
		{"> Message-ID: <id6@example.com>\n>> References: <id7@example.com>\n> In-Reply-To: <id8@example.com>\n", nil},
		{"Message-ID: <keep@example.com>\nIn the <x@example.com> list\n", []string{"mailto:keep@example.com", "mailto:x@example.com"}},
	})
}

// Behaviour §2 (revision 5): a word glued after the top-level domain.
func TestGluedWordAfterTLD(t *testing.T) {
	runStartCases(t, Config{WWW: true, Email: true}, []startCase{
		{"subscribe at www.newlinepubs.comGlenn wrote", []string{"http://www.newlinepubs.com"}},
		{"mailto:MyInput@AEOpublishing.comAre you", []string{"mailto:MyInput@AEOpublishing.com"}},
		{"MyInput@AEOpublishing.comAre you", []string{"mailto:MyInput@AEOpublishing.com"}},
		{"http://a.example.comFoo http://a.example.COM http://a.example.comFoo/x", []string{"http://a.example.com", "http://a.example.COM", "http://a.example.comFoo/x"}},
		// Not in wrappers, nor when the label is a TLD itself or mixes in digits.
		{"\"http://a.example.comX\" <http://a.example.comX> http://a.b.comX1", []string{"http://a.example.comX", "http://a.example.comX", "http://a.b.comX1"}},
	})
}

// Behaviour §2 (revision 5): never cut to another host. The run is taken
// whole (and flagged Unusable: invalid).
func TestNeverCutToAnotherHost(t *testing.T) {
	runStartCases(t, Config{}, []startCase{
		{"<http://exa\u200bmple.com/x>", []string{"http://exa\u200bmple.com/x"}},
		{"see http://exa\u202emple.com/x.", []string{"http://exa\u202emple.com/x"}},
		{"http://bad\xc0host.example/ ok", []string{"http://bad\xc0host.example/"}},
		{"\"http://exa\x01mple.com/x\"", []string{"http://exa\x01mple.com/x"}},
		{"http://exa\u3002mple.com/", []string{"http://exa\u3002mple.com/"}},
		// A complete host before it, and no '.' after: the URI ends there.
		{"詳しくは http://example.jp\u30022024年", []string{"http://example.jp"}},
		{"http://example.jp\u200b.evil.example/", []string{"http://example.jp\u200b.evil.example/"}},
		// In the path it ends the URI as before.
		{"http://a.example/x\u200by", []string{"http://a.example/x"}},
	})
	s := New(strings.NewReader("http://exa\u200bmple.com/x http://a.example/x\u200by"), Config{})
	var flags []Flags
	for s.Scan() {
		flags = append(flags, s.Candidate().Flags&Unusable)
	}
	if len(flags) != 2 || flags[0] == 0 || flags[1] != 0 {
		t.Errorf("Unusable flags %v, want [set, clear]", flags)
	}
}

// Behaviour §3.3 (revision 5): an RFC page break inside <...> is skipped
// whole, not taken for a blank line.
func TestPageBreakInAngle(t *testing.T) {
	const footer = "Schaad                       Standards Track                   [Page 90]\n"
	const header = "RFC 8152        CBOR Object Signing and Encryption (COSE)      July 2017\n"
	runStartCases(t, Config{}, []startCase{
		{"   <http://nvlpubs.nist.gov/nistpubs/FIPS/\n\n\n\n" + footer + "\f\n" + header + "\n\n      NIST.FIPS.186-4.pdf>.\n", []string{"http://nvlpubs.nist.gov/nistpubs/FIPS/NIST.FIPS.186-4.pdf"}},
		// Footer or form feed or header alone; CRLF.
		{"<http://a.example/b/\r\n\r\n" + "Author        Informational        [Page 3]\r\n\r\n  c>", []string{"http://a.example/b/c"}},
		{"<http://a.example/b/\n\f\n  c>", []string{"http://a.example/b/c"}},
		{"<http://a.example/b/\n" + header + "\n  c>", []string{"http://a.example/b/c"}},
		// Blank lines alone, or a line that is no footer, abandon <...>.
		{"<http://a.example/b/\n\n\n  c>", []string{"http://a.example/b/"}},
		{"<http://a.example/b/\n\nsee page [Page x]\n  c>", []string{"http://a.example/b/"}},
	})
}

// Behaviour §3.8 (revision 5): a bare URI broken at a line end is read
// as it stands, flagged BareBreak with the joined form.
func TestBareBreak(t *testing.T) {
	for _, tc := range []struct{ in, text, joined string }{
		{"see http://www.isoc.org/isoc/conferences/ndss/99/\n   proceedings/papers/wu.pdf.\nnext", "http://www.isoc.org/isoc/conferences/ndss/99/", "http://www.isoc.org/isoc/conferences/ndss/99/proceedings/papers/wu.pdf"},
		{"> http://a.example/x?\r\n> b=1&c=2\r\n", "http://a.example/x", "http://a.example/x?b=1&c=2"},
		{"http://a.example/b.\nThanks,", "http://a.example/b", "http://a.example/b.Thanks"},
		// Not when the next line holds more than one run, starts with a
		// scheme, is blank, or the first line ends otherwise.
		{"http://a.example/b/\n  c d\n", "http://a.example/b/", ""},
		{"http://a.example/b/\n  http://c.example/\n", "http://a.example/b/", ""},
		{"http://a.example/b/\n\n  c\n", "http://a.example/b/", ""},
		{"http://a.example/b\n  c\n", "http://a.example/b", ""},
		{"> http://a.example/b/\nc\n", "http://a.example/b/", ""},
	} {
		s := New(strings.NewReader(tc.in), Config{})
		if !s.Scan() {
			t.Fatalf("%q: no candidate", tc.in)
		}
		c := s.Candidate()
		joined := ""
		if c.Flags&BareBreak != 0 {
			joined = string(c.Joined)
		}
		if string(c.Text) != tc.text || joined != tc.joined {
			t.Errorf("%q: text %q joined %q, want %q and %q", tc.in, c.Text, joined, tc.text, tc.joined)
		}
	}
}
