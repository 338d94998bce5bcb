package uri

import (
	"errors"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// rfcExamples are the example URIs of RFC 3986 sections 1.1.2 and 3 (and
// those quoted in 3.x), all valid absolute URIs.
var rfcExamples = []string{
	// 1.1.2
	"ftp://ftp.is.co.za/rfc/rfc1808.txt",
	"http://www.ietf.org/rfc/rfc2396.txt",
	"ldap://[2001:db8::7]/c=GB?objectClass?one",
	"mailto:John.Doe@example.com",
	"news:comp.infosystems.www.servers.unix",
	"tel:+1-816-555-1212",
	"telnet://192.0.2.16:80/",
	"urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
	// 3
	"foo://example.com:8042/over/there?name=ferret#nose",
	"urn:example:animal:ferret:nose",
	// 3.2.1, 3.2.2, 3.3
	"ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
	"mailto:fred@example.com",
	"foo://info.example.com?fred",
	"http://www.example.com/",
	// 6.2.2, 6.2.3
	"example://a/./b/../b/%63/%7bfoo%7d",
	"HTTP://www.EXAMPLE.com/",
	"http://example.com",
	"http://example.com/",
	"http://example.com:/",
	"http://example.com:80/",
	"mailto:Joe@Example.COM",
	"mailto:Joe@example.com",
	"http://example.com/data",
	"http://example.com/data/",
	"ftp://example.com/",
	// 5.4 base
	"http://a/b/c/d;p?q",
}

func TestRFC3986Examples(t *testing.T) {
	for _, s := range rfcExamples {
		for _, k := range []Kind{KindURI, KindRef, KindIRI, KindIRIRef} {
			if err := Validate(s, k); err != nil {
				t.Errorf("Validate(%q, %v) = %v", s, k, err)
			}
		}
	}
}

func TestRFC3986Section3Components(t *testing.T) {
	u := MustParse("foo://example.com:8042/over/there?name=ferret#nose", KindURI)
	want := URI{Scheme: "foo", HasAuthority: true, Host: "example.com", Port: "8042", HasPort: true,
		Path: "/over/there", Query: "name=ferret", HasQuery: true, Fragment: "nose", HasFragment: true}
	if *u != want {
		t.Errorf("got %+v\nwant %+v", *u, want)
	}
	u = MustParse("urn:example:animal:ferret:nose", KindURI)
	want = URI{Scheme: "urn", Path: "example:animal:ferret:nose"}
	if *u != want {
		t.Errorf("got %+v\nwant %+v", *u, want)
	}
}

// TestParseComponents tells present from absent and keeps everything as
// written.
func TestParseComponents(t *testing.T) {
	tests := []struct {
		in   string
		kind Kind
		want URI
	}{
		{"http://a/?", KindURI, URI{Scheme: "http", HasAuthority: true, Host: "a", Path: "/", HasQuery: true}},
		{"http://@a:/", KindURI, URI{Scheme: "http", HasAuthority: true, HasUserinfo: true, Host: "a", HasPort: true, Path: "/"}},
		{"file:///x", KindURI, URI{Scheme: "file", HasAuthority: true, Path: "/x"}},
		{"foo:", KindURI, URI{Scheme: "foo"}},
		{"foo:#", KindURI, URI{Scheme: "foo", HasFragment: true}},
		{"", KindRef, URI{}},
		{"#f", KindRef, URI{Fragment: "f", HasFragment: true}},
		{"?", KindRef, URI{HasQuery: true}},
		{"//", KindRef, URI{HasAuthority: true}},
		{"///", KindRef, URI{HasAuthority: true, Path: "/"}},
		{"./a:b", KindRef, URI{Path: "./a:b"}},
		{"a/b:c", KindRef, URI{Path: "a/b:c"}},
		{"//u:p@h:1/p?q#f", KindRef, URI{HasAuthority: true, Userinfo: "u:p", HasUserinfo: true, Host: "h", Port: "1", HasPort: true, Path: "/p", Query: "q", HasQuery: true, Fragment: "f", HasFragment: true}},
		{"HTTP://[FE80::1%25Eth0]:8080", KindURI, URI{Scheme: "HTTP", HasAuthority: true, Host: "[FE80::1%25Eth0]", Port: "8080", HasPort: true}},
		{"foo:a?b?c#d?e/f", KindURI, URI{Scheme: "foo", Path: "a", Query: "b?c", HasQuery: true, Fragment: "d?e/f", HasFragment: true}},
		{"s://a@b@c/", KindURI, URI{}}, // invalid: second '@'
		{"http://例え.テスト/パス?クエリ#断片", KindIRI, URI{Scheme: "http", HasAuthority: true, Host: "例え.テスト", Path: "/パス", Query: "クエリ", HasQuery: true, Fragment: "断片", HasFragment: true}},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in, tt.kind)
		if tt.want == (URI{}) && tt.in != "" {
			if err == nil {
				t.Errorf("Parse(%q) = %+v, want error", tt.in, *u)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q, %v): %v", tt.in, tt.kind, err)
			continue
		}
		if *u != tt.want {
			t.Errorf("Parse(%q)\n got %+v\nwant %+v", tt.in, *u, tt.want)
		}
		if got := u.String(); got != tt.in {
			t.Errorf("Parse(%q).String() = %q", tt.in, got)
		}
	}
}

