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

// A program that writes each URI as it comes, and keeps none, lets the
// scanner write every match's strings over the last's: no memory is taken
// for them however many there are. What must outlive the next Scan is
// copied (strings.Clone).
func ExampleOptions_reuseStrings() {
	text := "see http://example.com/a and http://example.com/b, then www.example.org.\n"
	s := extract.NewScanner(strings.NewReader(text), extract.Options{WWW: true, ReuseStrings: true})
	var first string
	for s.Scan() {
		m := s.Match()
		if first == "" {
			first = strings.Clone(m.URI) // m.URI is written over at the next Scan
		}
		fmt.Println(m.URI)
	}
	fmt.Println("first:", first)
	// Output:
	// http://example.com/a
	// http://example.com/b
	// http://www.example.org
	// first: http://example.com/a
}

// The base URI that a <base href> or a Content-Location sets: resolved
// against the base so far, and kept only when it is an absolute URI.
func ExampleResolveBase() {
	fmt.Printf("%q\n", extract.ResolveBase("", "https://example.org/a/"))
	fmt.Printf("%q\n", extract.ResolveBase("https://example.org/a/", "../b/"))
	fmt.Printf("%q\n", extract.ResolveBase("", "b/"))
	fmt.Printf("%q\n", extract.ResolveBase("", "http://exa mple.org/"))
	// Output:
	// "https://example.org/a/"
	// "https://example.org/b/"
	// ""
	// ""
}
