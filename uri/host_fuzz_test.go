package uri

import (
	"net/netip"
	"strings"
	"testing"
)

// FuzzBrowserHost: no panic on any bytes; a host the browser accepts is
// read the same again (the parser is idempotent on its own output); an
// IPv4 host is a dotted quad netip reads; the registrable domain is a
// tail of the host; the facts of a whole URI never panic.
func FuzzBrowserHost(f *testing.F) {
	for _, s := range []string{
		"1071396130", "0x3f.0xdc.0x35.0x22", "0177.1", "1.2.3.4.", "0x", "09.1", "4294967296",
		"例え.テスト", "%77%77%77.example.com", "xn--pypal-4ve.com", "pаypal.com", "[::ffff:1.2.3.4]",
		"[1:0:0:2:0:0:0:3]", "ソニーbank.jp", "a..b", ".", "%", "%zz.example", "news.bbc.co.uk",
	} {
		f.Add("http", s)
		f.Add("ssh", s)
	}
	f.Fuzz(func(t *testing.T, scheme, host string) {
		h, ok := BrowserHost(scheme, host)
		MixedScript(host)
		if !ok {
			return
		}
		if h.Name == "" {
			t.Fatalf("BrowserHost(%q, %q): ok with no name", scheme, host)
		}
		again, ok := BrowserHost(scheme, h.Name)
		if !ok || again.Name != h.Name || again.Numeric != h.Numeric || again.Encoded {
			t.Fatalf("BrowserHost(%q, %q) = %+v, then %+v, %v", scheme, host, h, again, ok)
		}
		if h.Numeric && h.Name[0] != '[' {
			if a, err := netip.ParseAddr(h.Name); err != nil || !a.Is4() {
				t.Fatalf("BrowserHost(%q, %q) = %q: no IPv4 address (%v)", scheme, host, h.Name, err)
			}
		}
		if d := RegistrableDomain(h.Name); d != "" && !strings.HasSuffix(strings.TrimSuffix(h.Name, "."), d) {
			t.Fatalf("RegistrableDomain(%q) = %q", h.Name, d)
		}
		MixedScript(h.Name)
	})
}

// FuzzLinkFacts: FactsOf, Embedded and DisplayMismatch never panic, and
// each embedded URI has a host.
func FuzzLinkFacts(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s, "www.example.com")
	}
	f.Add("https://www.google.com/url?q=http%3A%2F%2Fevil.example%2F&sa=D", "https://paypal.com/")
	f.Add("https://r.search.yahoo.com/RU=http%3a%2f%2fevil.example%2f/RK=2", "paypal.com")
	f.Add("https://www.bing.com/ck/a?u=a1aHR0cHM6Ly9ldmlsLmV4YW1wbGUvcGFnZQ", "http://1.2.3.4/")
	f.Add("https://t.example/click/https://evil.example/x?y=1", "(www.paypal.com)")
	f.Fuzz(func(t *testing.T, s, text string) {
		FactsOf(s)
		DisplayMismatch(text, s)
		for _, e := range Embedded(s) {
			if fe, ok := FactsOf(e); !ok || !fe.HasHost {
				t.Fatalf("Embedded(%q) gave %q, with no host", s, e)
			}
		}
	})
}