// validForms are valid for the kind given (and so for the wider kinds).
var validForms = []struct {
	s    string
	kind Kind
}{
	// Path forms (RFC 3986 3.3).
	{"s://h", KindURI},       // path-abempty, empty
	{"s://h/a//b/", KindURI}, // path-abempty
	{"s:/a/b", KindURI},      // path-absolute
	{"s:/", KindURI},         // path-absolute, lone slash
	{"s:a/b:c", KindURI},     // path-rootless, ':' allowed
	{"s:", KindURI},          // path-empty
	{"s:?q", KindURI},        // path-empty with query
	{"a:b", KindRef},         // a scheme, not a path
	{"a/b", KindRef},         // path-noscheme
	{"./a:b", KindRef},       // ':' after the first segment
	{"/a:b", KindRef},        // path-absolute may hold ':'
	{"//h:1/a:b", KindRef},   // network-path reference
	{"", KindRef},            // the empty reference
	{".", KindRef},           // dot segments are fine
	{"../..", KindRef},       //
	{"a+b-c.d:x", KindURI},   // scheme characters
	{"A:x", KindURI},         // scheme case
	{"s://h/!$&'()*+,;=:@-._~%20", KindURI},
	{"s://h?/?:@!$&'()*+,;=", KindURI}, // query may hold '/' and '?'
	{"s://h#/?:@", KindURI},            //
	// Authority (RFC 3986 3.2).
	{"s://u:p:q@h", KindURI},           // userinfo may hold ':'
	{"s://%41!$&'()*+,;=:@h", KindURI}, //
	{"s://@h", KindURI},                // empty userinfo
	{"s://h:", KindURI},                // empty port
	{"s://h:00000000000000000000080", KindURI},
	{"http://a:99999/", KindURI},    // port = *DIGIT, no range
	{"s://", KindURI},               // empty host
	{"s://:8", KindURI},             // empty host, port
	{"file:///etc/passwd", KindURI}, // empty host
	{"s://h.example-_~!$&'()*+,;=%20", KindURI},
	{"http://256.256.256.256/", KindURI}, // a reg-name, not an IPv4address
	{"http://1.2.3/", KindURI},           //
	{"http://01.02.03.04/", KindURI},     //
	{"http://127.0.0.1:8080/", KindURI},  // IPv4address
	{"http://xn--rsum-bpad.example.org/", KindURI},
	// IPv6 (RFC 3986 3.2.2), every elision form, IPv4 tails.
	{"s://[1:2:3:4:5:6:7:8]", KindURI},
	{"s://[::2:3:4:5:6:7:8]", KindURI},
	{"s://[1::3:4:5:6:7:8]", KindURI},
	{"s://[1:2::4:5:6:7:8]", KindURI},
	{"s://[1:2:3::5:6:7:8]", KindURI},
	{"s://[1:2:3:4::6:7:8]", KindURI},
	{"s://[1:2:3:4:5::7:8]", KindURI},
	{"s://[1:2:3:4:5:6::8]", KindURI},
	{"s://[1:2:3:4:5:6:7::]", KindURI},
	{"s://[::]", KindURI},
	{"s://[::1]", KindURI},
	{"s://[1::]", KindURI},
	{"s://[1::8]", KindURI},
	{"s://[ABCD:ef01::FfFf]", KindURI},
	{"s://[0000:0:00:000::]", KindURI},
	{"s://[1:2:3:4:5:6:1.2.3.4]", KindURI},
	{"s://[::1.2.3.4]", KindURI},
	{"s://[::ffff:192.0.2.128]", KindURI},
	{"s://[1::2:3:4:5:255.255.255.255]", KindURI},
	{"s://[1:2:3:4:5::0.0.0.0]", KindURI},
	{"s://[::5:6:7:8:9:10.1.2.3]", KindURI},
	{"http://[2001:db8::7]:8080/", KindURI},
	// SIP (RFC 3261 19.1.1, behaviour §5): the host after the userinfo's
	// '@', or right after the scheme, may be an IPv6reference.
	{"sip:alice@[2001:db8::1]:5060", KindURI},
	{"sips:alice@[2001:db8::1]", KindURI},
	{"SIP:[::1]", KindURI},
	{"sip:[2001:db8::1]:5060;transport=tcp?subject=x", KindURI},
	{"sip:alice:secret@[::ffff:192.0.2.1];lr", KindURI},
	{"sip:alice@atlanta.example;transport=tcp", KindURI},
	// AAA (RFC 6733 4.3.1, behaviour §5): parameters after the port.
	{"aaa://host.example.com:6666;transport=tcp", KindURI},
	{"aaas://host.example.com:5658;transport=sctp;protocol=diameter", KindURI},
	{"AAA://host.example.com:1813;transport=udp;protocol=radius", KindURI},
	{"aaa://host.example.com;transport=tcp", KindURI},
	// IPvFuture.
	{"s://[v1.x]", KindURI},
	{"s://[VF.a:b!$&'()*+,;=-._~]", KindURI},
	// Zone IDs (RFC 6874).
	{"http://[fe80::1%25eth0]/", KindURI},
	{"http://[fe80::1%25%65th0]/", KindURI},
	{"http://[fe80::1%25Eth-0._~]/", KindURI},
	{"http://[::1.2.3.4%251]/", KindURI},
	// IRIs (RFC 3987 2.2).
	{"http://例え.テスト/パス", KindIRI},
	{"http://résumé.example.org", KindIRI},
	{"http://www.example.org/résumé.html", KindIRI},
	{"http://example.com/\U00010300\U00010301\U00010302", KindIRI},
	{"http://user\u00e9:p@h/", KindIRI},
	{"s:\u00a0", KindIRI}, // first ucschar
	{"s:\ud7ff\uf900\ufdcf\ufdf0\uffef", KindIRI},
	{"s:\U0001fffd\U00020000\U000e1000\U000efffd", KindIRI},
	{"http://example.com/?\ue000\U000f0000\U0010fffd", KindIRI}, // iprivate in the query
	{"パス", KindIRIRef},
	{"./a:é", KindIRIRef},
	{"//例え/x", KindIRIRef},
}

