package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/engine"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/output"
	"golang.org/x/term"
)

const descriptionText = `urix reads text (files, or standard input when there is none or for -)
and prints each URI it finds, one per line, as grep -o would. It reads
URIs the way RFC 3986 Appendix C says a careful reader does: wrappers
<...>, "...", [...], {...} and (...) are not part of the URI, a URI
broken across lines inside <...> is rejoined, a "URL:" prefix and
trailing sentence punctuation are left out. Each URI is checked
against RFC 3986 (RFC 3987 for IRIs); invalid ones are not printed
unless --invalid is given.

Exit status: 0 when something was printed, 1 when nothing was,
2 when an error occurred (a file that could not be read, say).

Examples:
   urix mail.txt                      every URI, one per line
   urix -n -H *.txt                   with file names and line numbers
   urix --json doc.txt                JSON Lines with positions and flags
   urix -u --normalize notes.txt      each distinct URI once, normalized
   urix --invalid page.txt            the invalid ones, with the reason
   urix --scheme https,ftp log.txt    only those schemes`

func extractFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.BoolFlag{Name: "line-number", Aliases: []string{"n"}, Category: "Output", Usage: "prefix each URI with the line number of its first character", DisableDefaultText: true},
		&cli.BoolFlag{Name: "column", Category: "Output", Usage: "prefix each URI with the column (1-based, in bytes) of its first character", DisableDefaultText: true},
		&cli.BoolFlag{Name: "byte-offset", Aliases: []string{"b"}, Category: "Output", Usage: "prefix each URI with the byte offset (0-based) of its first character", DisableDefaultText: true},
		&cli.BoolFlag{Name: "with-filename", Aliases: []string{"H"}, Category: "Output", Usage: "prefix each URI with its file name (the default with several files)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "no-filename", Aliases: []string{"h"}, Category: "Output", Usage: "never prefix file names", DisableDefaultText: true},
		&cli.BoolFlag{Name: "count", Aliases: []string{"c"}, Category: "Output", Usage: "print only the number of URIs (per file, with several files)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "unique", Aliases: []string{"u"}, Category: "Output", Usage: "print each URI once: the first occurrence of each normal form", DisableDefaultText: true},
		&cli.BoolFlag{Name: "line-buffered", Category: "Output", Usage: "print each URI as soon as it is found (the default when the output is a terminal)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "null", Aliases: []string{"0"}, Category: "Output", Usage: "end each URI with NUL instead of a line break", DisableDefaultText: true},
		&cli.BoolFlag{Name: "only-matching", Aliases: []string{"o"}, Category: "Output", Usage: "accepted for grep's habit, and changes nothing: urix prints only the URIs already", DisableDefaultText: true},
		&cli.StringFlag{Name: "color", Aliases: []string{"colour"}, Value: "never", Category: "Output", Usage: "colour file names, numbers, separators and URIs as grep does (GREP_COLORS fn, ln, bn, se, mt, ne): `WHEN` never, always, or auto (when stdout is a terminal); --color alone is auto"},
		&cli.StringFlag{Name: "label", Category: "Output", Usage: "name standard input `NAME` (grep's --label): in prefixes, counts, file lists, messages and JSON's file; else it is (standard input), and - in JSON"},
		&cli.BoolFlag{Name: "json", Category: "Output", Usage: "print JSON Lines: uri, normalized, raw, file, line, column, offset, end, delimiter, valid, reason, flags, alt", DisableDefaultText: true},
		&cli.BoolFlag{Name: "normalize", Category: "Output", Usage: "print the RFC 3986 normal form of each URI", DisableDefaultText: true},
		&cli.BoolFlag{Name: "invalid", Category: "Output", Usage: "print only the invalid URIs, each with a tab and the reason", DisableDefaultText: true},
		&cli.BoolFlag{Name: "ascii", Category: "Output", Usage: "print IRIs in their URI form (percent-encoding, IDNA A-labels)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "any-scheme", Category: "What to find", Usage: "find any scheme of two or more characters, not only the registered ones", DisableDefaultText: true},
		&cli.StringSliceFlag{Name: "scheme", Category: "What to find", Usage: "find only the schemes in `LIST` (comma-separated; repeatable)"},
		&cli.BoolFlag{Name: "www", Category: "What to find", Usage: "also find bare www.host... (reported as http://www.host...)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "email", Category: "What to find", Usage: "also find bare user@host.tld (reported as mailto:user@host.tld)", DisableDefaultText: true},
		&cli.StringFlag{Name: "hyphen", Value: "keep", Category: "What to find", Usage: "a URI broken across lines right after a hyphen: print it with the hyphen, without, or both forms (`MODE`: keep, drop or both)"},
		&cli.StringFlag{Name: "bare-break", Value: "keep", Category: "What to find", Usage: "a bare URI that ends a line after / ? & = # . where the next line may go on with it: print it as on its line, joined, or both forms (`MODE`: keep, join or both)"},
		&cli.IntFlag{Name: "max-length", Value: 64 << 10, Category: "What to find", Usage: "skip (and report) candidates longer than `BYTES`"},
		&cli.BoolFlag{Name: "fold-width", Category: "What to find", Usage: "read fullwidth forms (ｈｔｔｐ：／／) as ASCII", DisableDefaultText: true},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "the number of CPUs", Category: "Input", Usage: "read `N` files (or chunks of one large file) at once; the output is that of -j 1"},
		&cli.BoolFlag{Name: "stats", Category: "Messages", Usage: "print files, bytes, URIs, invalid URIs and time on stderr at the end", DisableDefaultText: true},
		&cli.BoolFlag{Name: "warnings", Category: "Messages", Usage: "print each data-quality warning of mail (a missing closing boundary, an unknown charset label, 8-bit bytes in a header), which are counted for --stats, not printed, by default", DisableDefaultText: true},
		&cli.BoolFlag{Name: "progress", Category: "Messages", Usage: "show a progress bar on stderr (bytes, rate, and ETA when the size is known); on by default when stderr is a terminal, stdout is not, and the input is over 256 MiB or of unknown size (a pipe, -r)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "files-with-matches", Aliases: []string{"l"}, Category: "Output", Usage: "print only the names of the files with a URI (stop reading each at its first)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "files-without-match", Aliases: []string{"L"}, Category: "Output", Usage: "print only the names of the files without a URI (exit status as grep's -L: 0 when some file has a URI)", DisableDefaultText: true},
		&cli.IntFlag{Name: "max-count", Aliases: []string{"m"}, Value: -1, DefaultText: "no limit", Category: "Output", Usage: "stop reading a file after `NUM` URIs (printed or counted)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Category: "Messages", Usage: "print nothing on stdout: the exit status only (0 at the first URI found, at once)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "no-messages", Aliases: []string{"s"}, Category: "Messages", Usage: "print no messages on stderr about unreadable or binary files, skipped candidates or bad mail (the exit status still tells)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "version", Aliases: []string{"V"}, Category: "Help", Usage: "print the version and build information and exit", DisableDefaultText: true},
		generateFlag(),
	}, append(inputFlags(), factFlags()...)...)
}

// conflicts are the pairs of flags that cannot be honoured together, each
// with the reason the error gives. (Flags that merely do not matter
// together are not here: -q with any output flag prints nothing, as grep;
// --invalid with -u prints each distinct invalid text once.)
var conflicts = []struct{ a, b, why string }{
	{"json", "null", "JSON Lines end each record with a line break"},
	{"json", "count", "-c prints numbers, not JSON records"},
	{"files-with-matches", "count", "-l prints file names, not counts"},
	{"files-with-matches", "json", "-l prints file names, not JSON records"},
	{"files-without-match", "count", "-L prints file names, not counts"},
	{"files-without-match", "json", "-L prints file names, not JSON records"},
	{"files-with-matches", "files-without-match", "a file cannot be listed both with and without a URI"},
	{"invalid", "normalize", "an invalid URI has no normal form"},
}

// checkConflicts returns the error of the first pair of conflicting flags
// given, naming them as typed.
func checkConflicts(c *cli.Context) error {
	for _, k := range conflicts {
		if c.IsSet(k.a) && c.IsSet(k.b) && c.Bool(k.a) && c.Bool(k.b) {
			return cli.Exit(fmt.Sprintf("%s and %s cannot go together: %s", typedFlag(k.a), typedFlag(k.b), k.why), exitTrouble)
		}
	}
	return nil
}

// typedFlag is the flag name as the user typed it, when known.
func typedFlag(name string) string {
	for _, f := range extractFlags() {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		for _, n := range f.Names() {
			if t, ok := typedAs[dashed(n)]; ok {
				return t
			}
		}
	}
	return dashed(name)
}

// printVersion prints the version and what the binary says of its build
// (runtime/debug): module version, VCS revision and time, Go version.
func printVersion(w io.Writer) error {
	version, rev, when, modified := "(unknown)", "", "", false
	goVersion := runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	b := fmt.Appendf(nil, "urix %s\n", version)
	if rev != "" {
		b = fmt.Appendf(b, "revision %s", rev)
		if when != "" {
			b = fmt.Appendf(b, " (%s)", when)
		}
		if modified {
			b = append(b, " with local changes"...)
		}
		b = append(b, '\n')
	}
	b = fmt.Appendf(b, "%s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
	_, err := w.Write(b)
	return err
}

// streams tells whether standard input and output are terminals: the run
// asks for --color=auto, line buffering, and the usage line given in place
// of reading a terminal; a test gives its own answers.
type streams struct {
	stdinTerminal, stdoutTerminal func() bool
}

func osStreams() streams {
	return streams{
		stdinTerminal:  func() bool { return term.IsTerminal(int(os.Stdin.Fd())) },
		stdoutTerminal: func() bool { return term.IsTerminal(int(os.Stdout.Fd())) },
	}
}

// shortUsage is what urix says, as grep does, when it would read a
// terminal it was given by default.
const shortUsage = `Usage: urix [FLAG]... [FILE]...
Standard input is a terminal: give FILEs, or - to read it.
Try 'urix --help' for more information.
`

func runExtract(c *cli.Context, std streams) error {
	if done, err := generate(c); done {
		return err
	}
	if c.Bool("version") {
		if printVersion(c.App.Writer) != nil {
			return errWritten
		}
		return nil
	}
	if err := checkConflicts(c); err != nil {
		return err
	}
	o, err := engineOptions(c, std)
	if err != nil {
		return err
	}
	args := c.Args().Slice()
	if len(args) == 0 && !o.Recursive && std.stdinTerminal() {
		// Nothing to read but what is typed: grep prints its usage,
		// rather than wait silently for input that never comes.
		fmt.Fprint(c.App.ErrWriter, shortUsage)
		return cli.Exit("", exitTrouble)
	}
	// grep's default: file names with several inputs or -r.
	o.Output.FileName = (len(args) > 1 || o.Recursive || c.Bool("with-filename")) && !c.Bool("no-filename")
	term := newTerminal()
	o.Stdout, o.Stderr = term.stdout(), term.stderr()
	if !o.Quiet && progressWanted(c, args, o.Recursive) {
		term.startBar(args, o.Recursive)
		o.Progress = term.progress
	}
	start := time.Now()
	res := engine.Run(args, o)
	term.stopBar()
	if c.Bool("stats") {
		printStats(o.Stderr, res.Stats, time.Since(start))
	}
	if res.Status != exitFound {
		return cli.Exit("", res.Status)
	}
	return nil
}

// engineOptions maps the flags to the options of the run.
func engineOptions(c *cli.Context, std streams) (engine.Options, error) {
	o := engine.DefaultOptions()
	var err error
	if o.Extract, err = extractOptions(c); err != nil {
		return o, cli.Exit(err.Error(), exitTrouble)
	}
	if err := inputOptions(c, &o); err != nil {
		return o, cli.Exit(err.Error(), exitTrouble)
	}
	color, err := colorOption(c.String("color"), std.stdoutTerminal)
	if err != nil {
		return o, cli.Exit(err.Error(), exitTrouble)
	}
	o.Output = output.Options{
		Line:         c.Bool("line-number"),
		Column:       c.Bool("column"),
		Offset:       c.Bool("byte-offset"),
		Count:        c.Bool("count"),
		JSON:         c.Bool("json"),
		Normalize:    c.Bool("normalize"),
		Invalid:      c.Bool("invalid"),
		Null:         c.Bool("null"),
		LineBuffered: c.Bool("line-buffered") || std.stdoutTerminal(),
		Color:        color,
		StdinLabel:   c.String("label"),
	}
	o.Quiet = c.Bool("quiet")
	o.NoMessages = c.Bool("no-messages")
	o.Warnings = c.Bool("warnings")
	o.MaxCount = c.Int("max-count")
	o.Jobs = c.Int("jobs")
	o.Tuning = tuning
	if o.MaxCount < -1 {
		return o, cli.Exit(fmt.Sprintf("%s %d: want a number of URIs, 0 or more", typedFlag("max-count"), o.MaxCount), exitTrouble)
	}
	switch {
	case c.Bool("files-with-matches"):
		o.List = engine.ListWithMatches
	case c.Bool("files-without-match"):
		o.List = engine.ListWithoutMatch
	}
	return o, factOptions(c, &o)
}

// tuning is the engine's Tuning for every run: the zero value but in the
// tests, which set it to exercise many joins on small inputs.
var tuning engine.Tuning

func extractOptions(c *cli.Context) (extract.Options, error) {
	opts := extract.Options{
		AnyScheme: c.Bool("any-scheme"),
		WWW:       c.Bool("www"),
		Email:     c.Bool("email"),
		MaxLength: c.Int("max-length"),
		ASCII:     c.Bool("ascii"),
		FoldWidth: c.Bool("fold-width"),
		Unique:    c.Bool("unique"),
	}
	for _, list := range c.StringSlice("scheme") {
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); name != "" {
				opts.Schemes = append(opts.Schemes, name)
			}
		}
	}
	var err error
	if opts.Hyphen, err = extract.ParseHyphenMode(c.String("hyphen")); err != nil {
		return opts, err
	}
	if opts.BareBreak, err = extract.ParseBareBreakMode(c.String("bare-break")); err != nil {
		return opts, err
	}
	if opts.MaxLength <= 0 {
		return opts, fmt.Errorf("--max-length %d: want a positive number of bytes", opts.MaxLength)
	}
	return opts, nil
}

// colorOption reads --color's WHEN (and grep's other names for each):
// the colours to use (GREP_COLORS over grep's), or nil for none. auto
// colours when stdout is a terminal that is not "dumb", as grep does.
func colorOption(when string, stdoutTerminal func() bool) (*output.Colors, error) {
	switch when {
	case "never", "no", "none":
		return nil, nil
	case "auto", "tty", "if-tty":
		if t := os.Getenv("TERM"); t == "" || t == "dumb" || !stdoutTerminal() {
			return nil, nil
		}
	case "always", "yes", "force":
	default:
		return nil, fmt.Errorf("--color %q: want never, always or auto", when)
	}
	c := output.ParseGrepColors(os.Getenv("GREP_COLORS"))
	return &c, nil
}

// unwrapPathError drops the "open NAME:" that the file name before the
func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "auto", Category: "Input", Usage: "read input as `FORMAT`: text, mail, mbox, news, warc or auto (mail when it starts like a message or an mbox, warc when it starts like a WARC file, else text)"},
		&cli.BoolFlag{Name: "recursive", Aliases: []string{"r"}, Category: "Input", Usage: "read directories recursively, files in path order", DisableDefaultText: true},
		&cli.BoolFlag{Name: "dereference-recursive", Aliases: []string{"R", "follow"}, Category: "Input", Usage: "read directories recursively, following symbolic links (grep's -R; ripgrep's --follow)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "text", Aliases: []string{"a"}, Category: "Input", Usage: "with -r, read binary files too (by default a file with a NUL in its first block is skipped)", DisableDefaultText: true},
		&cli.StringSliceFlag{Name: "include", Category: "Input", Usage: "with -r, read only files whose name matches `GLOB`"},
		&cli.StringSliceFlag{Name: "exclude", Category: "Input", Usage: "with -r, skip files and directories whose name matches `GLOB`"},
		&cli.StringFlag{Name: "max-window", Value: "128M", Category: "Input", Usage: "refuse an xz or zstd input that declares a decoding window larger than `SIZE` (bytes, or with K, M or G), before allocating it"},
		&cli.BoolFlag{Name: "decompress", Aliases: []string{"z"}, Category: "Input", Usage: "insist that every input is compressed (gzip, bzip2, xz and zstd are read transparently anyway)", DisableDefaultText: true},
	}
}

