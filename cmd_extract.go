package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/output"
	"github.com/urix-dev/urix/parallel"
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

// run holds what the flags ask for, shared by the workers: what to find
// (extract), what to print of it (output), how to read (in, jobs).
type run struct {
	opts extract.Options
	out  output.Options
	// quiet: -q, nothing on stdout, the run stops at the first URI.
	quiet bool
	// noMessages: -s, nothing on stderr but the run's own usage errors.
	noMessages bool
	// warnings: --warnings, data-quality warnings printed, not counted.
	warnings bool
	// list: -l or --files-without-match, the names of files only.
	list listMode
	// maxCount: -m, the URIs read of each file at most (-1: no limit).
	maxCount int
	jobs     int
	// splitFiles: one large file may be read in chunks (cmd_split.go).
	splitFiles bool
	// oneInput: one file is read, not several at once (the workers of
	// -j are free for the gzip members of that one: run.counted).
	oneInput bool
	in       inputConfig
	// facts: --print and --embedded (cmd_facts.go).
	facts linkFacts

	// stop ends the run early: -q found a URI, or stdout failed.
	stop atomic.Bool
	// quietFound is 1 + the index of the first input in which -q found
	// a URI (0: none yet). The inputs before it are read even once the
	// run is stopped, as one worker reads them before it: their errors
	// are told (grep -q says them too).
	quietFound atomic.Int64
	// writeErr is the first error writing stdout.
	writeErr atomic.Pointer[error]

	// stderr serializes what goes to standard error: the messages of
	// the inputs (through errOut, in input order) and the progress bar.
	stderr sync.Mutex
	errOut *parallel.Ordered
	// clearBar, when set, takes the progress bar off the terminal's line
	// before a message is printed (r.stderr held).
	clearBar func()
	// clearStdout: stdout is the terminal the bar is drawn on, and each
	// write to it takes the bar off first.
	clearStdout bool
	stats       runStats
}

type listMode int

const (
	listNone listMode = iota
	listWithMatches
	listWithoutMatch
)

type runStats struct {
	files, bytes, found, invalid atomic.Int64
	quality                      qualityCounts
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
	opts, err := extractOptions(c)
	if err != nil {
		return cli.Exit(err.Error(), exitTrouble)
	}
	in, err := newInputConfig(c)
	if err != nil {
		return cli.Exit(err.Error(), exitTrouble)
	}
	color, err := colorOption(c.String("color"), std.stdoutTerminal)
	if err != nil {
		return cli.Exit(err.Error(), exitTrouble)
	}
	args := c.Args().Slice()
	if len(args) == 0 && !in.recursive && std.stdinTerminal() {
		// Nothing to read but what is typed: grep prints its usage,
		// rather than wait silently for input that never comes.
		fmt.Fprint(c.App.ErrWriter, shortUsage)
		return cli.Exit("", exitTrouble)
	}
	if len(args) == 0 {
		args = []string{"-"}
		if in.recursive {
			// As grep and ripgrep: -r without a path searches the
			// working directory, and names files relative to it
			// ("sub/a.txt", not "./sub/a.txt").
			args = []string{"."}
		}
	}
	r := &run{
		opts: opts,
		out: output.Options{
			FileName:     (len(args) > 1 || in.recursive || c.Bool("with-filename")) && !c.Bool("no-filename"),
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
		},
		quiet:      c.Bool("quiet"),
		noMessages: c.Bool("no-messages"),
		warnings:   c.Bool("warnings"),
		maxCount:   c.Int("max-count"),
		in:         in,
	}
	if r.maxCount < -1 {
		return cli.Exit(fmt.Sprintf("%s %d: want a number of URIs, 0 or more", typedFlag("max-count"), r.maxCount), exitTrouble)
	}
	switch {
	case c.Bool("files-with-matches"):
		r.list = listWithMatches
	case c.Bool("files-without-match"):
		r.list = listWithoutMatch
	}
	if r.quiet || r.list != listNone {
		// Counted, not formatted: only whether a file has one matters.
		r.out.Count, r.out.JSON = true, false
	}
	r.opts.NoLines = !r.out.HasPosition()
	// Each URI is written or counted (output.Writer, or split reading's
	// Formatter) before the next is asked for.
	r.opts.ReuseStrings = true
	if opts.Unique {
		// One set for all the inputs: -u is over the whole run.
		r.opts.UniqueSet = extract.NewUniqueSet()
	}
	jobs := c.Int("jobs")
	if jobs < 1 || opts.Unique {
		// -u: the first occurrence decides, so files are read in order.
		jobs = 1
	}
	r.jobs = jobs
	// A file read in chunks is read to its end: -q, -l and -m stop at a
	// URI, so one worker reads it, and stops there.
	r.oneInput = len(args) == 1 && !in.recursive
	r.splitFiles = r.oneInput && !r.quiet && r.list == listNone && r.maxCount < 0
	if err := r.setupFacts(c); err != nil {
		return err
	}
	start := time.Now()
	stop := r.startProgress(c, args)
	status := r.all(args, jobs)
	stop()
	if c.Bool("stats") {
		r.printStats(time.Since(start))
	}
	if status != exitFound {
		return cli.Exit("", status)
	}
	return nil
}

