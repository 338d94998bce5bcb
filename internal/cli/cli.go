// Package cli is urix's command line: its flags, help, conflicts, shell
// completion and subcommands. It maps the flags to one engine.Options and
// hands the run to package engine; the core subcommands (check,
// normalize, resolve, parse, compare) call package uri.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/urix-dev/urix/engine"
)

// Exit statuses, as grep has them (engine.Found, NotFound, Trouble).
const (
	exitFound    = engine.Found
	exitNotFound = engine.NotFound
	exitTrouble  = engine.Trouble
)

// Main runs urix on os.Args and returns its exit status; package main
// calls it, and the testscript tests in place of a built binary.
func Main() int {
	// A write to a pipe whose reader is gone kills urix by SIGPIPE, as
	// it kills grep (urix FILE | head -1: silent, status 141 in the
	// shell), since the signal is not caught (os/signal: a write to a
	// broken pipe on fd 1 or 2). Go raises it even where SIGPIPE was
	// ignored when urix started (trap '' PIPE), where grep reports a
	// write error (behaviour §7.8). Other write errors are write errors
	// whatever they write: results, --help, --version, --generate, a
	// command's output.
	out := &checkedWriter{w: stdout}
	app := newApp(osStreams())
	app.Writer = out
	status := exitFound
	if !complete(app, os.Args) {
		if args, err := normalizeArgs(app, os.Args); err != nil {
			status = exitStatus(cli.Exit(err.Error(), exitTrouble))
		} else {
			status = exitStatus(app.Run(args))
		}
	}
	if out.err != nil {
		fmt.Fprintf(os.Stderr, "urix: write error: %v\n", unwrapPathError(out.err))
		return exitTrouble
	}
	return status
}

// checkedWriter is standard output as the app writes it (help, version,
// the commands): the first write error is kept, for urixMain to report
// once. (The extractor's own output goes through stdoutWriter.)
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// errWritten is the error of a command whose output failed: urixMain
// reports the write error (checkedWriter), this only sets the status.
var errWritten = cli.Exit("", exitTrouble)

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