// inputOptions reads the input flags into o.
func inputOptions(c *cli.Context, o *engine.Options) error {
	o.Recursive = c.Bool("recursive") || c.Bool("dereference-recursive")
	o.Follow = c.Bool("dereference-recursive")
	o.Binary = c.Bool("text")
	o.Include = c.StringSlice("include")
	o.Exclude = c.StringSlice("exclude")
	o.RequireCompressed = c.Bool("decompress")
	w, err := parseSize(c.String("max-window"))
	if err != nil || w <= 0 {
		return fmt.Errorf("--max-window %q: want a positive size in bytes, or with K, M or G (128M)", c.String("max-window"))
	}
	o.MaxWindow = w
	format := c.String("format")
	if o.Format, err = document.ParseFormat(format); err != nil {
		return fmt.Errorf("--format %q: want text, mail, mbox, news, warc or auto", format)
	}
	return nil
}

// The flags of behaviour §10: what a mail filter asks of every link.
func factFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "embedded", Category: "What to find", Usage: "also print the URIs inside another one's query or path (redirectors, click trackers), percent-decoded once, right after it", DisableDefaultText: true},
		&cli.StringFlag{Name: "print", Value: "uri", Category: "Output", Usage: "print the `WHAT` of each URI: uri, host (as the browser connects to it) or domain (registrable); those without are skipped"},
	}
}