// stdoutWriter is standard output as the run writes it: the first write
// error is kept, and stops the run (grep: "write error", exit 2).
type stdoutWriter struct{ r *run }

func (w stdoutWriter) Write(p []byte) (int, error) {
	if w.r.clearStdout {
		w.r.stderr.Lock()
		defer w.r.stderr.Unlock()
		if w.r.clearBar != nil {
			w.r.clearBar()
		}
	}
	n, err := stdout.Write(p)
	if err != nil {
		w.r.writeErr.CompareAndSwap(nil, &err)
		w.r.stop.Store(true)
	}
	return n, err
}

// stderrWriter is standard error, one write at a time, clear of the
// progress bar.
type stderrWriter struct{ r *run }

func (w stderrWriter) Write(p []byte) (int, error) {
	w.r.stderr.Lock()
	defer w.r.stderr.Unlock()
	if w.r.clearBar != nil {
		w.r.clearBar()
	}
	return os.Stderr.Write(p)
}

// all reads the inputs on jobs workers and returns the exit status.
func (r *run) all(args []string, jobs int) int {
	var stdout io.Writer = stdoutWriter{r}
	buffered := bufio.NewWriterSize(stdout, 64<<10)
	out := parallel.NewOrdered(buffered)
	if r.out.LineBuffered {
		out = parallel.NewOrdered(stdout)
	}
	// The messages of each input go out in the order of the inputs, as
	// their output does: stderr reads the same at every -j (behaviour
	// §7).
	r.errOut = parallel.NewOrdered(stderrWriter{r})
	var found, trouble atomic.Bool
	// process reads one input; its output and messages go to slot of
	// out and r.errOut: the input's own at -j 1, its batch's at -j 2 or
	// more.
	process := func(wk *worker, f indexedInput, slot int) {
		msgs := &messages{r: r, w: r.errOut.Writer(slot), file: r.displayName(f.input.name)}
		var n int
		ok := true
		switch {
		case f.input.failure != "":
			msgs.errorf("%s", f.input.failure)
			ok = false
		case !r.stop.Load() || r.beforeQuietFound(f.index):
			n, ok = r.input(wk, f.input, out.Writer(slot), msgs)
		}
		msgs.summary()
		if n > 0 {
			found.Store(true)
			if r.quiet {
				r.setQuietFound(f.index)
				r.stop.Store(true)
			}
		}
		if !ok {
			trouble.Store(true)
		}
	}
	if jobs == 1 {
		// One worker reads each input as the walk finds it, on the walk's
		// goroutine: handed over a channel, each small file woke a
		// thread for the walk, blocked on the channel full, and put it to
		// sleep again (-r over 2,863 man pages: 1,343 context switches).
		wk := new(worker)
		r.in.list(args, func(i int, in inputFile) bool {
			process(wk, indexedInput{i, in}, i)
			out.Done(i)
			r.errOut.Done(i)
			return !r.stop.Load()
		})
	} else {
		// Buffered, so that the walk runs ahead of workers through small
		// files instead of waking one for each.
		batches := make(chan inputBatch, batchQueue)
		var wg sync.WaitGroup
		for range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				wk := new(worker)
				for b := range batches {
					for _, f := range b.inputs {
						process(wk, f, b.slot)
					}
					out.Done(b.slot)
					r.errOut.Done(b.slot)
				}
			}()
		}
		var b inputBatch
		give := func() {
			batches <- b
			b = inputBatch{slot: b.slot + 1}
		}
		r.in.list(args, func(i int, in inputFile) bool {
			b.inputs = append(b.inputs, indexedInput{i, in})
			if len(batches) == 0 || len(b.inputs) >= r.batchSize() {
				give()
			}
			return !r.stop.Load()
		})
		if len(b.inputs) > 0 {
			give()
		}
		close(batches)
		wg.Wait()
	}
	buffered.Flush()
	if err := r.writeErr.Load(); err != nil {
		// Said even with -s, as grep says it: the output is incomplete.
		fmt.Fprintf(stderrWriter{r}, "urix: write error: %v\n", unwrapPathError(*err))
		return exitTrouble
	}
	switch {
	case r.quiet && found.Load():
		// grep -q: a URI found is success, whatever else went wrong.
		return exitFound
	case trouble.Load():
		return exitTrouble
	case found.Load():
		return exitFound
	}
	return exitNotFound
}