func TestValidForms(t *testing.T) {
	for _, tt := range validForms {
		for k := tt.kind; k <= KindIRIRef; k++ {
			if tt.kind == KindIRIRef && k != KindIRIRef || widerThan(k, tt.kind) {
				if err := Validate(tt.s, k); err != nil {
					t.Errorf("Validate(%q, %v) = %v", tt.s, k, err)
				}
			}
		}
		u, err := Parse(tt.s, tt.kind)
		if err != nil {
			continue
		}
		if got := u.String(); got != tt.s {
			t.Errorf("round trip %q gives %q", tt.s, got)
		}
	}
}

// widerThan reports whether every string of kind b is also of kind a.
func widerThan(a, b Kind) bool {
	if a == b || a == KindIRIRef {
		return true
	}
	return (a == KindRef && b == KindURI) || (a == KindIRI && b == KindURI)
}

// invalidForms: each with the byte offset of the fault and a word of the
// reason.
var invalidForms = []struct {
	s      string
	kind   Kind
	offset int
	reason string
}{
	// Percent-encoding (RFC 3986 2.1).
	{"http://a/%G1", KindURI, 9, "bad percent-encoding %G1"},
	{"http://a/%1", KindURI, 9, "bad percent-encoding %1"},
	{"http://a/%", KindURI, 9, "bad percent-encoding %"},
	{"http://a/?%x", KindURI, 10, "bad percent-encoding"},
	{"http://a/#%%", KindURI, 10, "bad percent-encoding"},
	{"http://%zz/", KindURI, 7, "bad percent-encoding %zz"},
	{"http://u%@a/", KindURI, 8, "bad percent-encoding"},
	{"http://a/%é", KindIRI, 9, "bad percent-encoding %é"},
	// Characters that never belong.
	{"http://a/b c", KindURI, 10, "space is not allowed"},
	{"http://a/b\tc", KindURI, 10, "control character 0x09"},
	{"http://a/\x00", KindURI, 9, "control character 0x00"},
	{"http://a/\x7f", KindURI, 9, "control character 0x7F"},
	{"http://a/<", KindURI, 9, "'<' is not allowed in the path"},
	{"http://a/?q\"", KindURI, 11, "'\"' is not allowed in the query"},
	{"http://a/#a#b", KindURI, 11, "'#' is not allowed in the fragment"},
	{"http://a/{}", KindURI, 9, "'{'"},
	{"http://a/\\", KindURI, 9, "'\\'"},
	{"http://a/^", KindURI, 9, "'^'"},
	{"http://a/`", KindURI, 9, "'`'"},
	{"http://a/|", KindURI, 9, "'|'"},
	{"http://a/[b]", KindURI, 9, "'[' outside an IP literal"},
	{"http://a/?]", KindURI, 10, "']' outside an IP literal"},
	{"http://a[b]/", KindURI, 8, "'[' outside an IP literal"},
	// Non-ASCII and UTF-8.
	{"http://a/é", KindURI, 9, "non-ASCII character: an IRI, not a URI"},
	{"http://é/", KindRef, 7, "non-ASCII"},
	{"http://a/\xff", KindIRI, 9, "invalid UTF-8"},
	{"http://a/\xc3", KindIRI, 9, "invalid UTF-8"},
	{"http://a/\xed\xa0\x80", KindIRI, 9, "invalid UTF-8"}, // a surrogate
	{"http://a/\xc0\xaf", KindIRI, 9, "invalid UTF-8"},     // overlong
	{"http://example.com/\ue000", KindIRI, 19, "allowed only in the query"},
	{"http://example.com/#\ue000", KindIRI, 20, "allowed only in the query"},
	{"http://\U000f0000/", KindIRI, 7, "allowed only in the query"},
	{"http://a/\u0085", KindIRI, 9, "U+0085 is not allowed in an IRI"},
	{"http://a/\ufdd0", KindIRI, 9, "U+FDD0"},
	{"http://a/\ufff0", KindIRI, 9, "U+FFF0"},
	{"http://a/\U0001fffe", KindIRI, 9, "U+1FFFE"},
	{"http://a/\U000e0001", KindIRI, 9, "U+E0001"},
	{"http://[::é]/", KindIRI, 10, "IPv6"},
	{"http://[fe80::1%25é]/", KindIRI, 18, "zone ID"},
	// Scheme and relative references (RFC 3986 3.1, 4.2).
	{"a_b:c", KindRef, 3, "':' in the first segment of a relative path"},
	{"1a:b", KindRef, 2, "':' in the first segment"},
	{":a", KindRef, 0, "':' in the first segment"},
	{"a/b", KindURI, 0, "missing scheme"},
	{"//h/", KindURI, 0, "missing scheme"},
	{"", KindURI, 0, "missing scheme"},
	{"1a:b", KindURI, 0, "scheme must start with a letter"},
	{"a_b:c", KindURI, 1, "'_' is not allowed in the scheme"},
	{"パス:x", KindIRI, 0, "scheme must start with a letter"},
	// Authority.
	{"s://a@b@c/", KindURI, 7, "'@' is not allowed in the host"},
	{"http://a:80a/", KindURI, 11, "port is not a number"},
	{"http://a:-1/", KindURI, 9, "port is not a number"},
	{"http://a:1:2/", KindURI, 10, "port is not a number"},
	{"http://a:é/", KindIRI, 9, "port is not a number"},
	{"http://::1/", KindURI, 8, "port is not a number"},
	{"http://a:1;transport=tcp", KindURI, 10, "port is not a number"},
	{"aaa://a:1;transport", KindURI, 19, "malformed aaa parameter (RFC 6733 4.3.1)"},
	{"aaa://a:1;=tcp", KindURI, 10, "malformed aaa parameter (RFC 6733 4.3.1)"},
	{"aaa://a:1;transport=", KindURI, 20, "malformed aaa parameter (RFC 6733 4.3.1)"},
	{"aaa://a:1x;transport=tcp", KindURI, 9, "port is not a number"},
	// behaviour §5: these schemes need a host.
	{"http:///x", KindURI, 7, "http URI without a host"},
	{"http:foo", KindURI, 5, "http URI without a host"},
	{"HTTPS://", KindURI, 8, "https URI without a host"},
	{"ws:/x", KindURI, 3, "ws URI without a host"},
	{"wss://u@:1/", KindURI, 8, "wss URI without a host"},
	{"ftp:", KindURI, 4, "ftp URI without a host"},
	// IP literals.
	{"http://[::1::2]/", KindURI, 11, "two '::' in IPv6 address"},
	{"http://[1:2:3:4:5:6:7]/", KindURI, 21, "7 groups, not 8"},
	{"http://[1:2:3:4:5:6:7:8:9]/", KindURI, 25, "9 groups, not 8"},
	{"http://[1::2:3:4:5:6:7:8]/", KindURI, 24, "at most 7"},
	{"http://[1:2:3:4:5:6:7:8::]/", KindURI, 25, "at most 7"},
	{"http://[1:2:3:4:5:6:7:1.2.3.4]/", KindURI, 29, "9 groups"},
	{"http://[1:2:3:4:5:6::1.2.3.4]/", KindURI, 28, "at most 7"},
	{"http://[:1::2]/", KindURI, 8, "starts with a single ':'"},
	{"http://[1::2:]/", KindURI, 12, "ends with a single ':'"},
	{"http://[12345::]/", KindURI, 8, "more than four hex digits"},
	{"http://[::g]/", KindURI, 10, "'g' is not allowed in the IPv6 address"},
	{"http://[::1.2.3]/", KindURI, 15, "four numbers"},
	{"http://[::1.2.3.256]/", KindURI, 16, "256 is not a number from 0 to 255"},
	{"http://[::01.2.3.4]/", KindURI, 10, "01 is not a number"},
	{"http://[::1.2.3.4.5]/", KindURI, 17, "'.' is not allowed in the IPv4 address"},
	{"http://[::1.2.3.4:1]/", KindURI, 17, "':'"},
	{"http://[1.2.3.4]/", KindURI, 15, "2 groups, not 8"},
	{"http://[]/", KindURI, 8, "empty IPv6 address"},
	{"http://[::1/", KindURI, 7, "'[' without a closing ']'"},
	{"http://::1]/", KindURI, 8, "port is not a number"},
	{"http://[::1]x/", KindURI, 12, "'x' is not allowed in the host"},
	{"http://[::1]]/", KindURI, 12, "']' outside an IP literal"},
	{"http://[[::1]]/", KindURI, 8, "'['"},
	{"http://[fe80::1%eth0]/", KindURI, 15, "%25"},
	{"http://[fe80::1%25]/", KindURI, 18, "empty IPv6 zone ID"},
	{"http://[fe80::1%2]/", KindURI, 15, "%25"},
	{"http://[fe80::1%25a%2]/", KindURI, 19, "bad percent-encoding"},
	{"http://[fe80::1%25a:b]/", KindURI, 19, "':' is not allowed in the IPv6 zone ID"},
	{"http://[fe80::1%25a%25b]/", KindURI, 20, ""}, // "%25" in the zone is fine; see below
	{"http://[v.x]/", KindURI, 9, "hex digits after 'v'"},
	{"http://[v1x]/", KindURI, 10, "'.' after its version"},
	{"http://[v1.]/", KindURI, 11, "empty IPvFuture"},
	{"http://[v1.a/b]/", KindURI, 7, "'[' without a closing ']'"},
	{"http://[v1.%41]/", KindURI, 11, "'%' is not allowed in an IPvFuture address"},
	{"s://[v7.fe80::abcd%eth0]", KindURI, 18, "'%' is not allowed in an IPvFuture"},
	// SIP (behaviour §5): an IPv6reference only where the host stands, and
	// only an IPv6address in it (RFC 3261 has no IPvFuture and no zone).
	{"sip:alice@[2001:db8::1::2]", KindURI, 22, "two '::'"},
	{"sip:alice@[2001:db8::1", KindURI, 10, "'[' without a closing ']'"},
	{"sip:alice@[::1]x", KindURI, 15, "'x' is not allowed in the host"},
	{"sip:alice@[::1]:5060[", KindURI, 20, "'[' outside an IP literal"},
	{"sip:alice@[v1.x]", KindURI, 11, "'v' is not allowed in the IPv6 address"},
	{"sip:alice@[fe80::1%25eth0]", KindURI, 18, "zone ID is not allowed in a SIP host"},
	{"sip:a[::1]", KindURI, 5, "'[' outside an IP literal"},
	{"sip:a@b@[::1]", KindURI, 8, "'[' outside an IP literal"},
	{"sip:a;x=[::1]", KindURI, 8, "'[' outside an IP literal"},
	{"tel:alice@[::1]", KindURI, 10, "'[' outside an IP literal"},
	{"sip://[::1]x", KindURI, 11, "'x' is not allowed in the host"},
}

