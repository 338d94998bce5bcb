package extract

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/urix-dev/urix/uri"
)

// fuzzOptions picks options from the bits of sel.
func fuzzOptions(sel uint8) Options {
	o := Options{
		WWW:   sel&1 != 0,
		Email: sel&2 != 0,
	}
	switch sel >> 2 & 3 {
	case 1:
		o.MaxLength = 24
	case 2:
		o.MaxLength = 200
	}
	switch sel >> 4 & 3 {
	case 1:
		o.AnyScheme = true
	case 2:
		o.Schemes = []string{"http", "go", "x"}
	}
	if sel&64 != 0 {
		o.Hyphen = HyphenBoth
	}
	return o
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"see <http://a/b> now",
		"<URL: http://a/b\r\n  c>",
		"> see <http://example.com/a-\n> b/c>",
		"\"http://a/b\n  c\" (http://en.wikipedia.org/wiki/Foo_(bar)).",
		"e.g.http://x 1.http://x 2.0http://x mailto: x",
		"http://例え.テスト/パス。 https://en.wikipedia.org/wiki/M–M…",
		"www.example.com user@example.com",
		"<http://x <http://y\n\n>",
		"http://a/\x00\xff\u200bhttp://b/",
		"[http://[::1]/ label] {http://a/}",
		"<" + strings.Repeat("http://x ", 10),
		"http://" + strings.Repeat("a", 40) + " http://b/",
		"<ht\n   tp://a/b> <https:\r\n  //c/d> > <ht\n>  tp:\n>  //e/f>",
		"<https://a/b\\\n   \\c> <https://launchpad.net/\\~user> 0 < http://x = c && c < 32 >",
		"x=\"urn:a:b\n   http://x/b.xsd\" \"http://a/b|c\" \"http://a/b|c\n  d\"",
		"a\rhttp://b/\r\nc\r",
		// Revision 5: shapes, <...> schemes, SLP, emphasis, quotes, folds,
		// page breaks, bare breaks, never cut, glued words, addresses.
		"URN:NBNs <urn:sppp> urn:a:b GEO:geo:1,2 sms:tel <im:a@b.example> <info:uri>x</info:uri> service:a:lpr://h/q",
		"_http://a/b_ *http://a/c* http://a/b'c' [IMG: http://x/a.jpg][2] http://a/\u0d4d\u200d.html ｜",
		"xmlns='urn:x:y'/> \"urn:ab:rtp-\n hdrext:c\" (http://a/\n b/\n c) x:schemaLocation=\"urn:a:b\n c.xsd\"",
		"GET https://e.example/a/\\\n   b/\\\n\n <http://a/\n\n\nX   Y   [Page 9]\n\f\nRFC 1 T 2000\n\n c>",
		"http://a/99/\n   b/c.pdf.\n> http://a/x?\r\n> y=1\n",
		"http://exa\u200bmple.com/x <http://b\xc0c.example/> http://e.jp\u30022024 www.n.comGlenn a@b.comAre",
		"In <i@a.example> a#b@x.example\n> Message-ID: <m@x.example>\ntest.\"f\".b@x.example a@-x.com a@x.com-",
	} {
		f.Add([]byte(s), uint64(1), uint8(0))
		f.Add([]byte(s), uint64(7), uint8(128+64+3))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, sel uint8) {
		opts := fuzzOptions(sel)
		watchdog := time.AfterFunc(20*time.Second, func() {
			os.WriteFile(os.TempDir()+"/urix-hang.txt", []byte(fmt.Sprintf("%q %d %d", data, seed, sel)), 0o644)
			panic(fmt.Sprintf("hang on %q seed %d sel %d", data, seed, sel))
		})
		defer watchdog.Stop()
		want, wantSkips, err := collect(bytes.NewReader(data), opts)
		if err != nil {
			t.Fatal(err)
		}
		// The other readers also reuse the matches' strings when sel's
		// top bit asks: the same matches either way.
		reuse := opts
		reuse.ReuseStrings = sel&128 != 0
		for name, r := range map[string]interface{ Read([]byte) (int, error) }{
			"onebyte": iotest.OneByteReader(bytes.NewReader(data)),
			"random":  &chunkReader{b: data, rnd: rand.New(rand.NewPCG(seed, 1)), max: 1 + int(seed%37)},
			"inplace": inPlaceReader{bytes.NewReader(data), data},
		} {
			ms, skips, err := collect(r, reuse)
			if err != nil {
				t.Fatal(err)
			}
			if !sameMatches(ms, want) || fmt.Sprint(skips) != fmt.Sprint(wantSkips) {
				t.Fatalf("%s reader differs:\ngot:%s\n%v\nwant:%s\n%v", name, dump(ms), skips, dump(want), wantSkips)
			}
		}
		// Scanning up to limits, as the CLI's readers of chunks do,
		// changes nothing either.
		l1 := int64(seed % uint64(len(data)+1))
		l2 := l1 + int64(seed>>32%64)
		ms, skips, err := collectBefore(t, iotest.HalfReader(bytes.NewReader(data)), opts, l1, l2)
		if err != nil {
			t.Fatal(err)
		}
		if !sameMatches(ms, want) || fmt.Sprint(skips) != fmt.Sprint(wantSkips) {
			t.Fatalf("ScanBefore(%d), ScanBefore(%d), Scan differ:\ngot:%s\n%v\nwant:%s\n%v", l1, l2, dump(ms), skips, dump(want), wantSkips)
		}
		if l1 > 0 {
			checkQuietJoin(t, data, opts, l1, max(0, l1-1-int64(seed>>16%600)))
		}
		checkInvariants(t, data, want, wantSkips, opts)
	})
}