// beforeQuietFound tells whether input i comes before the first in
// which -q found a URI: another worker may have found it first (-q
// missing.txt a.txt at -j 2 once said nothing of missing.txt).
func (r *run) beforeQuietFound(i int) bool {
	at := r.quietFound.Load()
	return at > 0 && int64(i) < at-1
}

// setQuietFound records that -q found a URI in input i.
func (r *run) setQuietFound(i int) {
	for {
		at := r.quietFound.Load()
		if at > 0 && at-1 <= int64(i) || r.quietFound.CompareAndSwap(at, int64(i)+1) {
			return
		}
	}
}

// An inputBatch is a run of inputs, in order, that one worker reads one
// after the other, their output and messages in one slot of the order
// (parallel.Ordered). A hand-over per input cost, for each of a
// Maildir's small files, a channel send and receive, a slot's place in
// the order and a spool of 64 KiB for its output while it waited: -j 2
// over 6,013 files of 7.8 KB took a tenth more CPU than -j 1 (bench
// session 16).
type inputBatch struct {
	slot   int
	inputs []indexedInput
}

// batchQueue is how many batches the walk may run ahead of the workers:
// few, since a batch is made by the mean size of the files read so far,
// and a file much larger than those before it comes in batches made by
// their mean (up to batchFiles large files on one worker, at worst
// while the other has nothing left) until those queued are read.
const batchQueue = 8

// Batches are batchBytes of input, as far as the files read so far tell
// (their mean size), and at most batchFiles inputs: a batch is given
// at once, whatever its size, when no other is waiting (the workers
// would wait), so that the first inputs, a few large files, or a slow
// walk go one by one.
const (
	batchBytes = 64 << 10
	batchFiles = 32
)

// batchSize is the number of inputs a batch holds: batchBytes of the
// mean size of the inputs read so far, 1 before any is.
func (r *run) batchSize() int {
	files, bytes := r.stats.files.Load(), r.stats.bytes.Load()
	if files == 0 || bytes == 0 {
		return 1
	}
	return int(min(batchFiles, max(1, batchBytes*files/bytes)))
}

type indexedInput struct {
	index int
	input inputFile
}

// warnCap is how many messages of one cause are printed for one input;
// the rest are counted, and the count is printed when the input is done
// (20,000 identical warnings for one huge header help no one).
const warnCap = 5

// messages are the messages of one input on stderr: in the input's turn
// (r.errOut), at most warnCap of each cause, without any under -s.
type messages struct {
	r     *run
	w     io.Writer
	file  string
	count map[string]int // by cause
	first map[string]string
	order []string // causes beyond the cap, in the order they passed it
	// capture, when set, takes the warnings instead (a worker's, held
	// for their turn); the cap is then applied as they are given back.
	capture func(cause, text string)
}

// warn prints a warning of the given cause (a key: messages of one cause
// differ only in their positions), unless the cause has had its share.
func (m *messages) warn(cause, format string, args ...any) {
	if m.r.noMessages {
		return
	}
	// What it quotes of the input is capped (capMessage) here, where
	// every message of an input passes.
	text := capMessage(fmt.Sprintf(format, args...), m.file)
	if m.capture != nil {
		m.capture(cause, text)
		return
	}
	if m.count == nil {
		m.count, m.first = map[string]int{}, map[string]string{}
	}
	m.count[cause]++
	switch n := m.count[cause]; {
	case n == 1:
		m.first[cause] = strings.TrimPrefix(text, m.file+": ")
	case n == warnCap+1:
		m.order = append(m.order, cause)
	}
	if m.count[cause] <= warnCap {
		fmt.Fprintf(m.w, "urix: %s\n", text)
	}
}

// errorf prints an error about the input (no cap on their number: there
// is one; what it quotes of the input is capped).
func (m *messages) errorf(format string, args ...any) {
	if !m.r.noMessages {
		fmt.Fprintf(m.w, "urix: %s\n", capMessage(fmt.Sprintf(format, args...), m.file))
	}
}

// summary prints, for each cause that passed the cap, how many of its
// warnings were not printed.
func (m *messages) summary() {
	for _, cause := range m.order {
		fmt.Fprintf(m.w, "urix: %s: %d more warnings like %q\n", m.file, m.count[cause]-warnCap, m.first[cause])
	}
	m.order = nil
}

