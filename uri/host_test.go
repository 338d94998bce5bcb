package uri

import (
	"slices"
	"testing"
)

func TestBrowserHost(t *testing.T) {
	tests := []struct {
		scheme, host string
		want         string
		numeric      bool
		encoded      bool
		ok           bool
	}{
		// IPv4 in every form the WHATWG parser takes (behaviour §10).
		{"http", "1071396130", "63.220.53.34", true, false, true},
		{"http", "0x3f.0xdc.0x35.0x22", "63.220.53.34", true, false, true},
		{"http", "0x3F.0XDC.0x35.0x22", "63.220.53.34", true, false, true},
		{"http", "0177.1", "127.0.0.1", true, false, true},
		{"http", "077.0334.065.042", "63.220.53.34", true, false, true},
		{"http", "63.14431522", "63.220.53.34", true, false, true},
		{"http", "63.220.13602", "63.220.53.34", true, false, true},
		{"http", "0x3fdc3522", "63.220.53.34", true, false, true},
		{"http", "63.220.53.34", "63.220.53.34", true, false, true},
		{"http", "63.220.53.34.", "63.220.53.34", true, false, true},
		{"http", "0x", "0.0.0.0", true, false, true},
		{"http", "%31%32%37.0.0.1", "127.0.0.1", true, true, true},
		{"http", "1.2.3.256", "", false, false, false},
		{"http", "256.1", "", false, false, false},
		{"http", "1.2.3.4.5", "", false, false, false},
		{"http", "4294967296", "", false, false, false},
		{"http", "4294967295", "255.255.255.255", true, false, true},
		{"http", "09.1", "", false, false, false}, // 9 is no octal digit
		{"http", "1.2.3.0x", "1.2.3.0", true, false, true},
		// Not a number at its end: a domain.
		{"http", "1.2.3.example", "1.2.3.example", false, false, true},
		{"http", "0x1g", "0x1g", false, false, true},
		// Other schemes: no IPv4 parser (an opaque host).
		{"ssh", "1071396130", "1071396130", false, false, true},
		// Domains: lower case, IDN to A-labels, percent-decoded.
		{"http", "WWW.Example.COM", "www.example.com", false, false, true},
		{"http", "例え.テスト", "xn--r8jz45g.xn--zckzah", false, false, true},
		{"http", "%77%77%77.example.com", "www.example.com", false, true, true},
		{"http", "%E4%BE%8B%E3%81%88.jp", "xn--r8jz45g.jp", false, true, true},
		{"http", "ｅｘａｍｐｌｅ.com", "example.com", false, false, true},
		{"http", "pаypal.com", "xn--pypal-4ve.com", false, false, true},
		{"http", "ex%2Fample.com", "", false, true, false}, // a decoded '/' is forbidden
		{"http", "%ff.example", "", false, true, false},
		{"http", "xn--a.example", "", false, false, false}, // bad Punycode
		// IPv6 in the WHATWG serialization.
		{"http", "[::1]", "[::1]", true, false, true},
		{"http", "[2001:DB8:0:0:0:0:0:1]", "[2001:db8::1]", true, false, true},
		{"http", "[::ffff:1.2.3.4]", "[::ffff:102:304]", true, false, true},
		{"http", "[1:0:0:2:0:0:0:3]", "[1:0:0:2::3]", true, false, true},
		{"http", "[v1.x]", "", false, false, false},
		{"http", "", "", false, false, false},
	}
	for _, tt := range tests {
		h, ok := BrowserHost(tt.scheme, tt.host)
		if ok != tt.ok || ok && (h.Name != tt.want || h.Numeric != tt.numeric || h.Encoded != tt.encoded) {
			t.Errorf("BrowserHost(%q, %q) = %+v, %v; want %q numeric=%v encoded=%v, %v",
				tt.scheme, tt.host, h, ok, tt.want, tt.numeric, tt.encoded, tt.ok)
		}
	}
}

