package extract

import "testing"

// Behaviour §3.5, §9.5: an attribute value is one candidate, valid or
// invalid as a whole, never cut to a valid prefix nor glued up.
func TestWhole(t *testing.T) {
	cases := []struct {
		value string
		opts  Options
		ok    bool
		valid bool
	}{
		{"https://example.com/a?b=1", Options{}, true, true},
		{"https://example.com/spring\u00a0meetup", Options{}, true, false},
		{"https://example.com/u?id={{id}}", Options{}, true, false},
		{"https://launchpad.net/\\~user", Options{}, true, false},
		{"https://example.com/a b", Options{}, true, false},
		{"http://exa mple.com/", Options{}, true, false},
		{"https://example.com/%zz", Options{}, true, false},
		{"mailto:a@example.com", Options{}, true, true},
		{"/relative/path", Options{}, false, false},
		{"javascript:void(0)", Options{}, false, false},
		{"javascript:void(0) {x}", Options{}, false, false},
		{"ht tp://example.com/", Options{}, false, false},
		{"go:generate {x}", Options{}, false, false},
		{"go:generate {x}", Options{AnyScheme: true}, true, false},
		{"", Options{}, false, false},
	}
	for _, tc := range cases {
		m, ok := Whole(tc.value, tc.opts)
		if ok != tc.ok || ok && m.Valid != tc.valid {
			t.Errorf("Whole(%q) = ok %v valid %v (%v); want ok %v valid %v", tc.value, ok, m.Valid, m.Err, tc.ok, tc.valid)
			continue
		}
		if !ok {
			continue
		}
		if m.URI != tc.value || string(m.Raw) != tc.value || m.Offset != 0 || m.End != int64(len(tc.value)) {
			t.Errorf("Whole(%q): URI %q Raw %q [%d,%d): want the whole value", tc.value, m.URI, m.Raw, m.Offset, m.End)
		}
		if !m.Valid && m.Err == nil {
			t.Errorf("Whole(%q): invalid without a reason", tc.value)
		}
	}
}
