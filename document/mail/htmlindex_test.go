package mail

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// textEndByIndex is htmlIndex.textEnd as fast did it before the masks:
// bytes.IndexByte for '<', then for '&' and CR in the text.
func textEndByIndex(b []byte, p int) (int, bool) {
	q := p
	for {
		j := bytes.IndexByte(b[q:], '<')
		if j < 0 || q+j+1 >= len(b) {
			return -1, bytes.IndexByte(b[p:], '&') >= 0 || bytes.IndexByte(b[p:], '\r') >= 0
		}
		q += j
		if tagOpen[b[q+1]] {
			t := b[p:q]
			return q, bytes.IndexByte(t, '&') >= 0 || bytes.IndexByte(t, '\r') >= 0
		}
		q++
	}
}

// htmlIndexAlphabet makes texts where tags, a '<' of the text, '&', CR
// and long runs without any are frequent.
var htmlIndexAlphabet = []string{"<", "<b>", "</p>", "< ", "&", "&amp;", "\r\n", "x", "text of some length ", "<<", "<!--", "\n", "é"}

func randomHTMLText(r *rand.Rand, n int) []byte {
	var b []byte
	for len(b) < n {
		b = append(b, htmlIndexAlphabet[r.IntN(len(htmlIndexAlphabet))]...)
	}
	return b[:n]
}

// checkTextEnd holds textEnd to textEndByIndex at every start in b, one
// index for all as fast uses it, the bytes given growing as fast's limit
// does (grow bytes past the start, 0 for all of b).
func checkTextEnd(t *testing.T, b []byte, grow int) {
	t.Helper()
	var x htmlIndex
	x.reset()
	for p := 0; p < len(b); p++ {
		bb := b
		if grow > 0 {
			bb = b[:min(len(b), p+grow)]
		}
		got, gotSp := x.textEnd(bb, p)
		want, wantSp := textEndByIndex(bb, p)
		if got != want || got >= 0 && gotSp != wantSp {
			t.Fatalf("textEnd(%q, %d) = %d, %v; want %d, %v", bb, p, got, gotSp, want, wantSp)
		}
	}
}

// textEnd finds the token ends and the '&' and CR that the searches it
// replaced found, at every start, alignment and length up to 300, with
// the bytes given whole or growing.
func TestHTMLIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 25))
	for n := 0; n <= 300; n++ {
		for range 10 {
			buf := randomHTMLText(r, n+16)
			at := r.IntN(16)
			b := buf[at : at+n]
			checkTextEnd(t, b, 0)
			checkTextEnd(t, b, 1+r.IntN(100))
		}
	}
	// Long text without a tag: every word is looked at, to the end.
	long := bytes.Repeat([]byte("a < b & c\r\n"), 1000)
	checkTextEnd(t, long, 0)
	checkTextEnd(t, append(long, "<p>"...), 0)
}

func FuzzHTMLIndex(f *testing.F) {
	for _, s := range []string{"", "<", "a<b", "x &amp; y<br>", "a < b\r\n<p>", string(bytes.Repeat([]byte("text <b>bold</b> &lt; "), 10))} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, grow uint8) {
		checkTextEnd(t, b, int(grow))
	})
}

// appendText decodes a text token with CRs as decode does, and leaves
// to decode every token with a '&' or outside the words made: over
// random text where CRs, LFs, '&' and tags are frequent, at every start.
func TestHTMLAppendText(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 40))
	alphabet := []string{"\r", "\n", "\r\n", "&", "&amp;", "<p>", "<br>\r\n", "x", "text ", "< "}
	var z htmlTokenizer
	taken := 0
	for n := 0; n <= 300; n++ {
		for range 10 {
			var b []byte
			for len(b) < n {
				b = append(b, alphabet[r.IntN(len(alphabet))]...)
			}
			var x htmlIndex
			x.reset()
			for p := 0; p < len(b); p++ {
				q, special := x.textEnd(b, p)
				if q <= p || !special {
					continue
				}
				got, ok := x.appendText([]byte("pre"), b, p, q)
				if !ok {
					if string(got) != "pre" {
						t.Fatalf("%q [%d:%d]: not taken, yet %q appended", b, p, q, got)
					}
					continue
				}
				taken++
				if want := z.decode([]byte("pre"), b[p:q], false, true, false); string(got) != string(want) {
					t.Fatalf("%q [%d:%d]: %q, decode gives %q", b, p, q, got, want)
				}
			}
		}
	}
	if taken < 1000 {
		t.Fatalf("appendText took %d tokens: the test does not reach it", taken)
	}
}
