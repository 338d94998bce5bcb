package uri

import (
	"fmt"
	"testing"
)

// benchLinks are links as mail holds them: hosts repeat (a newsletter
// links its own site forty times), with a few numeric, encoded and IDN
// hosts among them. 4,000 links, 400 hosts.
var benchLinks = func() []string {
	var links []string
	for i := range 4000 {
		var host string
		switch h := i % 400; {
		case h == 1:
			host = "1071396130"
		case h == 2:
			host = "%77%77%77.example.com"
		case h == 3:
			host = "bücher.example.de"
		case h == 4:
			host = "xn--pypal-4ve.com"
		case h == 5:
			host = "[2001:db8::1]"
		case h%3 == 0:
			host = fmt.Sprintf("www.site%d.co.uk", h)
		default:
			host = fmt.Sprintf("img.site%d.com", h)
		}
		links = append(links, fmt.Sprintf("https://%s/path/%d?utm_source=x&id=%d", host, i, i))
	}
	return links
}()

// distinctLinks have a host each, more than the host cache holds: every
// look-up misses.
var distinctLinks = func() []string {
	var links []string
	for i := range 4 * hostCacheSize {
		links = append(links, fmt.Sprintf("https://www.host%d.example.com/p/%d", i, i))
	}
	return links
}()

func benchFacts(b *testing.B, links []string, factsOf func(string) (Facts, bool)) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if _, ok := factsOf(links[n%len(links)]); !ok {
			b.Fatal(links[n%len(links)])
		}
		n++
	}
}

// BenchmarkFactsOf is the cost of the facts of one link (ns/op is per
// link).
func BenchmarkFactsOf(b *testing.B) {
	b.Run("mail", func(b *testing.B) { benchFacts(b, benchLinks, FactsOf) })
	b.Run("distinct", func(b *testing.B) { benchFacts(b, distinctLinks, FactsOf) })
	b.Run("mail/uncached", func(b *testing.B) { benchFacts(b, benchLinks, factsOfUncached) })
}

func BenchmarkRegistrableDomain(b *testing.B) {
	hosts := []string{"www.example.com", "news.bbc.co.uk", "a.b.c.github.io", "localhost", "bücher.example.de"}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		RegistrableDomain(hosts[n%len(hosts)])
		n++
	}
}

// BenchmarkDisplayMismatch is the cost of the mismatch check of an
// anchor whose text shows a site (ns/op is per link).
func BenchmarkDisplayMismatch(b *testing.B) {
	texts := []string{"www.site1.com", "Sign in at https://www.paypal.com/signin now", "https://img.site2.com/view", "news.bbc.co.uk"}
	f, _ := FactsOf("https://www.site1.com/path?id=1")
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		f.DisplayMismatch(texts[n%len(texts)])
		n++
	}
}