// lineColumn returns the line and column (1-based, the column in bytes)
// of offset off in data, counted byte by byte: LF, CR LF and a lone CR
// each end a line (behaviour §7.2).
func lineColumn(data []byte, off int64) (line, column int64) {
	line, start := int64(1), int64(0)
	for i := int64(0); i < off; i++ {
		switch data[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < int64(len(data)) && data[i+1] == '\n' {
				continue // counted at its LF
			}
			line, start = line+1, i+1
		}
	}
	return line, off - start + 1
}

// checkInvariants checks what holds of any extraction of data.
func checkInvariants(t *testing.T, data []byte, ms []got, skips []Skip, opts Options) {
	t.Helper()
	prev := int64(-1)
	for i, m := range ms {
		// The line counter (its vector loop, its CRs pending across reads)
		// against a count byte by byte.
		if line, col := lineColumn(data, m.Offset); !opts.NoLines && (m.Line != line || m.Column != col) {
			t.Fatalf("match %d at %d: line %d column %d, counted %d %d", i, m.Offset, m.Line, m.Column, line, col)
		}
		if m.Offset < 0 || m.End < m.Offset || m.End > int64(len(data)) {
			t.Fatalf("match %d: bad span: %v", i, m)
		}
		if m.Raw != string(data[m.Offset:m.End]) {
			t.Fatalf("match %d: Raw %q is not the input from Offset to End %q", i, m.Raw, data[m.Offset:m.End])
		}
		second := opts.Hyphen == HyphenBoth && i > 0 && ms[i-1].Offset == m.Offset && ms[i-1].Flags&HyphenAmbiguous != 0
		if m.Offset <= prev && !second {
			t.Fatalf("match %d: offsets do not increase:%s", i, dump(ms))
		}
		prev = m.Offset
		if m.Valid {
			if err := uri.Validate(m.URI, uri.KindIRI); err != nil {
				t.Fatalf("match %d: reported valid, Validate says %v: %v", i, err, m)
			}
		} else if m.Reason == "" {
			t.Fatalf("match %d: invalid without a reason: %v", i, m)
		}
		if m.URI == "" {
			t.Fatalf("match %d: empty URI", i)
		}
		for _, r := range m.URI {
			// Taken whole so as not to name another host, an invalid one
			// may hold them in its authority (behaviour §2).
			if m.Valid && (unicode.IsSpace(r) || r == utf8.RuneError || r < 0x20 || r == 0x7f) ||
				!m.Valid && unicode.IsSpace(r) {
				t.Fatalf("match %d: URI holds %q: %v", i, r, m)
			}
		}
		// An address's local part is percent-encoded (behaviour §2.9).
		found := m.URI
		if u, err := url.PathUnescape(found); err == nil && strings.HasPrefix(found, "mailto:") && !strings.HasPrefix(m.Raw, "mailto:") {
			found = u
		}
		if m.Flags&Rejoined == 0 && !strings.HasSuffix(found, m.Raw) && !opts.ASCII && m.Flags&HyphenAmbiguous == 0 {
			t.Fatalf("match %d: not rejoined yet URI %q is not its raw text %q", i, m.URI, m.Raw)
		}
		if opts.MaxLength > 0 && m.End-m.Offset > int64(opts.MaxLength) {
			t.Fatalf("match %d: longer than the limit %d: %v", i, opts.MaxLength, m)
		}
	}
	for i, sk := range skips {
		if sk.Offset < 0 || sk.End <= sk.Offset || sk.End > int64(len(data)) {
			t.Fatalf("skip %d: bad span %+v", i, sk)
		}
		if max := opts.MaxLength; max > 0 && sk.End-sk.Offset <= int64(max) {
			t.Fatalf("skip %d: not longer than the limit %d: %+v", i, max, sk)
		}
	}
}

// inPlaceReader is a scan.InPlaceReader: the scanner scans b where it
// lies, without reading.
type inPlaceReader struct {
	*bytes.Reader
	b []byte
}

func (r inPlaceReader) InPlace() []byte { return r.b }