func TestInvalidForms(t *testing.T) {
	for _, tt := range invalidForms {
		if tt.reason == "" {
			if err := Validate(tt.s, tt.kind); err != nil {
				t.Errorf("Validate(%q) = %v, want valid", tt.s, err)
			}
			continue
		}
		err := Validate(tt.s, tt.kind)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Validate(%q, %v) = %v, want *Error", tt.s, tt.kind, err)
			continue
		}
		if e.Offset != tt.offset || !strings.Contains(e.Reason, tt.reason) || e.Input != tt.s {
			t.Errorf("Validate(%q, %v) = %q at %d, want %q at %d", tt.s, tt.kind, e.Reason, e.Offset, tt.reason, tt.offset)
		}
		if _, perr := Parse(tt.s, tt.kind); perr == nil || perr.Error() != err.Error() {
			t.Errorf("Parse(%q) = %v, Validate says %v", tt.s, perr, err)
		}
		if want := e.Reason + " at byte "; !strings.HasPrefix(e.Error(), want) {
			t.Errorf("Error() = %q", e.Error())
		}
	}
}

// TestKindsAgree: a URI is a URI reference and an IRI; the ASCII kinds reject
// non-ASCII.
func TestKindsAgree(t *testing.T) {
	for _, tt := range validForms {
		uriOK := Validate(tt.s, KindURI) == nil
		refOK := Validate(tt.s, KindRef) == nil
		iriOK := Validate(tt.s, KindIRI) == nil
		irirefOK := Validate(tt.s, KindIRIRef) == nil
		if uriOK && !(refOK && iriOK) || (refOK || iriOK) && !irirefOK {
			t.Errorf("%q: URI %v ref %v IRI %v IRI-ref %v", tt.s, uriOK, refOK, iriOK, irirefOK)
		}
		if !isASCII(tt.s) && (uriOK || refOK) {
			t.Errorf("%q: non-ASCII accepted as a URI", tt.s)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		// RFC 3986 6.2.2 and 6.2.3.
		{"example://a/./b/../b/%63/%7bfoo%7d", "example://a/b/c/%7Bfoo%7D"},
		{"HTTP://www.EXAMPLE.com/", "http://www.example.com/"},
		{"http://example.com", "http://example.com/"},
		{"http://example.com:/", "http://example.com/"},
		{"http://example.com:80/", "http://example.com/"},
		{"http://example.com/", "http://example.com/"},
		{"mailto:Joe@Example.COM", "mailto:Joe@Example.COM"},                                       // behaviour §6: no mailto rule
		{"AAA://HOST.example.com:6666;transport=tcp", "aaa://host.example.com:6666;transport=tcp"}, // RFC 6733 4.3.1
		// behaviour §6 details.
		{"http://example.com:080/", "http://example.com/"},
		{"http://example.com:0000000000000000000000080/", "http://example.com/"},
		{"http://example.com:8080/", "http://example.com:8080/"},
		{"https://example.com:443", "https://example.com/"},
		{"https://example.com:80/", "https://example.com:80/"},
		{"ws://example.com:80", "ws://example.com/"},
		{"wss://example.com:443/", "wss://example.com/"},
		{"ftp://example.com:21", "ftp://example.com"},
		{"ftp://example.com:", "ftp://example.com"},
		{"foo://example.com:80/x", "foo://example.com:80/x"},
		{"foo://example.com:", "foo://example.com"},
		{"foo://example.com", "foo://example.com"},
		{"http://User:PW@Example.COM/", "http://User:PW@example.com/"},
		{"http://[2001:DB8:0:0:0:0:0:1]/", "http://[2001:db8:0:0:0:0:0:1]/"},
		{"http://[FE80::1%25Eth0]/", "http://[fe80::1%25Eth0]/"},
		{"http://[fe80::1%25%4a%2f]/", "http://[fe80::1%25J%2F]/"},
		{"http://[V1.ABC]/", "http://[v1.abc]/"},
		{"http://%41%62%2D.com/", "http://ab-.com/"},
		{"http://%C3%89.com/", "http://%C3%89.com/"},
		{"http://%c3%89.com/", "http://%C3%89.com/"},
		{"http://a/%7e%5F%2d%2e%30%41%61", "http://a/~_-.0Aa"},
		{"http://a/%3a%2f%3f%23%5b%25", "http://a/%3A%2F%3F%23%5B%25"},
		{"http://a/?%7e%3d#%7e%3d", "http://a/?~%3D#~%3D"},
		{"http://example.com/a/%2E%2E/b", "http://example.com/b"},
		{"http://example.com/a/%2e/b", "http://example.com/a/b"},
		{"http://a/b/c/./../../g", "http://a/g"},
		{"http://a/..", "http://a/"},
		{"http://a/../../x/.", "http://a/x/"},
		{"foo:a/../b", "foo:/b"},
		{"foo:./a", "foo:a"},
		{"foo:../a", "foo:a"},
		{"foo:.", "foo:"},
		{"foo:/..//x", "foo:/.//x"}, // no authority from a path
		{"foo:/.//x", "foo:/.//x"},
		{"foo://h/..//x", "foo://h//x"},
		// IRIs stay IRIs.
		{"HTTP://例え.テスト/パス", "http://例え.テスト/パス"},
		{"http://ÉXAMPLE.com/É", "http://éxample.com/É"},
		{"http://a/%E3%83%91", "http://a/%E3%83%91"},
		// References.
		{"../a/./b", "../a/./b"}, // relative-path references keep their dots
		{"/a/./b/../c", "/a/c"},
		{"//H/a/../b", "//h/b"},
		{"", ""},
		{"HTTP://A#%7e", "http://a/#~"},
	}
	for _, tt := range tests {
		got, err := Normalize(tt.in, KindIRIRef)
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			continue
		}
		again, err := Normalize(got, KindIRIRef)
		if err != nil || again != got {
			t.Errorf("Normalize(%q) = %q, %v: not idempotent", got, again, err)
		}
		u := MustParse(tt.in, KindIRIRef)
		if n := u.Normalize().String(); n != tt.want {
			t.Errorf("(%q).Normalize() = %q, want %q", tt.in, n, tt.want)
		}
		// After what a buffer holds already, small or not.
		for _, dst := range [][]byte{[]byte("xyz"), make([]byte, 2, 200)} {
			b, err := AppendNormalize(dst, tt.in, KindIRIRef)
			if err != nil || string(b) != string(dst)+tt.want {
				t.Errorf("AppendNormalize(%q, %q) = %q, %v; want %q", dst, tt.in, b, err, string(dst)+tt.want)
			}
		}
	}
}