func TestRegistrableDomain(t *testing.T) {
	tests := []struct{ host, want string }{
		{"news.bbc.co.uk", "bbc.co.uk"},
		{"www.paypal.com", "paypal.com"},
		{"paypal.com", "paypal.com"},
		{"paypal.com.", "paypal.com"},
		{"WWW.PayPal.COM", "paypal.com"},
		{"co.uk", ""},     // a public suffix (ICANN section)
		{"github.io", ""}, // a public suffix (private section)
		{"user.github.io", "user.github.io"},
		{"a.b.user.github.io", "user.github.io"},
		{"localhost", ""}, // one label
		{"63.220.53.34", ""},
		{"[::1]", ""},
		{"xn--r8jz45g.xn--zckzah", "xn--r8jz45g.xn--zckzah"},
		{"www.例え.テスト", "例え.テスト"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := RegistrableDomain(tt.host); got != tt.want {
			t.Errorf("RegistrableDomain(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestMixedScript(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"pаypal.com", true},        // Cyrillic а among Latin
		{"xn--pypal-4ve.com", true}, // the same as an A-label
		{"аррӏе.com", false},        // all Cyrillic: one script (whole-script confusables are another matter)
		{"paypal.com", false},
		{"paypal2024.com", false},                          // Latin and digits (Common)
		{"my-shop-1.example", false},                       // hyphen and digits
		{"ソニーbank.jp", false},                              // Katakana, the long-vowel mark (Common) and Latin
		{"日本語テストひらがなabc.jp", false},                        // Han, Katakana, Hiragana, Latin: Japanese
		{"xn--abc-o73b4fvb9j6o0dva8760mehdm06m.jp", false}, // the same as an A-label
		{"中文ㄅㄆabc.tw", false},                              // Han, Bopomofo, Latin
		{"한국어漢字abc.kr", false},                             // Hangul, Han, Latin
		{"ひらがなհայ.example", true},                          // Hiragana with Armenian
		{"한국어ひらがな.example", true},                          // Hangul with Hiragana: no allowed set holds both
		{"ελληνικά-latin.example", true},
		{"café.example", false},        // é is Latin
		{"e\u0301cole.example", false}, // a combining mark is Inherited
	}
	for _, tt := range tests {
		if got := MixedScript(tt.host); got != tt.want {
			t.Errorf("MixedScript(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

func TestFactsOf(t *testing.T) {
	tests := []struct {
		uri  string
		want Facts
	}{
		{"http://1071396130/", Facts{HasHost: true, Host: "63.220.53.34", NumericHost: true}},
		{"http://www.paypal.com@evil.example/", Facts{HasHost: true, Host: "evil.example", Domain: "evil.example", Userinfo: true}},
		{"http://%77%77%77.example.com/", Facts{HasHost: true, Host: "www.example.com", Domain: "example.com", EncodedHost: true}},
		{"http://pаypal.com/", Facts{HasHost: true, Host: "xn--pypal-4ve.com", Domain: "xn--pypal-4ve.com", MixedScript: true}},
		{"https://news.bbc.co.uk/x", Facts{HasHost: true, Host: "news.bbc.co.uk", Domain: "bbc.co.uk"}},
		{"http://localhost:8080/", Facts{HasHost: true, Host: "localhost"}},
		{"mailto:a@example.com", Facts{}},
		{"file:///etc/passwd", Facts{}},
		{"http://ex%2Fample.com/", Facts{EncodedHost: true}},
	}
	for _, tt := range tests {
		got, ok := FactsOf(tt.uri)
		if !ok || got != tt.want {
			t.Errorf("FactsOf(%q) = %+v, %v; want %+v", tt.uri, got, ok, tt.want)
		}
	}
}

func TestDisplayMismatch(t *testing.T) {
	tests := []struct {
		text, href string
		want       bool
	}{
		{"www.paypal.com", "http://evil.example/", true},
		{"https://paypal.com/login", "http://evil.example/", true},
		{"Log in at https://www.paypal.com/signin now", "http://paypal.com.evil.example/", true},
		{"(paypal.com)", "http://evil.example/", true},
		{"http://1.2.3.4/", "http://5.6.7.8/", true},
		{"http://1071396130/", "http://5.6.7.8/", true}, // no dot shown
		{"https://www.paypal.com@evil.example/", "https://www.paypal.com/", true},
		// The same site in another form: no mismatch.
		{"www.paypal.com", "https://paypal.com/", false},
		{"https://paypal.com/", "http://www.paypal.com/account", false},
		{"PAYPAL.COM", "https://www.paypal.com/", false},
		{"http://1071396130/", "http://63.220.53.34/", false},
		{"例え.テスト", "http://xn--r8jz45g.xn--zckzah/", false},
		// No host shown.
		{"Click here", "http://evil.example/", false},
		{"invoice.txt", "http://evil.example/", false},
		{"version 1.5", "http://evil.example/", false},
		{"support@paypal.com", "http://evil.example/", false},
		{"", "http://evil.example/", false},
		// No host linked.
		{"paypal.com", "mailto:a@evil.example", false},
	}
	for _, tt := range tests {
		if got := DisplayMismatch(tt.text, tt.href); got != tt.want {
			t.Errorf("DisplayMismatch(%q, %q) = %v, want %v", tt.text, tt.href, got, tt.want)
		}
	}
}

func TestEmbedded(t *testing.T) {
	tests := []struct {
		uri  string
		want []string
	}{
		{"https://www.google.com/url?q=http%3A%2F%2Fevil.example%2F&sa=D", []string{"http://evil.example/"}},
		{"https://www.google.com/url?sa=t&url=https%3a%2f%2fevil.example%2fa%3fb%3d1&usg=x", []string{"https://evil.example/a?b=1"}},
		{"https://l.facebook.com/l.php?u=https%3A%2F%2Fevil.example%2F&h=AT0", []string{"https://evil.example/"}},
		{"https://r.search.yahoo.com/_ylt=A0geK/RV=2/RE=1700000000/RO=10/RU=http%3a%2f%2fevil.example%2fpage/RK=2/RS=abc-", []string{"http://evil.example/page"}},
		{"https://www.bing.com/ck/a?!&&p=abc&u=a1aHR0cHM6Ly9ldmlsLmV4YW1wbGUvcGFnZQ&ntb=1", []string{"https://evil.example/page"}},
		{"https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fevil.example%2F&data=05", []string{"https://evil.example/"}},
		{"https://click.example.net/track?redirect=http://evil.example/a&id=7", []string{"http://evil.example/a"}},
		{"https://t.example/click/https://evil.example/x?y=1", []string{"https://evil.example/x?y=1"}},
		{"https://t.example/c/https%3A%2F%2Fevil.example%2F/7", []string{"https://evil.example/"}},
		{"https://www.google.com/url?q=http%3A%2F%2Fevil.example%2F&x=https%3A%2F%2Fother.example%2F", []string{"http://evil.example/", "https://other.example/"}},
		// None.
		{"https://example.com/?q=hello", nil},
		{"https://example.com/path/xhttp://no", nil},
		{"https://example.com/?q=http%3A%2F%2F", nil},
		{"https://www.bing.com/ck/a?u=a1!!!", nil},
	}
	for _, tt := range tests {
		if got := Embedded(tt.uri); !slices.Equal(got, tt.want) {
			t.Errorf("Embedded(%q) = %q, want %q", tt.uri, got, tt.want)
		}
	}
}
