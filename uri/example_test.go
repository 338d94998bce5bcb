package uri_test

import (
	"fmt"

	"github.com/urix-dev/urix/uri"
)

func ExampleParse() {
	u, err := uri.Parse("https://user@example.com:8080/a/b?q=1#top", uri.KindURI)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u.Scheme, u.Userinfo, u.Host, u.Port, u.Path, u.Query, u.Fragment)
	// Output: https user example.com 8080 /a/b q=1 top
}

func ExampleValidate() {
	fmt.Println(uri.Validate("http://example.com/%zz", uri.KindURI))
	fmt.Println(uri.Validate("http://例え.テスト/パス", uri.KindIRI))
	// Output:
	// bad percent-encoding %zz at byte 19
	// <nil>
}

func ExampleNormalize() {
	n, _ := uri.Normalize("HTTP://Example.COM:80/a/./b/../c/%7euser", uri.KindURI)
	fmt.Println(n)
	// Output: http://example.com/a/c/~user
}

func ExampleResolve() {
	t, _ := uri.Resolve("http://a/b/c/d;p?q", "../g")
	fmt.Println(t)
	// Output: http://a/b/g
}

func ExampleEquivalent() {
	eq, _ := uri.Equivalent("http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah/")
	fmt.Println(eq)
	// Output: true
}
