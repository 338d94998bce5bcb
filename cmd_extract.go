package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
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
		&cli.BoolFlag{Name: "json", Category: "Output", Usage: "print JSON Lines: uri, normalized, raw, file, line, column, offset, end, delimiter, valid, reason, flags, alt", DisableDefaultText: true},
		&cli.BoolFlag{Name: "normalize", Category: "Output", Usage: "print the RFC 3986 normal form of each URI", DisableDefaultText: true},
		&cli.BoolFlag{Name: "invalid", Category: "Output", Usage: "print only the invalid URIs, as URI<TAB>reason", DisableDefaultText: true},
		&cli.BoolFlag{Name: "ascii", Category: "Output", Usage: "print IRIs in their URI form (percent-encoding, IDNA A-labels)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "any-scheme", Category: "What to find", Usage: "find any scheme of two or more characters, not only the registered ones", DisableDefaultText: true},
		&cli.StringSliceFlag{Name: "scheme", Category: "What to find", Usage: "find only the schemes in `LIST` (comma-separated; repeatable)"},
		&cli.BoolFlag{Name: "www", Category: "What to find", Usage: "also find bare www.host... (reported as http://www.host...)", DisableDefaultText: true},
		&cli.BoolFlag{Name: "email", Category: "What to find", Usage: "also find bare user@host.tld (reported as mailto:user@host.tld)", DisableDefaultText: true},
		&cli.StringFlag{Name: "hyphen", Value: "keep", Category: "What to find", Usage: "a URI broken across lines right after a hyphen: print it with the hyphen, without, or both forms (`MODE`: keep, drop or both)"},
		&cli.IntFlag{Name: "max-length", Value: 64 << 10, Category: "What to find", Usage: "skip (and report) candidates longer than `BYTES`"},
		&cli.BoolFlag{Name: "fold-width", Category: "What to find", Usage: "read fullwidth forms (ｈｔｔｐ：／／) as ASCII", DisableDefaultText: true},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Category: "Input", Usage: "read `N` files (or chunks of one large file) at once; the output is that of -j 1"},
		&cli.BoolFlag{Name: "stats", Category: "Messages", Usage: "print files, bytes, URIs, invalid URIs and time on stderr at the end", DisableDefaultText: true},
		&cli.BoolFlag{Name: "progress", Category: "Messages", Usage: "show a progress bar (bytes, rate, ETA) on stderr; on by default when stderr is a terminal and the input is over 256 MiB", DisableDefaultText: true},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Category: "Messages", Usage: "do not print warnings (skipped candidates, bad mail) on stderr", DisableDefaultText: true},
	}, inputFlags()...)
}

// run holds what the flags ask for, shared by the workers: what to find
// (extract), what to print of it (output), how to read (in, jobs).
type run struct {
	opts  extract.Options
	out   output.Options
	quiet bool
	jobs  int
	// splitFiles: one large file may be read in chunks (cmd_split.go).
	splitFiles bool
	in         inputConfig

	stderr sync.Mutex
	stats  runStats
}

type runStats struct {
	files, bytes, found, invalid atomic.Int64
}

func runExtract(c *cli.Context) error {
	opts, err := extractOptions(c)
	if err != nil {
		return cli.Exit(err.Error(), exitTrouble)
	}
	in, err := newInputConfig(c)
	if err != nil {
		return cli.Exit(err.Error(), exitTrouble)
	}
	args := c.Args().Slice()
	if len(args) == 0 {
		args = []string{"-"}
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
			LineBuffered: c.Bool("line-buffered") || term.IsTerminal(int(os.Stdout.Fd())),
		},
		quiet: c.Bool("quiet"),
		in:    in,
	}
	r.opts.NoLines = !r.out.HasPosition()
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
	r.splitFiles = len(args) == 1 && !in.recursive
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

// all reads the inputs on jobs workers and returns the exit status.
func (r *run) all(args []string, jobs int) int {
	stdout := bufio.NewWriterSize(os.Stdout, 64<<10)
	out := parallel.NewOrdered(stdout)
	if r.out.LineBuffered {
		out = parallel.NewOrdered(os.Stdout)
	}
	// Buffered, so that the walk runs ahead of workers through small
	// files instead of waking one for each (-r over 2,863 man pages, -j 1:
	// 0.346 -> 0.312 s).
	files := make(chan indexedInput, 256)
	var found, trouble atomic.Bool
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := new(worker)
			for f := range files {
				n, ok := r.input(wk, f.input, out.Writer(f.index))
				if n > 0 {
					found.Store(true)
				}
				if !ok {
					trouble.Store(true)
				}
				if err := out.Done(f.index); err != nil {
					trouble.Store(true)
				}
			}
		}()
	}
	if err := r.in.list(args, func(i int, in inputFile) { files <- indexedInput{i, in} }, r.warnf); err != nil {
		trouble.Store(true)
	}
	close(files)
	wg.Wait()
	if err := stdout.Flush(); err != nil {
		r.warnf("writing output: %v", err)
		return exitTrouble
	}
	switch {
	case trouble.Load():
		return exitTrouble
	case found.Load():
		return exitFound
	}
	return exitNotFound
}

