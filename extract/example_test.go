package extract_test

import (
	"fmt"
	"strings"

	"github.com/urix-dev/urix/extract"
)

// The URIs of a mail reply, with where each stood and how it was read.
func ExampleScanner() {
	text := "> See <URL:http://example.com/a/\n> b/c> and (http://Example.ORG:80/%7euser).\n"
	s := extract.NewScanner(strings.NewReader(text), extract.Options{})
	for s.Scan() {
		m := s.Match()
		fmt.Println(m.Line, m.Column, m.Delimiter, m.Flags.Names(), m.URI, m.Normalized)
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 12 angle [rejoined url_prefix] http://example.com/a/b/c http://example.com/a/b/c
	// 2 13 paren [] http://Example.ORG:80/%7euser http://example.org/~user
}

// Invalid URIs are found too, with the reason.
func ExampleAll() {
	text := "ok: https://example.com/x, bad: http://example.com/%zz"
	for m, err := range extract.All(strings.NewReader(text), extract.Options{}) {
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(m.Valid, m.URI, m.Err)
	}
	// Output:
	// true https://example.com/x <nil>
	// false http://example.com/%zz bad percent-encoding %zz at byte 19
}
