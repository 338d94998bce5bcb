package extract

import (
	"testing"

	"github.com/urix-dev/urix/internal/scan"
)

// behaviour §2.9 (revision 5): an address is reported as RFC 6068 writes
// it, its local part percent-encoded where a mailto: URI needs it.
func TestMailtoEncoded(t *testing.T) {
	runMarkCases(t, []markCase{
		{in: "|a#b@example.com|\n|a?b@example.com|", want: []string{"mailto:a%23b@example.com", "mailto:a%3Fb@example.com"}, opts: Options{Email: true}},
		{in: "|a%b@x.com| |a/b@x.com|", want: []string{"mailto:a%25b@x.com", "mailto:a%2Fb@x.com"}, opts: Options{Email: true}},
		{in: "|a{b}^`c~@x.com| |üa@example.com|", want: []string{"mailto:a%7Bb%7D%5E%60c~@x.com", "mailto:%C3%BCa@example.com"}, opts: Options{Email: true}},
		{in: "|o'brien@example.com| |a!b@example.com|", want: []string{"mailto:o'brien@example.com", "mailto:a!b@example.com"}, opts: Options{Email: true}},
	})
}

// behaviour §3.6 (revision 5): '...' is reported as a quote.
func TestSingleQuoteDelimiter(t *testing.T) {
	ms := collectString("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>", Options{})
	if len(ms) != 1 || ms[0].URI != "urn:ietf:params:xml:ns:xmpp-tls" || ms[0].Delim != scan.DelimQuote {
		t.Errorf("single-quoted attribute:%s", dump(ms))
	}
}

// behaviour §2 (revision 5): a candidate taken whole over a character that
// cuts its host is invalid, never a URI of another host.
func TestNeverCutInvalid(t *testing.T) {
	runMarkCases(t, []markCase{
		{in: "<|http://exa\u200bmple.com/x|>", want: []string{"!http://exa\u200bmple.com/x"}},
		{in: "|http://bad\xc0host.example/|", want: []string{"!http://bad\xc0host.example/"}},
		{in: "詳しくは |http://example.jp|\u30022024年"},
	})
}

// behaviour §3.8 (revision 5): --bare-break keep, join and both.
func TestBareBreakModes(t *testing.T) {
	const in = "see http://www.isoc.org/isoc/conferences/ndss/99/\n   proceedings/papers/wu.pdf.\n"
	const first, joined = "http://www.isoc.org/isoc/conferences/ndss/99/", "http://www.isoc.org/isoc/conferences/ndss/99/proceedings/papers/wu.pdf"
	for _, tc := range []struct {
		mode BareBreakMode
		want []string
		ends []int64
	}{
		{BareBreakKeep, []string{first}, []int64{49}},
		{BareBreakJoin, []string{joined}, []int64{78}},
		{BareBreakBoth, []string{first, joined}, []int64{49, 78}},
	} {
		ms := collectString(in, Options{BareBreak: tc.mode})
		if len(ms) != len(tc.want) {
			t.Fatalf("mode %d:%s", tc.mode, dump(ms))
		}
		for i, m := range ms {
			if m.URI != tc.want[i] || m.End != tc.ends[i] || m.Flags&BreakAmbiguous == 0 || m.Alt != joined || !m.Valid {
				t.Errorf("mode %d, match %d: want %q ending at %d, flagged, alt %q:%s", tc.mode, i, tc.want[i], tc.ends[i], joined, dump(ms))
			}
		}
	}
}
