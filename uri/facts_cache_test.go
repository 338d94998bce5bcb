package uri

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// cacheTestHosts are hosts of each kind the facts tell apart: names in
// either case, IDN in Unicode and as A-labels, numeric in all the forms
// of the WHATWG IPv4 parser, IPv6, percent-encoded, mixed script, and
// hosts the browser refuses.
var cacheTestHosts = []string{
	"www.example.com", "WWW.Example.COM", "example.com.", "news.bbc.co.uk", "a.b.github.io", "co.uk", "localhost",
	"bücher.de", "BÜCHER.de", "xn--bcher-kva.de", "例え.テスト", "ソニーbank.jp", "москва.рф", "한국어漢字abc.kr",
	"pаypal.com", "xn--pypal-4ve.com", "gοogle.com", "microsоft.com", "xn--zz.com", "xn--",
	"1071396130", "0x3f.0xdc.0x35.0x22", "0177.1", "1.2.3.4", "1.2.3.4.", "077.220.53.34", "4294967296",
	"1.2.3.256", "0x", "09.1", "example.0x1f", "1.example", "[2001:DB8::0:1]", "[::ffff:1.2.3.4]", "[fe80::1%25eth0]",
	"%77%77%77.example.com", "%65xample.com", "%E4%BE%8B.jp", "%zz.example", "%ff.example", "a%2fb.example",
	"a..b", ".", "xn--pypal-4ve.com.", "ex_ample.com", "a-.example", "-a.example", "x.y.z.w.v.example.co.jp",
}

// cacheTestLinks are URIs with cacheTestHosts under special and other
// schemes (the IPv4 parser reads the hosts of special schemes only),
// with and without a user part and a port, and many distinct hosts
// more than the cache holds, so that slots are taken over.
func cacheTestLinks() []string {
	var links []string
	for _, h := range cacheTestHosts {
		for _, form := range []string{"http://%s/", "HTTPS://%s:8443/a?b#c", "ssh://u@%s", "foo://%s/x", "ftp://u:p@%s/", "mailto:a@%s"} {
			links = append(links, fmt.Sprintf(form, h))
		}
	}
	for i := range 3 * hostCacheSize {
		links = append(links, fmt.Sprintf("https://h%d.%s/", i, cacheTestHosts[i%len(cacheTestHosts)]))
		links = append(links, fmt.Sprintf("http://%d/", i*7919))
	}
	return links
}

// TestHostCacheAgrees: the facts through the cache are those computed
// afresh, whether the look-up misses or hits, and after other hosts took
// the slots over.
func TestHostCacheAgrees(t *testing.T) {
	links := cacheTestLinks()
	for round := range 3 {
		for _, s := range links {
			want, wantOK := factsOfUncached(s)
			got, ok := FactsOf(s)
			if got != want || ok != wantOK {
				t.Fatalf("round %d: FactsOf(%q) = %+v, %v; uncached %+v, %v", round, s, got, ok, want, wantOK)
			}
		}
	}
}

// TestHostCacheMismatchAgrees: the display mismatch of a link through the
// cache is the one computed afresh, for texts that show each kind of host.
func TestHostCacheMismatchAgrees(t *testing.T) {
	var texts []string
	for _, h := range cacheTestHosts {
		texts = append(texts, h, "Log in at https://"+h+"/now", "(http://u@"+h+":80)", "see "+h+"/x.")
	}
	texts = append(texts, "Click here", "1.5 times", "10:30", "a@b.example", "invoice.txt")
	links := cacheTestLinks()[:6*len(cacheTestHosts)]
	for round := range 2 {
		for _, s := range links {
			f, ok := factsOfUncached(s)
			if !ok {
				continue
			}
			for _, text := range texts {
				if got, want := f.DisplayMismatch(text), f.displayMismatch(text, newHostFacts); got != want {
					t.Fatalf("round %d: DisplayMismatch(%q, %q) = %v, uncached %v", round, text, s, got, want)
				}
			}
		}
	}
}