// factOptions reads --print and --embedded into o.
func factOptions(c *cli.Context, o *engine.Options) error {
	switch p := c.String("print"); p {
	case "uri":
	case "host":
		o.Print = engine.PrintHost
	case "domain":
		o.Print = engine.PrintDomain
	default:
		return cli.Exit(fmt.Sprintf("%s %q: want uri, host or domain", typedFlag("print"), p), exitTrouble)
	}
	if c.IsSet("print") {
		for _, other := range []string{"json", "invalid"} {
			if c.Bool(other) {
				return cli.Exit(fmt.Sprintf("%s and %s cannot go together: --print prints one value per line", typedFlag("print"), typedFlag(other)), exitTrouble)
			}
		}
	}
	o.Embedded = c.Bool("embedded")
	return nil
}

// parseSize reads a size in bytes, with an optional K, M or G (powers of
// 1024; "KiB", "MB" and the like are read as the same).
func parseSize(s string) (int64, error) {
	num := strings.TrimRight(s, "KMGkmgiIbB")
	unit := strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(s[len(num):], "B"), "b"))
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "I"), "i")
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil {
		return 0, err
	}
	shift := map[string]uint{"": 0, "K": 10, "M": 20, "G": 30}
	sh, ok := shift[unit]
	if !ok || n > math.MaxInt64>>sh {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n << sh, nil
}

// unwrapPathError drops the "open NAME:" that the file name before the
// message already says.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
