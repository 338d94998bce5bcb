package scan

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// wwwHostSpec is wwwHost as behaviour §2 words it, a step at a time: the
// host is what stands before a path, query or fragment, an '@' in it
// makes it no www host, a port is cut off, and it needs a label after
// "www." and a dot after that, with no empty label.
func wwwHostSpec(text []byte) bool {
	host := text[min(4, len(text)):]
	if i := bytes.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if bytes.IndexByte(host, '@') >= 0 {
		return false
	}
	if i := bytes.IndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	labels := bytes.Split(host, []byte("."))
	if len(labels) < 2 {
		return false
	}
	for i, l := range labels {
		if len(l) == 0 && i < len(labels)-1 {
			return false
		}
	}
	return len(labels[len(labels)-1]) > 0
}

func TestWWWHostRule(t *testing.T) {
	for text, want := range map[string]bool{
		"www.example.com": true, "www.example": false, "www..com": false, "www.a.com:80/x": true,
		"www.a:80.com": false, "www.info@evil.example": false, "www.a.com/x@y": true, "www.a.com?q#f": true,
		"www.a.b.": false, "www.": false, "www": false, "www.a..b": false, "www.a.b:": true,
	} {
		if got := wwwHost([]byte(text)); got != want {
			t.Errorf("wwwHost(%q) = %v, want %v", text, got, want)
		}
	}
	pieces := []string{"a", "b", ".", "..", ":", "80", "@", "/", "?", "#", "-", "é"}
	rng := rand.New(rand.NewPCG(2, 17))
	for range 100000 {
		text := []byte("www.")
		for k := rng.IntN(8); k > 0; k-- {
			text = append(text, pieces[rng.IntN(len(pieces))]...)
		}
		if got, want := wwwHost(text), wwwHostSpec(text); got != want {
			t.Fatalf("wwwHost(%q) = %v, want %v", text, got, want)
		}
	}
}
