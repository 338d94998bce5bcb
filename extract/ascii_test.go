package extract

import (
	"strings"
	"testing"
)

// With ASCII, an invalid IRI is still reported as found, with the position
// of its fault in that form (behaviour §5), and a host IDNA refuses makes it
// invalid (behaviour §4).
func TestASCIIInvalidAsFound(t *testing.T) {
	in := "http://例え.テスト/%zz http://a_b..例/ http://例え.テスト/パス"
	var got []string
	for m, err := range All(strings.NewReader(in), Options{ASCII: true}) {
		if err != nil {
			t.Fatal(err)
		}
		s := m.URI
		if !m.Valid {
			s = "!" + s + " " + m.Err.Error()
		}
		got = append(got, s)
	}
	want := []string{
		"!http://例え.テスト/%zz bad percent-encoding %zz at byte 24",
		"!http://a_b..例/",
		"http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("%d: got %q, want %q...", i, got[i], want[i])
		}
	}
}