// causeOf is the cause of a warning message: the message without its
// numbers and quoted parts (offsets, message and part numbers, names),
// so that "part 1.2: boundary "x" not found" and "part 3.1: boundary "y"
// not found" are one cause.
func causeOf(msg string) string {
	b := make([]byte, 0, len(msg))
	quoted := false
	for i := 0; i < len(msg); i++ {
		switch c := msg[i]; {
		case c == '"':
			quoted = !quoted
		case quoted || c >= '0' && c <= '9':
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// warnf prints a message of the run (not of one input) on stderr.
func (r *run) warnf(format string, args ...any) {
	fmt.Fprintf(stderrWriter{r}, "urix: "+format+"\n", args...)
}

func (r *run) printStats(d time.Duration) {
	s := &r.stats
	r.warnf("%d files, %d bytes, %d URIs, %d invalid, %.3f s",
		s.files.Load(), s.bytes.Load(), s.found.Load(), s.invalid.Load(), d.Seconds())
	s.quality.print(r)
}

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

// displayName is the name of an input in messages and file lists:
// standard input is "(standard input)", as grep names it, or --label.
func (r *run) displayName(name string) string { return r.out.DisplayName(name) }

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
// message already says.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// fileOutput prints the URIs of one input.
type fileOutput struct {
	r    *run
	w    *bufio.Writer
	out  *output.Writer
	name string
	// found and invalid go to the run's --stats when the input ends:
	// counted here, not on shared atomics that parallel workers would
	// pass between their caches on every URI.
	found, invalid int64
	wk             *worker          // the worker's buffers and scanner
	from           *document.Origin // where the current piece of text comes from
	msgs           *messages
	// limit is the count of URIs at which the reading of the input
	// stops (-m, -l, -q), -1 for none.
	limit int
}

// worker holds what a worker reuses from input to input: buffers and a
// scanner made for each file cost more than reading a small one (-r over
// 2,863 man pages, 12 KB each: 170 KB allocated a file, 128 GCs).
type worker struct {
	// walked is the file of a -r walk being read (its descriptor).
	walked walkedFile
	out    *output.Writer
	sc     *extract.Scanner
	ar     *extract.AttrReader // HTML attribute values (behaviour §9)
	cur    *fileOutput         // the input being read, told of skipped candidates
	// where the URIs being written were found (outputOrigin)
	mail output.Mail
	warc output.WARC
}

// writer returns the worker's output, set to write the URIs of file to w.
func (wk *worker) writer(r *run, w io.Writer, file string) *output.Writer {
	if wk.out == nil {
		wk.out = output.NewWriter(w, &r.out)
	}
	wk.out.Reset(w, file)
	return wk.out
}

// scanner returns the worker's scanner, set to read body for f.
func (wk *worker) scanner(f *fileOutput, body io.Reader) *extract.Scanner {
	wk.cur = f
	if wk.sc == nil {
		opts := f.r.opts
		opts.OnSkip = func(sk extract.Skip) { wk.cur.skipped(sk) }
		wk.sc = extract.NewScanner(body, opts)
	} else {
		wk.sc.Reset(body)
	}
	return wk.sc
}

// text finds the URIs of one piece of text (a file, a mail part, a WARC
// record) from where it came from.
func (f *fileOutput) text(body io.Reader, from *document.Origin) error {
	f.from = from
	var at output.Origin
	atSet := false
	s := f.wk.scanner(f, body)
	for s.Scan() {
		m := s.Match()
		if !atSet {
			// Made at the first URI: most documents of a message (its
			// fields, the runs of an HTML part) have none.
			at, atSet = f.wk.outputOrigin(from), true
		}
		f.found++
		if !m.Valid {
			f.invalid++
		}
		f.write(m, at)
		if f.limit >= 0 && f.out.Count() >= f.limit {
			return errEnough
		}
		if f.r.stop.Load() {
			return errStopped
		}
	}
	return s.Err()
}

// errEnough ends the reading of an input that has given what was asked
// of it (-m, -l, -q); errStopped that of one whose run is over (-q found
// a URI, or stdout failed). Neither is an error of the input.
var (
	errEnough  = errors.New("enough URIs")
	errStopped = errors.New("run stopped")
)

// skipped reports a candidate skipped for its length.
func (f *fileOutput) skipped(sk extract.Skip) {
	f.msgs.warn("skipped", "%s: skipped a candidate of %d bytes at offset %d%s (longer than --max-length)",
		f.r.displayName(f.name), sk.End-sk.Offset, sk.Offset, f.from.Where())
}
