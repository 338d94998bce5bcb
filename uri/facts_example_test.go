package uri_test

import (
	"fmt"

	"github.com/urix-dev/urix/uri"
)

func ExampleBrowserHost() {
	for _, host := range []string{"1071396130", "0x3f.0xdc.0x35.0x22", "0177.1", "%77%77%77.Example.com", "例え.テスト"} {
		h, ok := uri.BrowserHost("http", host)
		fmt.Println(h.Name, h.Numeric, h.Encoded, ok)
	}
	// Output:
	// 63.220.53.34 true false true
	// 63.220.53.34 true false true
	// 127.0.0.1 true false true
	// www.example.com false true true
	// xn--r8jz45g.xn--zckzah false false true
}

func ExampleRegistrableDomain() {
	for _, host := range []string{"news.bbc.co.uk", "a.user.github.io", "co.uk", "localhost", "63.220.53.34"} {
		fmt.Printf("%q\n", uri.RegistrableDomain(host))
	}
	// Output:
	// "bbc.co.uk"
	// "user.github.io"
	// ""
	// ""
	// ""
}

func ExampleMixedScript() {
	for _, host := range []string{"pаypal.com", "paypal2024.com", "ソニーbank.jp"} {
		fmt.Println(host, uri.MixedScript(host))
	}
	// Output:
	// pаypal.com true
	// paypal2024.com false
	// ソニーbank.jp false
}

func ExampleFactsOf() {
	f, _ := uri.FactsOf("http://www.paypal.com@0x3f.0xdc.0x35.0x22/login")
	fmt.Printf("%+v\n", f)
	// Output:
	// {HasHost:true Host:63.220.53.34 Domain: NumericHost:true Userinfo:true EncodedHost:false MixedScript:false}
}

func ExampleDisplayMismatch() {
	fmt.Println(uri.DisplayMismatch("www.paypal.com", "http://evil.example/"))
	fmt.Println(uri.DisplayMismatch("www.paypal.com", "https://paypal.com/"))
	fmt.Println(uri.DisplayMismatch("Click here", "http://evil.example/"))
	// Output:
	// true
	// false
	// false
}

func ExampleEmbedded() {
	fmt.Println(uri.Embedded("https://www.google.com/url?q=http%3A%2F%2Fevil.example%2Fa%3Fb%3D1&sa=D"))
	// Output:
	// [http://evil.example/a?b=1]
}
