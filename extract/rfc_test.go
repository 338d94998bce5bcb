package extract

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

const specDir = "../../shared/spec/"

func readSpec(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(specDir, name))
	if os.IsNotExist(err) {
		// The RFC texts are the project's, in ../shared beside the
		// repository, not in it: a lone checkout has none to read.
		t.Skipf("skipped: needs the text of the RFC in ../shared, beside the repository: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Real text: the RFCs, with CRLF line ends, form feeds and page breaks.
// The URIs pinned here were read off the text by hand.
func TestRFCText(t *testing.T) {
	cases := []struct {
		file     string
		rejoined []string // angle URIs wrapped across lines, rejoined
		also     []string // other URIs a reader sees
	}{
		{"rfc3986.txt", []string{
			"http://www.giac.org/practical/gsec/Richard_Siedzik_GSEC.pdf",
			"ftp://foo.example.com/rfc/",
			"http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
		}, []string{
			"ftp://ftp.is.co.za/rfc/rfc1808.txt", "http://www.ietf.org/rfc/rfc2396.txt",
			"ldap://[2001:db8::7]/c=GB?objectClass?one", "mailto:John.Doe@example.com",
			"news:comp.infosystems.www.servers.unix", "tel:+1-816-555-1212", "telnet://192.0.2.16:80/",
			"urn:oasis:names:specification:docbook:dtd:xml:4.1.2", "foo://example.com:8042/over/there?name=ferret#nose",
			"http://a/b/c/d;p?q", "http://www.w3.org/Addressing/", "http://www.example.com/",
		}},
		{"rfc3987.txt", []string{
			"http://www.unicode.org/unicode/reports/tr15/tr15-23.html",
			"http://www.w3.org/International/iri-edit/BidiExamples",
			"http://www.ifi.unizh.ch/mml/mduerst/papers/PDF/IUC11-UTF-8.pdf",
			"http://www.w3.org/TR/html401/appendix/notes.html#h-B.2",
		}, []string{
			"http://www.unicode.org/reports/tr9/tr9-13.html", "http://www.w3.org/TR/charmod-resid",
			"http://www.w3.org/DesignIssues/ModelConsequences", "http://www.w3.org/TR/xlink/#link-locators",
			"http://www.w3.org/TR/REC-xml#sec-external-ent", "http://www.example.org/D%C3%BCrst",
		}},
		{"rfc2396.txt", []string{
			"ftp://ds.internic.net/rfc/",
			"http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
		}, []string{
			"ftp://ftp.is.co.za/rfc/rfc1808.txt", "mailto:mduerst@ifi.unizh.ch",
			"gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles",
			"telnet://melvyl.ucop.edu/", "news:comp.infosystems.www.servers.unix",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			in := readSpec(t, tc.file)
			ms, skips, err := collect(bytes.NewReader(in), Options{})
			if err != nil || len(skips) > 0 {
				t.Fatalf("err %v, skips %v", err, skips)
			}
			checkInvariants(t, in, ms, skips, Options{})
			var valid, rejoined []string
			for _, m := range ms {
				if strings.IndexFunc(m.URI, unicode.IsSpace) >= 0 {
					t.Errorf("whitespace in %v", m)
				}
				if u := strings.TrimRight(m.URI, "/"); strings.HasSuffix(u, ":") && !strings.ContainsAny(u[:len(u)-1], ":/") {
					t.Errorf("a scheme alone: %v", m)
				}
				if m.Valid {
					valid = append(valid, m.URI)
				}
				if m.Flags&Rejoined != 0 {
					if m.Delim.String() != "angle" || !m.Valid || !strings.Contains(m.Raw, "\n") {
						t.Errorf("rejoined: %v", m)
					}
					rejoined = append(rejoined, m.URI)
				}
			}
			for _, u := range tc.rejoined {
				if !slices.Contains(rejoined, u) {
					t.Errorf("not found rejoined: %s", u)
				}
			}
			for _, u := range tc.also {
				if !slices.Contains(valid, u) {
					t.Errorf("not found: %s", u)
				}
			}
			t.Logf("%d URIs, %d valid, %d rejoined", len(ms), len(valid), len(rejoined))
			checkSplits(t, in, Options{}, false)
		})
	}
}
