package extract

import (
	"strings"
	"testing"
)

// TestAttrReader pins behaviour §9: an attribute value read as the
// recipient's browser reads it.
func TestAttrReader(t *testing.T) {
	for _, c := range []struct {
		value, base string
		kind        AttrKind
		uri         string
		valid       bool
		encoded     bool
		raw         string
	}{
		// The public case of issue 36: a space is encoded, not a fault.
		{"mailto:feedback@example.org?subject=Site Feedback", "", AttrURI, "mailto:feedback@example.org?subject=Site%20Feedback", true, true, "mailto:feedback@example.org?subject=Site Feedback"},
		{" http://img.example.org/a b.gif ", "", AttrURI, "http://img.example.org/a%20b.gif", true, true, "http://img.example.org/a b.gif"},
		// Nothing to encode: as written, no flag.
		{"http://a.example/b?c=d#e", "", AttrURI, "http://a.example/b?c=d#e", true, false, "http://a.example/b?c=d#e"},
		// Inner tab, LF, CR removed; not an encoding.
		{"http://a.example/b\n\tc", "", AttrURI, "http://a.example/bc", true, false, "http://a.example/b\n\tc"},
		// The list: | [ ] ^ { } ` " < > and a second '#'.
		{"http://a.example/x|y[1]^{z}`", "", AttrURI, "http://a.example/x%7Cy%5B1%5D%5E%7Bz%7D%60", true, true, ""},
		{"http://a.example/p#f#g", "", AttrURI, "http://a.example/p#f%23g", true, true, ""},
		// NBSP and a format character (ZWSP) in UTF-8.
		{"http://a.example/a\u00a0b\u200bc", "", AttrURI, "http://a.example/a%C2%A0b%E2%80%8Bc", true, true, ""},
		// '\' is '/' in the path of special schemes, encoded elsewhere.
		{`http:\\a.example\b\c?d\e`, "", AttrURI, "http://a.example/b/c?d%5Ce", true, true, ""},
		{`mailto:a@b.example?body=x\y`, "", AttrURI, "mailto:a@b.example?body=x%5Cy", true, true, ""},
		// An IPv6 host keeps its brackets.
		{"http://[2001:db8::1]/a]", "", AttrURI, "http://[2001:db8::1]/a%5D", true, true, ""},
		// The browser refuses a space in the host: invalid, whole.
		{"http://a b.example/c", "", AttrURI, "http://a b.example/c", false, false, ""},
		{"http://a.example:80x/", "", AttrURI, "http://a.example:80x/", false, false, ""},
		// A glued word before http, as in text.
		{"hhttp://a.example/b", "", AttrURI, "http://a.example/b", true, false, "http://a.example/b"},
		// Not a URI SPEC 2 finds: searched as text.
		{"javascript:window.open('http://a.example/')", "", AttrText, "", false, false, ""},
		{"URL:http://a.example/", "", AttrText, "", false, false, ""},
		// Relative references: resolved against the base, else nothing.
		{"/docs/guide.html", "", AttrNone, "", false, false, ""},
		{"/docs/a b.html", "http://w.example/x/y", AttrURI, "http://w.example/docs/a%20b.html", true, true, "/docs/a b.html"},
		{"//cdn.example.net/lib.js", "https://w.example/", AttrURI, "https://cdn.example.net/lib.js", true, false, ""},
		{`img\a.gif`, "http://w.example/x/", AttrURI, "http://w.example/x/img/a.gif", true, false, ""},
		{"", "", AttrNone, "", false, false, ""},
		{" \t ", "http://w.example/", AttrNone, "", false, false, ""},
	} {
		a := NewAttrReader(Options{})
		kind, m := a.Read(c.value, c.base)
		if kind != c.kind {
			t.Errorf("Read(%q, %q): kind %d, want %d", c.value, c.base, kind, c.kind)
			continue
		}
		if kind != AttrURI {
			continue
		}
		if m.URI != c.uri || m.Valid != c.valid || (m.Flags&BrowserEncoded != 0) != c.encoded {
			t.Errorf("Read(%q, %q) = %q valid %v flags %v (%v), want %q valid %v encoded %v",
				c.value, c.base, m.URI, m.Valid, m.Flags.Names(), m.Err, c.uri, c.valid, c.encoded)
		}
		if c.raw != "" && string(m.Raw) != c.raw {
			t.Errorf("Read(%q): raw %q, want %q", c.value, m.Raw, c.raw)
		}
		if c.raw != "" && c.value[m.Offset:m.End] != string(m.Raw) {
			t.Errorf("Read(%q): offsets %d-%d do not hold raw %q", c.value, m.Offset, m.End, m.Raw)
		}
	}
}

// TestAttrReaderUnique: under Unique, a value is one URI among the others.
func TestAttrReaderUnique(t *testing.T) {
	set := NewUniqueSet()
	a := NewAttrReader(Options{Unique: true, UniqueSet: set})
	if k, _ := a.Read("http://a.example/a b", ""); k != AttrURI {
		t.Fatalf("first: %d", k)
	}
	if k, _ := a.Read("HTTP://A.example/a%20b", ""); k != AttrNone {
		t.Errorf("same normal form again: %d, want AttrNone", k)
	}
	if set.Add("http://a.example/a%20b") {
		t.Errorf("the set shared with the text scanners does not hold the value")
	}
}

// TestAttrReaderLong: a value past MaxLength is searched as text, where
// the scanner reports its skip.
func TestAttrReaderLong(t *testing.T) {
	a := NewAttrReader(Options{MaxLength: 100})
	if k, _ := a.Read("http://a.example/"+strings.Repeat("a", 200), ""); k != AttrText {
		t.Errorf("kind %d, want AttrText", k)
	}
}

func FuzzAttrReader(f *testing.F) {
	for _, s := range []string{"http://a.example/a b", `http:\\x\y`, "mailto:a@b?subject=x y#a#b", "hhttp://x", "/a b", "//h/p", "javascript:x", "http://[::1]/[]"} {
		f.Add(s, "http://base.example/d/")
	}
	f.Fuzz(func(t *testing.T, value, base string) {
		if base != "" && schemeOf(base) == "" {
			base = ""
		}
		a := NewAttrReader(Options{})
		kind, m := a.Read(value, base)
		if kind != AttrURI {
			return
		}
		if m.Offset < 0 || m.End > int64(len(value)) || m.Offset > m.End || value[m.Offset:m.End] != string(m.Raw) {
			t.Fatalf("Read(%q): offsets %d-%d, raw %q", value, m.Offset, m.End, m.Raw)
		}
		if m.Valid && strings.ContainsAny(m.URI, " \t\n\"<>{}|^`") {
			t.Fatalf("Read(%q): valid %q holds a character a URI cannot", value, m.URI)
		}
	})
}

func BenchmarkAttrReader(b *testing.B) {
	a := NewAttrReader(Options{})
	values := []string{"https://click.example.com/ls/click?upn=aBc123-2FxYz&id=42", "http://img.example.org/a b.gif", "/rel/x.html", "mailto:a@b.example?subject=Hi there"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a.Read(values[i%len(values)], "http://base.example/")
	}
}
