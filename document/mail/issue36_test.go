package mail

import (
	"reflect"
	"testing"
)

// Parts read by what the reader's program does, not by their labels
// (behaviour §9, revision 5).
func TestHTMLByFileNameAndMultipartCTE(t *testing.T) {
	for _, c := range []struct {
		name, msg string
		found     []string
	}{
		{
			name: "spam's HTML attachment as application/octet-stream, named by Content-Disposition",
			msg: "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nsee attached\n" +
				"--b\nContent-Type: application/octet-stream\nContent-Disposition: attachment; filename=\"Invoice.HTM\"\nContent-Transfer-Encoding: base64\n\n" +
				"PGEgaHJlZj0iaHR0cDovL3BoaXNoLmV4YW1wbGUvbG9naW4iPkxvZyBpbjwvYT4=\n--b--\n",
			found: []string{"http://phish.example/login"},
		},
		{
			name: "named by the name parameter of Content-Type (RFC 2231)",
			msg: "Content-Type: multipart/mixed; boundary=b\n\n" +
				"--b\nContent-Type: application/octet-stream; name*=utf-8''page%2Ehtml\n\n<img src=\"http://img.example/a b.gif\">\n--b--\n",
			found: []string{"http://img.example/a%20b.gif"},
		},
		{
			name: "text/plain named .html is HTML too",
			msg: "Content-Type: multipart/mixed; boundary=b\n\n" +
				"--b\nContent-Type: text/plain; name=x.html\n\n<a href=\"http://a.example/x\">http://shown.example/</a>\n--b--\n",
			found: []string{"http://a.example/x", "http://shown.example/"},
		},
		{
			name: "another name is not HTML",
			msg: "Content-Type: multipart/mixed; boundary=b\n\n" +
				"--b\nContent-Type: application/octet-stream; name=x.html.exe\n\n<a href=\"http://a.example/x\">x</a>\n--b--\n",
		},
		{
			name: "a multipart labelled base64 whose boundary never appears keeps its text",
			msg: "Content-Type: multipart/alternative; boundary=never\nContent-Transfer-Encoding: base64\n\n" +
				"Visit http://spam.example/offer now\n",
			found: []string{"http://spam.example/offer"},
		},
		{
			name: "a multipart labelled quoted-printable: its parts read as they are",
			msg: "Content-Type: multipart/mixed; boundary=b\nContent-Transfer-Encoding: quoted-printable\n\n" +
				"--b\nContent-Type: text/plain\n\nhttp://a.example/x=3D1\n--b--\n",
			found: []string{"http://a.example/x=3D1"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, _ := walkString(t, c.msg, FormatMail)
			if got := foundIn(t, bodyRecs(recs)); !reflect.DeepEqual(got, c.found) {
				t.Errorf("found %q, want %q\n%q", got, c.found, describeAll(recs))
			}
		})
	}
}

// The Subject, Comments and Keywords are searched after RFC 2047
// decoding; identifiers never are.
func TestUnstructuredFieldsSearched(t *testing.T) {
	msg := "Subject: =?utf-8?B?U2VlIGh0dHA6Ly9zdWJqZWN0LmV4YW1wbGUvcA==?=\nComments: http://comments.example/\n" +
		"Keywords: news, http://keywords.example/k\nContent-ID: <http://cid.example/>\n\nbody\n"
	recs, _ := walkString(t, msg, FormatMail)
	var got []string
	for _, r := range recs {
		if r.Field != "" {
			got = append(got, r.Field+" "+r.Text)
		}
	}
	want := []string{"Subject See http://subject.example/p", "Comments http://comments.example/", "Keywords news, http://keywords.example/k"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields %q, want %q", got, want)
	}
}

// The message's Content-Base is the base of an HTML part that gives none;
// a part's relative Content-Location resolves against it (RFC 2557 5).
func TestHTMLMessageBase(t *testing.T) {
	msg := "Content-Base: http://base.example/m/\nContent-Type: multipart/related; boundary=b\n\n" +
		"--b\nContent-Type: text/html\n\n<a href=\"x.html\">x</a>\n" +
		"--b\nContent-Type: text/html\nContent-Location: sub/page.html\n\n<a href=\"y.html\">y</a>\n" +
		"--b\nContent-Type: text/html\nContent-Location: http://other.example/p/\n\n<a href=\"z.html\">z</a>\n--b--\n"
	recs, _ := walkString(t, msg, FormatMail)
	want := []string{"http://base.example/m/x.html", "http://base.example/m/sub/y.html", "http://other.example/p/z.html"}
	if got := foundIn(t, bodyRecs(recs)); !reflect.DeepEqual(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

// A Subject that cannot hold a URI in any form is not given: only those
// without ":" before something but whitespace, ".", "@", "<" and
// non-ASCII bytes.
func TestMayHoldURI(t *testing.T) {
	for v, want := range map[string]bool{
		"Re: [list] weekly notes #4": false,
		"Fwd: Re: hello":             false,
		"see http://a.example/":      true,
		"urn:isbn:0451450523":        true,
		"tel:+1-201-555-0123":        true,
		"visit www.example":          true,
		"write to a@b":               true,
		"<http: //localhost/>":       true,
		"ｈｔｔｐ：／／ｘ":                   true,
		"ends with a colon:":         false,
	} {
		if got := mayHoldURI(v); got != want {
			t.Errorf("mayHoldURI(%q) = %v, want %v", v, got, want)
		}
	}
}