func TestNormalizeInvalid(t *testing.T) {
	for _, s := range []string{"http://a/%zz", "http:///x", "a_b:c", "http:a", "mailto:a b"} {
		_, want := Normalize(s, KindIRIRef)
		if want == nil {
			t.Errorf("Normalize(%q) succeeded, want error", s)
		}
		if b, err := AppendNormalize([]byte("xyz"), s, KindIRIRef); string(b) != "xyz" || err == nil || err.Error() != want.Error() {
			t.Errorf("AppendNormalize(%q) = %q, %v; want the buffer as it was and %v", s, b, err, want)
		}
	}
	if _, err := Normalize("http://é/", KindURI); err == nil {
		t.Error("Normalize of an IRI as KindURI succeeded")
	}
}

func TestNormalizeReturnsInputWhenNormal(t *testing.T) {
	s := strings.Clone("http://example.com/a?b#c")
	got, _ := Normalize(s, KindURI)
	if got != s || unsafeStringData(got) != unsafeStringData(s) {
		t.Error("Normalize copied an already normal string")
	}
	if n := testing.AllocsPerRun(100, func() { Normalize(s, KindURI) }); n != 0 {
		t.Errorf("Normalize of a normal URI allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { Normalize("HTTP://Example.COM:80/a/./b/%7e", KindURI) }); n != 1 {
		t.Errorf("Normalize of a non-normal URI allocates %v times, want 1", n)
	}
}

// TestRFC3986Section5_4 carries every example of RFC 3986 5.4.1 and 5.4.2.
func TestRFC3986Section5_4(t *testing.T) {
	const base = "http://a/b/c/d;p?q"
	tests := []struct{ ref, want string }{
		// 5.4.1 Normal Examples
		{"g:h", "g:h"},
		{"g", "http://a/b/c/g"},
		{"./g", "http://a/b/c/g"},
		{"g/", "http://a/b/c/g/"},
		{"/g", "http://a/g"},
		{"//g", "http://g"},
		{"?y", "http://a/b/c/d;p?y"},
		{"g?y", "http://a/b/c/g?y"},
		{"#s", "http://a/b/c/d;p?q#s"},
		{"g#s", "http://a/b/c/g#s"},
		{"g?y#s", "http://a/b/c/g?y#s"},
		{";x", "http://a/b/c/;x"},
		{"g;x", "http://a/b/c/g;x"},
		{"g;x?y#s", "http://a/b/c/g;x?y#s"},
		{"", "http://a/b/c/d;p?q"},
		{".", "http://a/b/c/"},
		{"./", "http://a/b/c/"},
		{"..", "http://a/b/"},
		{"../", "http://a/b/"},
		{"../g", "http://a/b/g"},
		{"../..", "http://a/"},
		{"../../", "http://a/"},
		{"../../g", "http://a/g"},
		// 5.4.2 Abnormal Examples
		{"../../../g", "http://a/g"},
		{"../../../../g", "http://a/g"},
		{"/./g", "http://a/g"},
		{"/../g", "http://a/g"},
		{"g.", "http://a/b/c/g."},
		{".g", "http://a/b/c/.g"},
		{"g..", "http://a/b/c/g.."},
		{"..g", "http://a/b/c/..g"},
		{"./../g", "http://a/b/g"},
		{"./g/.", "http://a/b/c/g/"},
		{"g/./h", "http://a/b/c/g/h"},
		{"g/../h", "http://a/b/c/h"},
		{"g;x=1/./y", "http://a/b/c/g;x=1/y"},
		{"g;x=1/../y", "http://a/b/c/y"},
		{"g?y/./x", "http://a/b/c/g?y/./x"},
		{"g?y/../x", "http://a/b/c/g?y/../x"},
		{"g#s/./x", "http://a/b/c/g#s/./x"},
		{"g#s/../x", "http://a/b/c/g#s/../x"},
		{"http:g", "http:g"}, // strict parser
	}
	for _, tt := range tests {
		got, err := Resolve(base, tt.ref)
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", base, tt.ref, got, err, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct{ base, ref, want string }{
		{"foo:a/b", "../c", "foo:/c"},
		{"http://a/b#f", "", "http://a/b"},
		{"http://a/b#f", "#g", "http://a/b#g"},
		{"http://a", "b", "http://a/b"},            // 5.2.3: empty base path with authority
		{"foo:", "b", "foo:b"},                     //
		{"foo:/a", "..//x", "foo:/.//x"},           // never an authority from a path
		{"http://例え/a/b", "../パス", "http://例え/パス"}, // IRIs
		{"http://a/b", "//c", "http://c"},
		{"http://u@a:1/b?q", "?", "http://u@a:1/b?"},
		{"http://a/b/c", "g:/../x", "g:/x"},
		{"HTTP://A/B", "./c", "HTTP://A/c"}, // resolution does not normalize
	}
	for _, tt := range tests {
		got, err := Resolve(tt.base, tt.ref)
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", tt.base, tt.ref, got, err, tt.want)
		}
	}
	for _, bad := range [][2]string{{"/relative", "g"}, {"http://a/%", "g"}, {"http://a/", "a b"}, {"http://a/", "a:b:%"}} {
		if got, err := Resolve(bad[0], bad[1]); err == nil {
			t.Errorf("Resolve(%q, %q) = %q, want error", bad[0], bad[1], got)
		}
	}
}

