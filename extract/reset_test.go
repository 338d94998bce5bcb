package extract

import (
	"strings"
	"testing"
)

// Reset and resetFrom read new input as a new Scanner with the same
// options does (resetFrom: with the start it is told), whatever the
// scanner read before, with width folding, which wraps the reader.
func TestResetFromAsNew(t *testing.T) {
	inputs := []string{
		"middle of a line <http://a/\n> b> and ｈｔｔｐ://ｃ/\n",
		"> still quoted <http://q/\n> r/s>\nplain <http://t/\nu>",
		"www.example.com/x http://a/b-\nc",
	}
	starts := []struct {
		midLine bool
		depth   int
	}{{false, 0}, {true, 1}, {true, 0}, {false, 0}, {true, 2}}
	base := Options{WWW: true, FoldWidth: true}
	reused := NewScanner(strings.NewReader(""), base)
	outputs := map[string]bool{}
	for _, in := range inputs {
		for _, st := range starts {
			fresh := newScannerAt(strings.NewReader(in), base, st.midLine, st.depth)
			var wantMs []got
			for fresh.Scan() {
				wantMs = append(wantMs, gotOf(fresh.Match()))
			}
			want := dump(wantMs)
			reused.resetFrom(strings.NewReader(in), st.midLine, st.depth)
			var ms []got
			for reused.Scan() {
				ms = append(ms, gotOf(reused.Match()))
			}
			if got := dump(ms); got != want {
				t.Errorf("%q from %+v:\n got %s\nwant %s", in, st, got, want)
			}
			outputs[in+"\x00"+want] = true
		}
	}
	if len(outputs) <= len(inputs) {
		t.Fatal("no input reads differently from different starts")
	}
	// Reset keeps the start resetFrom told last, not the one the
	// scanner was made with.
	mid := newScannerAt(strings.NewReader(""), Options{}, true, 1)
	mid.resetFrom(strings.NewReader(inputs[1]), false, 0)
	mid.Reset(strings.NewReader(inputs[0]))
	var ms []got
	for mid.Scan() {
		ms = append(ms, gotOf(mid.Match()))
	}
	want := dump(collectString(inputs[0], Options{}))
	if got := dump(ms); got != want {
		t.Errorf("Reset after resetFrom:\n got %s\nwant %s", got, want)
	}
}
