package uri

import (
	"net/url"
	"testing"
)

// benchURIs are typical URIs as found in text.
var benchURIs = []string{
	"http://www.example.com/",
	"https://github.com/urix-dev/urix/blob/main/uri/parse.go#L42",
	"https://en.wikipedia.org/wiki/Uniform_Resource_Identifier?action=history&offset=20240101",
	"mailto:John.Doe@example.com",
	"ftp://ftp.is.co.za/rfc/rfc1808.txt",
	"http://[2001:db8::7]:8080/c=GB?objectClass?one",
	"https://user:pass@example.com:8443/a/b/c%20d/e.html?q=%E2%9C%93&x=y#frag",
	"urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
}

func BenchmarkValidate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchURIs {
			if err := Validate(s, KindURI); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkNetURLParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchURIs {
			if _, err := url.Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchURIs {
			if _, err := Parse(s, KindURI); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkNormalizeNormal(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchURIs {
			if _, err := Normalize(s, KindURI); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkNormalizeChanged(b *testing.B) {
	in := []string{
		"HTTP://www.EXAMPLE.com:80/a/./b/../c/%7euser",
		"eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
		"https://Example.COM:443",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range in {
			if _, err := Normalize(s, KindURI); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkLookupSchemeBytes(b *testing.B) {
	names := [][]byte{[]byte("http"), []byte("HTTPS"), []byte("mailto"), []byte("notascheme"), []byte("iris.beep")}
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			LookupSchemeBytes(n)
		}
	}
}
