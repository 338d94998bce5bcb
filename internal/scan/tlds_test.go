package scan

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/urix-dev/urix/internal/scan/tldgen"
)

// The generated table is the one go generate would write now.
func TestTopLevelDomainsUpToDate(t *testing.T) {
	src, err := os.ReadFile("testdata/tlds-alpha-by-domain.txt")
	if err != nil {
		t.Fatal(err)
	}
	want, err := tldgen.Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("tlds_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("tlds_gen.go is out of date: run go generate ./scan")
	}
}

func TestIsTopLevelDomain(t *testing.T) {
	for label, want := range map[string]bool{
		"com": true, "COM": true, "Org": true, "de": true, "xn--p1ai": true, "museum": true,
		"png": false, "local": false, "example": true, "test": true, "c": false, "": false, "2x": false,
		strings.Repeat("a", 70): false,
	} {
		if got := isTopLevelDomain([]byte(label)); got != want {
			t.Errorf("isTopLevelDomain(%q) = %v, want %v", label, got, want)
		}
	}
	// Every name of the list is found, and what sorts next to it is not
	// (the first and last entries included).
	src, err := os.ReadFile("testdata/tlds-alpha-by-domain.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		if !isTopLevelDomain([]byte(line)) {
			t.Errorf("isTopLevelDomain(%q) = false", line)
		}
		low := strings.ToLower(line)
		for _, near := range []string{low[:len(low)-1] + "-", low + "0", "0" + low} {
			if isTopLevelDomain([]byte(near)) {
				t.Errorf("isTopLevelDomain(%q) = true", near)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { isTopLevelDomain([]byte("Com")) }); n != 0 {
		t.Errorf("isTopLevelDomain allocates %v times", n)
	}
}

func TestEmailNeedsKnownTLD(t *testing.T) {
	in := "icon image@2x.png, mail user@example.com or USER@Example.ORG, not admin@host.local."
	s := New(strings.NewReader(in), Config{Email: true})
	var got []string
	for s.Scan() {
		got = append(got, string(s.Candidate().Text))
	}
	if want := "user@example.com USER@Example.ORG"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
