package mail

import (
	"strings"
	"testing"
)

// A first line that is a URI is not a header field "http", so text that
// starts with a URI is text, and a "message" that starts with one has no
// header: its URI is read as body.
func TestURILineIsNoField(t *testing.T) {
	for in, want := range map[string]Format{
		"http://example.com/ see\nSubject: x\n":   FormatText,
		"https://example.com/\nFrom: a@b\n\nbody": FormatText,
		"Subject: x\nFrom: a@b\n\nbody":           FormatMail,
	} {
		if got := Detect([]byte(in)); got != want {
			t.Errorf("Detect(%q) = %v, want %v", in, got, want)
		}
	}
	if f, ok := DetectEarly([]byte("http://example.com/\n")); !ok || f != FormatText {
		t.Errorf("DetectEarly: %v %v, want text, decided", f, ok)
	}
	if _, ok := DetectEarly([]byte("Subject: x\n")); ok {
		t.Error("DetectEarly decided on a header line")
	}
	// Wherever DetectEarly decides, Detect on the whole says the same.
	for _, in := range []string{
		"Note: this\nhello http://x/\n", "Subject: x\nFrom: a@b\n\nbody", "Name: x\nVersion: 1\n\n",
		"Subject: x\n folded\nFrom: a\n\n", " indented\n", "From me Mon\n", "\nSubject: x\n",
	} {
		for cut := 0; cut <= len(in); cut++ {
			if f, ok := DetectEarly([]byte(in[:cut])); ok && f != Detect([]byte(in)) {
				t.Errorf("DetectEarly(%q) = %v, Detect of %q = %v", in[:cut], f, in, Detect([]byte(in)))
			}
		}
	}
	recs, _ := walkString(t, "http://example.com/first\nSubject: x\n\nbody\n", FormatMail)
	found := false
	for _, r := range recs {
		if r.Field == "" && strings.HasPrefix(r.Text, "http://example.com/first") {
			found = true
		}
	}
	if !found {
		t.Errorf("the URI line was not read as body: %v", recs)
	}
}
