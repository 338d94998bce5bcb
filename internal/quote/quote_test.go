package quote

import (
	"strings"
	"testing"
)

func TestCapQuotes(t *testing.T) {
	long := strings.Repeat("b", 100)
	cut := strings.Repeat("b", quoteCap) + "…"
	for _, tc := range []struct{ in, want string }{
		{`short "quote" stays`, `short "quote" stays`},
		{`part 1: boundary "` + long + `" not found; read as text`, `part 1: boundary "` + cut + `" not found; read as text`},
		// %q's escapes: \" is no end, and no escape is cut in two.
		{`bad Content-Type "a\"` + long + `"`, `bad Content-Type "a\"` + strings.Repeat("b", quoteCap-3) + `…"`},
		{`bad "` + strings.Repeat("x", quoteCap-2) + `\u2028yyy"`, `bad "` + strings.Repeat("x", quoteCap-2) + `…"`},
		{`bad "` + strings.Repeat("x", quoteCap-3) + `\\yy"`, `bad "` + strings.Repeat("x", quoteCap-3) + `…"`},
		// A word outside quotes (a field name), cut before a character.
		{`field ` + long + `: bad`, `field ` + cut + `: bad`},
		{`field ` + strings.Repeat("x", quoteCap-1) + `é: bad`, `field ` + strings.Repeat("x", quoteCap-1) + `…: bad`},
		// An unclosed quote is cut too.
		{`a "` + long, `a "` + cut},
	} {
		got := Quotes(tc.in)
		if got != tc.want {
			t.Errorf("Quotes(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
		if again := Quotes(got); again != got {
			t.Errorf("Quotes of %q cuts again: %q", got, again)
		}
	}
	// The file name is kept whole, however long.
	file := strings.Repeat("d/", 60) + "f.txt"
	if got, want := Message(file+": field "+long, file), file+": field "+cut; got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
}