func TestEquivalent(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", true},
		{"http://example.com", "http://example.com/", true},
		{"http://example.com", "http://example.com:/", true},
		{"http://example.com", "http://example.com:80/", true},
		{"http://example.com/?", "http://example.com/", false},
		{"http://example.com/a#f", "http://example.com/a", false},
		{"http://example.com/%3A", "http://example.com/:", false},
		{"foo://example.com", "foo://example.com/", false},
		{"mailto:Joe@Example.COM", "mailto:Joe@example.com", false},
		{"http://example.com/data", "http://example.com/data/", false},
		{"http://User@example.com/", "http://user@example.com/", false},
		{"http://例え/パス", "HTTP://例え/パス", true},
		// Behaviour §8: an IRI is compared in its URI form (RFC 3987 5.3).
		{"http://www.example.org/D%C3%BCrst", "http://www.example.org/Dürst", true},
		{"http://www.example.org/D%c3%bcrst", "http://www.example.org/Dürst", true},
		{"http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah/", true},
		{"http://例え.テスト/パス", "http://XN--R8JZ45G.xn--zckzah/%E3%83%91%E3%82%B9", true},
		{"http://例え.テスト/パス", "http://xn--r8jz45g.xn--zckzah/%E3%83%91", false},
		{"http://Bücher.example/", "http://xn--bcher-kva.example/", true},
		{"http://bücher.example/ü", "http://bücher.example/u", false},
		{"http://www.example.org/%7euser", "http://www.example.org/~user", true},
	}
	for _, tt := range tests {
		got, err := Equivalent(tt.a, tt.b)
		if err != nil || got != tt.want {
			t.Errorf("Equivalent(%q, %q) = %v, %v; want %v", tt.a, tt.b, got, err, tt.want)
		}
	}
	if _, err := Equivalent("http://example.com/%zz", "http://example.com/"); err == nil {
		t.Error("Equivalent accepted an invalid URI")
	}
	if _, err := Equivalent("http://example.com/", "http://a b/"); err == nil {
		t.Error("Equivalent accepted an invalid URI")
	}
}