type indexedInput struct {
	index int
	input inputFile
}

// warnf prints an error or warning on stderr, one line, whole.
func (r *run) warnf(format string, args ...any) {
	r.stderr.Lock()
	defer r.stderr.Unlock()
	fmt.Fprintf(os.Stderr, "urix: "+format+"\n", args...)
}

func (r *run) printStats(d time.Duration) {
	s := &r.stats
	r.warnf("%d files, %d bytes, %d URIs, %d invalid, %.3f s",
		s.files.Load(), s.bytes.Load(), s.found.Load(), s.invalid.Load(), d.Seconds())
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
	switch h := c.String("hyphen"); h {
	case "keep":
		opts.Hyphen = extract.HyphenKeep
	case "drop":
		opts.Hyphen = extract.HyphenDrop
	case "both":
		opts.Hyphen = extract.HyphenBoth
	default:
		return opts, fmt.Errorf("--hyphen %q: want keep, drop or both", h)
	}
	if opts.MaxLength <= 0 {
		return opts, fmt.Errorf("--max-length %d: want a positive number of bytes", opts.MaxLength)
	}
	return opts, nil
}

func displayName(name string) string {
	if name == "-" {
		return "(standard input)"
	}
	return name
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
	wk             *worker // the worker's buffers and scanner
	from           *origin // where the current piece of text comes from
}

// worker holds what a worker reuses from input to input: buffers and a
// scanner made for each file cost more than reading a small one (-r over
// 2,863 man pages, 12 KB each: 170 KB allocated a file, 128 GCs).
type worker struct {
	raw  document.Buffer // Decompress's, over the file
	text *bufio.Reader   // over the decompressed text, when it was compressed
	out  *output.Writer
	sc   *extract.Scanner
	cur  *fileOutput // the input being read, told of skipped candidates
}

// writer returns the worker's output, set to write the URIs of file to w.
func (wk *worker) writer(r *run, w io.Writer, file string) *output.Writer {
	if wk.out == nil {
		wk.out = output.NewWriter(w, &r.out)
	}
	wk.out.Reset(w, file)
	return wk.out
}

// reader returns a buffered reader of dec, the worker's when dec is not
// one already (not compressed: Decompress's own buffer).
func (wk *worker) reader(dec io.Reader) *bufio.Reader {
	if br, ok := dec.(*bufio.Reader); ok && br.Size() >= 64<<10 {
		return br
	}
	if wk.text == nil {
		wk.text = bufio.NewReaderSize(dec, 64<<10)
	} else {
		wk.text.Reset(dec)
	}
	return wk.text
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
func (f *fileOutput) text(body io.Reader, from *origin) error {
	f.from = from
	at := from.output()
	s := f.wk.scanner(f, body)
	for s.Scan() {
		m := s.Match()
		f.found++
		if !m.Valid {
			f.invalid++
		}
		f.out.Write(m, at)
	}
	return s.Err()
}

// output is where the text came from, as the output tells it.
func (o *origin) output() output.Origin {
	switch {
	case o.msgNo > 0:
		m := &output.Mail{Message: o.msgNo, Offset: o.msgOffset, MessageID: o.messageID, Field: o.field, HTML: o.html,
			Source: o.source.String(), Tag: o.tag, Attr: o.attr}
		if o.field == "" {
			m.Part = o.part
		}
		return output.Origin{Mail: m}
	case o.warc:
		return output.Origin{WARC: &output.WARC{Record: o.warcRecord, Offset: o.warcOffset, TargetURI: o.warcTarget, RecordID: o.warcID}}
	}
	return output.Origin{}
}

// skipped reports a candidate skipped for its length.
func (f *fileOutput) skipped(sk extract.Skip) {
	if !f.r.quiet {
		f.r.warnf("%s: skipped a candidate of %d bytes at offset %d%s (longer than --max-length)",
			displayName(f.name), sk.End-sk.Offset, sk.Offset, f.from.where())
	}
}
