// Command urix finds URIs in plain text the way RFC 3986 Appendix C and
// RFC 2396 Appendix E say a reader should, validates them against RFC 3986
// and RFC 3987, and prints them one per line, grep-style.
//
// The CLI is a thin layer: finding, validating and normalizing live in the
// extract and uri packages; this file only maps flags to their options and
// results to output lines.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

// Exit statuses, as grep has them.
const (
	exitFound    = 0
	exitNotFound = 1
	exitTrouble  = 2
)

func main() { os.Exit(urixMain()) }

// urixMain runs the program on os.Args and returns its exit status; the
// testscript tests call it in place of a built binary.
func urixMain() int {
	app := newApp()
	err := app.Run(os.Args)
	return exitStatus(err)
}

// exitStatus maps what the app returned to the process's exit status,
// printing the message of an error that has one.
func exitStatus(err error) int {
	if err == nil {
		return exitFound
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, "urix:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "urix:", err)
	return exitTrouble
}

func newApp() *cli.App {
	// -h means "no file names", as in grep; help is --help alone.
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Usage: "show this help", DisableDefaultText: true}
	return &cli.App{
		Name:  "urix",
		Usage: "find, validate and normalize the URIs in text",
		UsageText: `urix [flags] [FILE...]              find URIs in FILEs (standard input when none or -)
urix check [--ref] [--iri] URI...   is each a valid URI?
urix normalize [--ascii] URI...     the RFC 3986 normal form of each
urix resolve BASE REF...            each reference resolved against BASE
urix parse URI...                   the components of each, as JSON
urix compare A B                    are A and B equivalent?`,
		Description:     descriptionText,
		HideHelpCommand: true,
		HideVersion:     true,
		Flags:           extractFlags(),
		Commands:        coreCommands(),
		Action:          runExtract,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return cli.Exit(fmt.Sprintf("%v (see urix --help)", err), exitTrouble)
		},
	}
}
