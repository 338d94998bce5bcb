// Command urix finds URIs in plain text the way RFC 3986 Appendix C and
// RFC 2396 Appendix E say a reader should, validates them against RFC 3986
// and RFC 3987, and prints them one per line, grep-style.
//
// This is the entry point only. The command line (flags, help, the core
// subcommands) is internal/cli; it maps the flags to the options of
// package engine, which walks, opens and reads the inputs on its workers.
// Data flows one way: engine -> document (files, mail, news, WARC) ->
// extract (with scan and uri) -> output.
package main

import (
	"os"

	"github.com/urix-dev/urix/internal/cli"
)

func main() {
	cli.PaceGC()
	os.Exit(cli.Main())
}