func newApp(std streams) *cli.App {
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
urix compare [--explain] A B        are A and B equivalent?`,
		Description:     descriptionText,
		HideHelpCommand: true,
		// grep's habit: -nH, -rc, -hc.
		UseShortOptionHandling: true,
		HideVersion:            true,
		// Shell completion asks the binary (--generate complete-bash).
		EnableBashCompletion: true,
		Flags:                namesOnce(extractFlags()),
		Commands:             coreCommands(),
		Action:               func(c *cli.Context) error { return runExtract(c, std) },
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return cli.Exit(asTyped(err.Error())+" (see urix --help)", exitTrouble)
		},
	}
}

// completionFlag is the last argument of urfave/cli's shell completion
// requests (the scripts of --generate complete-bash and complete-zsh).
const completionFlag = "--generate-bash-completion"

// flagSet describes the flags of the app or of one of its commands, as
// normalizeArgs reads them.
type flagSet struct {
	takesValue map[string]bool // by every name, long and short
	long       []string        // the names of two or more characters, for suggestions
}

func flagsOf(flags []cli.Flag) flagSet {
	fs := flagSet{takesValue: map[string]bool{}}
	for _, f := range append([]cli.Flag{cli.HelpFlag}, flags...) {
		takesValue := true
		if df, ok := f.(cli.DocGenerationFlag); ok {
			takesValue = df.TakesValue()
		}
		for _, name := range f.Names() {
			fs.takesValue[name] = takesValue
			if len(name) > 1 {
				fs.long = append(fs.long, name)
			}
		}
	}
	return fs
}

// typedAs maps the flags normalizeArgs passes on ("-j") to what the user
// typed ("-j4"), so that an error names the flag as typed.
var typedAs = map[string]string{}

// normalizeArgs reads the command line as grep and ripgrep users type it,
// and hands it to urfave/cli in the one shape that package reads (flags
// first, one flag an argument):
//   - flags after file names (urix notes.txt -n), up to a "--" that ends
//     them; for the commands too (urix check URI --iri);
//   - short flags combined, a value glued to a short flag (-nH, -j4, -nm5);
//   - "-" alone is standard input, an argument.
//
// An unknown flag, or one without its value, is an error that names the
// flag as typed (urfave/cli would say -bogus for --bogus) and says what
// would work.
func normalizeArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 || args[len(args)-1] == completionFlag {
		return args, nil
	}
	head, rest := args[:1], args[1:]
	fs := flagsOf(app.Flags)
	prefix := ""
	if cmd := app.Command(rest[0]); cmd != nil {
		head, rest = args[:2], args[2:]
		fs = flagsOf(cmd.Flags)
		prefix = cmd.Name + " "
	}
	var flags, plain []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		// value takes the value of flag name (typed as typed) from what
		// follows it: the rest of the word, or the next argument.
		value := func(name, typed, glued string) error {
			flags = append(flags, dashed(name))
			typedAs[dashed(name)] = typed
			if glued != "" {
				flags = append(flags, glued)
				return nil
			}
			if i+1 >= len(rest) {
				return fmt.Errorf("%s needs a value (see urix %s--help)", typed, prefix)
			}
			i++
			flags = append(flags, rest[i])
			return nil
		}
		switch {
		case a == "--":
			plain = append(plain, rest[i+1:]...)
			i = len(rest)
		case a == "-" || len(a) < 2 || a[0] != '-':
			plain = append(plain, a)
		case strings.HasPrefix(a, "--") || isLong(fs, a[1:]):
			// --name, --name=value, and Go's -name for a long name.
			name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
			takes, known := fs.takesValue[name]
			switch {
			case !known:
				return nil, unknownFlag(fs, a, prefix)
			case !hasVal && optionalValue[name] != "" && prefix == "":
				// grep's --color alone: auto.
				flags = append(flags, dashed(name)+"="+optionalValue[name])
				typedAs[dashed(name)] = a
			case hasVal:
				flags = append(flags, dashed(name)+"="+val)
				typedAs[dashed(name)] = a
			case takes:
				if err := value(name, a, ""); err != nil {
					return nil, err
				}
			default:
				flags = append(flags, dashed(name))
				typedAs[dashed(name)] = a
			}
		default:
			// A cluster of short flags; the first that takes a value
			// takes the rest of the word (-j4, -nm5), as getopt does.
			word := a[1:]
			for k := 0; k < len(word); k++ {
				name := word[k : k+1]
				takes, known := fs.takesValue[name]
				if !known {
					if why, ok := grepOnly[name]; ok && prefix == "" {
						if len(word) == 1 {
							return nil, fmt.Errorf("%s: %s", a, why)
						}
						return nil, fmt.Errorf("-%s in %s: %s", name, a, why)
					}
					if len(word) == 1 {
						return nil, unknownFlag(fs, a, prefix)
					}
					return nil, fmt.Errorf("unknown flag -%s in %s (see urix %s--help)", name, a, prefix)
				}
				if takes {
					if err := value(name, a, strings.TrimPrefix(word[k+1:], "=")); err != nil {
						return nil, err
					}
					break
				}
				flags = append(flags, "-"+name)
				typedAs["-"+name] = a
			}
		}
	}
	out := append(append([]string{}, head...), flags...)
	if len(plain) > 0 {
		out = append(append(out, "--"), plain...)
	}
	return out, nil
}

// optionalValue are the flags whose value may be left out (grep's
// --color[=WHEN]), with the value they then take.
var optionalValue = map[string]string{"color": "auto", "colour": "auto"}

// grepOnly are grep's flags that urix has no use for, each with why: an
// answer, where "unknown flag -w: did you mean --www?" misled.
var grepOnly = map[string]string{
	"w":           wordMatch,
	"word-regexp": wordMatch,
}

const wordMatch = "urix has no word match: it has no pattern to match as a word; " +
	"it finds each URI whole, ended by the text around it (RFC 3986 Appendix C), " +
	"never a part of one (see urix --help)"

// isLong tells whether word (after one dash) names a long flag: Go's
// flag package reads -json as --json, and scripts may spell it so.
func isLong(fs flagSet, word string) bool {
	name, _, _ := strings.Cut(word, "=")
	_, known := fs.takesValue[name]
	return known && len(name) > 1
}

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownFlag is the error for a flag that does not exist, with the flag
// that was most likely meant.
func unknownFlag(fs flagSet, typed, prefix string) error {
	name, _, _ := strings.Cut(strings.TrimLeft(typed, "-"), "=")
	if why, ok := grepOnly[name]; ok && prefix == "" {
		return fmt.Errorf("%s: %s", typed, why)
	}
	best, bestDist := "", 3
	for _, l := range fs.long {
		if d := editDistance(name, l); d < bestDist || d == bestDist && strings.HasPrefix(l, name) {
			best, bestDist = l, d
		}
	}
	for _, l := range fs.long {
		if best == "" && len(name) >= 3 && strings.HasPrefix(l, name) {
			best = l
		}
	}
	if best != "" {
		return fmt.Errorf("unknown flag %s: did you mean --%s? (see urix %s--help)", typed, best, prefix)
	}
	return fmt.Errorf("unknown flag %s (see urix %s--help; -- before a file name that starts with -)", typed, prefix)
}

// editDistance is the Levenshtein distance of a and b (flag names: short).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// asTyped rewrites the flag that urfave/cli names in an error message
// ("invalid value "x" for flag -j: ...") as the user typed it.
func asTyped(msg string) string {
	const key = "flag -"
	at := strings.Index(msg, key)
	if at < 0 {
		return msg
	}
	name := msg[at+len(key):]
	if end := strings.IndexAny(name, ": "); end >= 0 {
		name = name[:end]
	}
	if typed, ok := typedAs[dashed(name)]; ok {
		return msg[:at] + "flag " + typed + msg[at+len(key)+len(name):]
	}
	return msg[:at] + "flag " + dashed(name) + msg[at+len(key)+len(name):]
}

// complete answers a shell's completion request, the words that may come
// next: "urix ... WORD --generate-bash-completion" (the scripts of
// --generate complete-bash and complete-zsh ask it). When WORD starts with
// '-', the flags (of the command, after one) that start with it; else the
// commands, after "urix" alone. urfave/cli v2.27 answers these itself, but
// fails (nil flag set) on a partial flag it does not know, "--fi".
func complete(app *cli.App, args []string) bool {
	if len(args) < 2 || args[len(args)-1] != completionFlag {
		return false
	}
	words := args[1 : len(args)-1]
	flags := app.Flags
	if len(words) > 0 {
		if cmd := app.Command(words[0]); cmd != nil {
			flags, words = cmd.Flags, words[1:]
		}
	}
	cur := ""
	if len(words) > 0 {
		cur = words[len(words)-1]
	}
	if !strings.HasPrefix(cur, "-") {
		if len(args) == 2 {
			for _, c := range app.Commands {
				fmt.Fprintln(app.Writer, c.Name)
			}
		}
		return true
	}
	for _, f := range append(flags, cli.HelpFlag) {
		for _, n := range f.Names() {
			if d := dashed(n); strings.HasPrefix(d, cur) {
				fmt.Fprintln(app.Writer, d)
			}
		}
	}
	return true
}
