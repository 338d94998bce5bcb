package inplace

import "testing"

// InPlace is always what Read has yet to give, from Reset to the end.
func TestInPlace(t *testing.T) {
	var r Reader
	for _, held := range []string{"", "x", "a record's block http://example.com/ of some length"} {
		r.Reset([]byte(held))
		for k := 0; ; k++ {
			if got, want := string(r.InPlace()), held[min(k, len(held)):]; got != want {
				t.Fatalf("%q after %d bytes read: InPlace %q, want %q", held, k, got, want)
			}
			var one [1]byte
			if _, err := r.Read(one[:]); err != nil {
				break
			}
		}
	}
}
