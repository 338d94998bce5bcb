//go:build ignore

// gen_tlds writes tlds_gen.go, the IANA list of top-level domains that a
// bare e-mail address (Config.Email) must end in, from the copy of
// https://data.iana.org/TLD/tlds-alpha-by-domain.txt in testdata.
//
//	go generate ./scan
package main

import (
	"log"
	"os"

	"github.com/urix-dev/urix/internal/scan/tldgen"
)

func main() {
	src, err := os.ReadFile("testdata/tlds-alpha-by-domain.txt")
	if err != nil {
		log.Fatal(err)
	}
	out, err := tldgen.Generate(src)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("tlds_gen.go", out, 0o644); err != nil {
		log.Fatal(err)
	}
}