// TestToASCII carries the examples of RFC 3987 3.1 and 3.2.
func TestToASCII(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://résumé.example.org", "http://xn--rsum-bpad.example.org"},
		{"http://www.example.org/red%09rosé#red", "http://www.example.org/red%09ros%C3%A9#red"},
		{"http://www.example.org/résumé.html", "http://www.example.org/r%C3%A9sum%C3%A9.html"},
		{"http://example.com/\U00010300\U00010301\U00010302", "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"},
		{"http://納豆.example.org/%E2%80%AE", "http://xn--99zt52a.example.org/%E2%80%AE"},
		{"http://例え.テスト/パス", "http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9"},
		{"http://Bücher.DE:8080/?q=ü#ü", "http://xn--bcher-kva.de:8080/?q=%C3%BC#%C3%BC"},
		{"http://faß.de/", "http://xn--fa-hia.de/"}, // non-transitional: ß kept
		{"http://user\u00e9@example.com/", "http://user%C3%A9@example.com/"},
		{"http://Example.COM/", "http://Example.COM/"}, // ASCII: untouched
		{"パス?\ue000", "%E3%83%91%E3%82%B9?%EE%80%80"},
	}
	for _, tt := range tests {
		got, err := ToASCII(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ToASCII(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			continue
		}
		if err := Validate(got, KindRef); err != nil {
			t.Errorf("ToASCII(%q) = %q, not a URI: %v", tt.in, got, err)
		}
	}
	for _, bad := range []string{"http://a/%zz", "http://a\u00ad\u200d-.é/", "http://ab--é.x/"} {
		if got, err := ToASCII(bad); err == nil {
			t.Errorf("ToASCII(%q) = %q, want error", bad, got)
		}
	}
}

