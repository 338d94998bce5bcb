// Command urix finds URIs in plain text the way RFC 3986 Appendix C and
// RFC 2396 Appendix E say a reader should, validates them against RFC 3986
// and RFC 3987, and prints them one per line, grep-style.
//
// The command is a thin layer over the packages that do the work: it maps
// flags to their options and wires them together, and sets the exit
// status. Data flows one way: document reads files, mail, news and WARC
// records; parallel reads several inputs, or chunks of one, at once;
// extract finds the URIs (with scan, and uri, which validates and
// normalizes them); output prints them. The core commands (check,
// normalize, resolve, parse, compare) call uri.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

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
	err := app.Run(flagsFirst(app, os.Args))
	return exitStatus(err)
}

// flagsFirst moves the flags that follow file names before them, as GNU
// grep reads "urix notes.txt -n": urfave/cli stops at the first
// argument that is not a flag. A "--" ends the flags; the commands
// (check, normalize...) keep their arguments as they are.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 2 || app.Command(args[1]) != nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range app.Flags {
		if _, isBool := f.(*cli.BoolFlag); isBool {
			continue
		}
		for _, name := range f.Names() {
			takesValue[name] = true
		}
	}
	var flags, files []string
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			files = append(files, rest[i:]...)
			i = len(rest)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if takesValue[name] && !strings.Contains(a, "=") && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
		default:
			files = append(files, a)
		}
	}
	if len(files) > 0 && files[0] != "--" {
		files = append([]string{"--"}, files...)
	}
	return append(append([]string{args[0]}, flags...), files...)
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
		// grep's habit: -nH, -rc, -hc.
		UseShortOptionHandling: true,
		HideVersion:            true,
		Flags:                  extractFlags(),
		Commands:               coreCommands(),
		Action:                 runExtract,
		ExitErrHandler:         func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return cli.Exit(fmt.Sprintf("%v (see urix --help)", err), exitTrouble)
		},
	}
}
