//go:build ignore

// gen_schemes writes schemes_gen.go, the compiled-in IANA URI schemes
// registry, from testdata/uri-schemes-1.csv (a copy of
// https://www.iana.org/assignments/uri-schemes/uri-schemes-1.csv).
package main

import (
	"log"
	"os"

	"github.com/urix-dev/urix/uri/internal/schemegen"
)

func main() {
	data, err := os.ReadFile("testdata/uri-schemes-1.csv")
	if err != nil {
		log.Fatal(err)
	}
	src, err := schemegen.Generate(data)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("schemes_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