func TestLookupScheme(t *testing.T) {
	tests := []struct {
		name   string
		ok     bool
		status Status
	}{
		{"http", true, StatusPermanent},
		{"HTTP", true, StatusPermanent},
		{"https", true, StatusPermanent},
		{"iris.beep", true, StatusPermanent},
		{"shttp", true, StatusPermanent}, // "shttp (OBSOLETE)": the status column stays
		{"machineprovisioningprogressreporter", true, StatusProvisional},
		{"MachineProvisioningProgressReporter", true, StatusProvisional},
		{"ssh", true, StatusProvisional},
		{"fax", true, StatusHistorical},
		{"s3", false, 0},
		{"svn+ssh", false, 0},
		{"", false, 0},
		{"h", false, 0},
		{"1http", false, 0},
		{"http:", false, 0},
		{strings.Repeat("a", 100), false, 0},
		{"ßtp", false, 0},
	}
	for _, tt := range tests {
		s, ok := LookupScheme(tt.name)
		if ok != tt.ok || ok && (s.Status != tt.status || s.Name != strings.ToLower(tt.name)) {
			t.Errorf("LookupScheme(%q) = %+v, %v; want %v %v", tt.name, s, ok, tt.status, tt.ok)
		}
		s2, ok2 := LookupSchemeBytes([]byte(tt.name))
		if s2 != s || ok2 != ok {
			t.Errorf("LookupSchemeBytes(%q) = %+v, %v; LookupScheme says %+v, %v", tt.name, s2, ok2, s, ok)
		}
	}
	for _, s := range schemes {
		if got, ok := LookupScheme(strings.ToUpper(s.Name)); !ok || got != s {
			t.Errorf("LookupScheme(%q) = %+v, %v", strings.ToUpper(s.Name), got, ok)
		}
	}
	b := []byte("Mailto")
	if n := testing.AllocsPerRun(100, func() { LookupSchemeBytes(b); LookupScheme("WEBCAL") }); n != 0 {
		t.Errorf("lookup allocates %v times", n)
	}
	if StatusPermanent.String() != "permanent" || StatusProvisional.String() != "provisional" || StatusHistorical.String() != "historical" {
		t.Error("Status.String")
	}
}

func TestValidateAllocatesNothing(t *testing.T) {
	for _, s := range benchURIs {
		if n := testing.AllocsPerRun(100, func() { Validate(s, KindIRIRef) }); n != 0 {
			t.Errorf("Validate(%q) allocates %v times", s, n)
		}
		b := []byte(s)
		if n := testing.AllocsPerRun(100, func() { ValidateBytes(b, KindIRIRef) }); n != 0 {
			t.Errorf("ValidateBytes(%q) allocates %v times", s, n)
		}
	}
}

func TestValidateBytes(t *testing.T) {
	b := []byte("http://a/%zz")
	err := ValidateBytes(b, KindURI)
	var e *Error
	if !errors.As(err, &e) || e.Offset != 9 {
		t.Fatalf("ValidateBytes = %v", err)
	}
	b[0] = 'X'
	if e.Input != "http://a/%zz" {
		t.Errorf("the error shares memory with the input: %q", e.Input)
	}
}

// TestLinear feeds long inputs shaped to hurt a backtracking parser, at
// two sizes, 8x apart: each shape must give the same verdicts at both
// (the results are used, so the calls cannot be optimised away), and the
// larger must cost at most 32x the time of the smaller (least of 7 runs
// each, the collector off while timing). Linear work gives 8x, quadratic
// 64x: the bound tells them apart with room for a loaded machine, without
// a wall-clock limit. Under the race detector, whose shadow memory makes
// large inputs dearer per byte (x32 seen on a loaded CI host), the
// verdicts are checked and the ratio is not.
func TestLinear(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	shapes := []func(n int) string{
		func(n int) string { return "http://a/" + strings.Repeat("a/", n) },
		func(n int) string { return "http://" + strings.Repeat("a", n) + "@" + strings.Repeat("b", n) + "/" },
		func(n int) string { return "http://[" + strings.Repeat("1:", n) + "]/" },
		func(n int) string { return "s://" + strings.Repeat("@", n) },
		func(n int) string { return strings.Repeat("a", n) + ":" },
		func(n int) string { return strings.Repeat("a", n) + "/" + strings.Repeat(":", n) },
		func(n int) string { return "http://a/?" + strings.Repeat("%41", n) },
		func(n int) string { return "http://a/" + strings.Repeat("é", n) },
		func(n int) string { return "http://a/" + strings.Repeat("../", n) },
	}
	// verdicts runs every call on s and returns what each said: valid
	// or not for each kind, normalized or not, resolved or not.
	verdicts := func(s string) string {
		var b strings.Builder
		for _, k := range allKinds {
			b.WriteByte(verdict(Validate(s, k), 'v'))
			_, err := Normalize(s, k)
			b.WriteByte(verdict(err, 'n'))
		}
		_, err := Resolve("http://a/b/c", s)
		b.WriteByte(verdict(err, 'r'))
		return b.String()
	}
	const small, factor = 1 << 14, 8
	for i, shape := range shapes {
		in := []string{shape(small), shape(small * factor)}
		var least [2]time.Duration
		var said [2]string
		for k := range in {
			for run := range 7 {
				start := time.Now()
				said[k] = verdicts(in[k])
				if d := time.Since(start); run == 0 || d < least[k] {
					least[k] = d
				}
			}
		}
		if said[0] != said[1] {
			t.Errorf("shape %d: verdicts %s at %d bytes, %s at %d", i, said[0], len(in[0]), said[1], len(in[1]))
		}
		if ratio := float64(least[1]) / float64(max(least[0], time.Microsecond)); ratio > 32 && !raceEnabled {
			t.Errorf("shape %d: %v at %d bytes, %v at %d: x%.1f for x%d of input (linear: x%d)",
				i, least[0], len(in[0]), least[1], len(in[1]), ratio, factor, factor)
		}
	}
}

// verdict is ok for a nil error, else '!'.
func verdict(err error, ok byte) byte {
	if err != nil {
		return '!'
	}
	return ok
}