// TestHostCacheConcurrent: goroutines that look the same hosts up at
// once, taking each other's slots, each get the facts computed afresh
// (with -race: the cache shares its slots without a data race).
func TestHostCacheConcurrent(t *testing.T) {
	links := cacheTestLinks()
	want := make([]Facts, len(links))
	for i, s := range links {
		want[i], _ = factsOfUncached(s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Go(func() {
			for k := range links {
				i := (k*(g+1) + g*7) % len(links) // each goroutine in another order
				if got, _ := FactsOf(links[i]); got != want[i] {
					errs <- fmt.Sprintf("FactsOf(%q) = %+v, want %+v", links[i], got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestHostCacheSchemeKept: a host looked up under a special scheme and
// then another (or the other way) keeps the facts of each.
func TestHostCacheSchemeKept(t *testing.T) {
	for _, h := range []string{"1071396130", "0177.1", "0x3f.0xdc.0x35.0x22"} {
		for range 2 {
			special, _ := FactsOf("http://" + h + "/")
			other, _ := FactsOf("foo://" + h + "/")
			if !special.NumericHost || other.NumericHost || other.Host != h {
				t.Fatalf("%s: http %+v, foo %+v", h, special, other)
			}
		}
	}
}

// TestHostCacheBounded: the cache keeps a copy of a host, never the URI
// it was a slice of, and no host longer than hostCacheMaxLen.
func TestHostCacheBounded(t *testing.T) {
	s := "http://bounded.example/" + strings.Repeat("p", 1000)
	u, err := Parse(s, KindURI)
	if err != nil {
		t.Fatal(err)
	}
	hf := cachedHostFacts(true, u.Host)
	if hf.raw != u.Host || unsafe.StringData(hf.raw) == unsafe.StringData(u.Host) {
		t.Fatalf("the cache keeps %q at %p, a slice of the URI at %p", hf.raw, unsafe.StringData(hf.raw), unsafe.StringData(u.Host))
	}
	long := strings.Repeat("a", hostCacheMaxLen-len(".example")+1) + ".example"
	for _, host := range []string{long, "%41" + long} {
		FactsOf("http://" + host + "/")
		if hf := hostCache[hostCacheSlot(true, host)].Load(); hf != nil && hf.raw == host {
			t.Fatalf("a host of %d bytes is kept", len(host))
		}
	}
	short := long[1:]
	FactsOf("http://" + short + "/")
	if hf := hostCache[hostCacheSlot(true, short)].Load(); hf == nil || hf.raw != short {
		t.Fatalf("a host of %d bytes is not kept", len(short))
	}
}

// FuzzHostCache: the facts of any URI, and of any host under a special
// and another scheme, are the same through the cache (missed, then hit)
// as computed afresh.
func FuzzHostCache(f *testing.F) {
	for _, h := range cacheTestHosts {
		f.Add("http://" + h + "/")
	}
	f.Fuzz(func(t *testing.T, s string) {
		links := []string{s}
		if !strings.ContainsAny(s, "/?#@") {
			links = append(links, "http://"+s+"/", "foo://"+s+"/")
		}
		for _, link := range links {
			want, wantOK := factsOfUncached(link)
			for range 2 {
				if got, ok := FactsOf(link); got != want || ok != wantOK {
					t.Fatalf("FactsOf(%q) = %+v, %v; uncached %+v, %v", link, got, ok, want, wantOK)
				}
			}
			// s as the text of a link to a host of each kind.
			for _, href := range []string{"http://www.example.com/", "http://1.2.3.4/", "http://bücher.de/"} {
				f, _ := factsOfUncached(href)
				if got, want := f.DisplayMismatch(s), f.displayMismatch(s, newHostFacts); got != want {
					t.Fatalf("DisplayMismatch(%q, %q) = %v, uncached %v", s, href, got, want)
				}
			}
		}
	})
}

// TestFactsOfValid: of a valid IRI, FactsOfValid gives what FactsOf does.
func TestFactsOfValid(t *testing.T) {
	for _, s := range append(cacheTestLinks(), seeds()...) {
		checkFactsOfValid(t, s)
	}
}

func checkFactsOfValid(t *testing.T, s string) {
	want, ok := factsOfUncached(s)
	got := FactsOfValid(s) // no panic, valid or not
	valid := Validate(s, KindIRI) == nil
	if _, err := Normalize(s, KindIRI); err == nil {
		valid = true // what makes an extract.Match valid
	}
	if ok && valid && got != want {
		t.Fatalf("FactsOfValid(%q) = %+v, FactsOf %+v", s, got, want)
	}
}

// FuzzFactsOfValid: of a valid IRI, FactsOfValid gives what FactsOf
// does; of any string it does not panic.
func FuzzFactsOfValid(f *testing.F) {
	for _, h := range cacheTestHosts {
		f.Add("http://u:p@" + h + ":80/p?q#f")
	}
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(checkFactsOfValid)
}

// TestIsSpecialScheme: the special schemes of the WHATWG URL Standard
// (4.1), in any case, and no other.
func TestIsSpecialScheme(t *testing.T) {
	for _, s := range []string{"http", "HTTPS", "Ftp", "ws", "WSS", "file"} {
		if !isSpecialScheme(s) {
			t.Errorf("%s: not special", s)
		}
	}
	for _, s := range []string{"", "h", "wx", "ftps", "htt", "httpx", "files", "ssh", "mailto"} {
		if isSpecialScheme(s) {
			t.Errorf("%s: special", s)
		}
	}
}

// TestPlainNameFacts: the facts of a plain name (isPlainName) are those
// the rules for any host give.
func TestPlainNameFacts(t *testing.T) {
	hosts := append([]string{"xn-a.com", "axn--b.com", "a.xn--", "a._b-.c", "0x1f", "a.0x1f", "a.1", "1.a", "a.b.", "..", "co.uk"}, cacheTestHosts...)
	for _, h := range hosts {
		checkPlainName(t, h)
	}
}

func checkPlainName(t *testing.T, host string) {
	for _, special := range []bool{true, false} {
		if got, want := *newHostFacts(special, host), *fullHostFacts(special, host); got != want {
			t.Fatalf("newHostFacts(%v, %q) = %+v, want %+v", special, host, got, want)
		}
	}
}

// FuzzPlainNameFacts: of any host, the facts are those the rules for any
// host give.
func FuzzPlainNameFacts(f *testing.F) {
	for _, h := range cacheTestHosts {
		f.Add(h)
	}
	f.Fuzz(checkPlainName)
}
