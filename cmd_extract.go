package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/urix-dev/urix/extract"
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
	return []cli.Flag{
		&cli.BoolFlag{Name: "line-number", Aliases: []string{"n"}, Usage: "prefix each URI with the line number of its first character"},
		&cli.BoolFlag{Name: "column", Usage: "prefix each URI with the column (1-based, in bytes) of its first character"},
		&cli.BoolFlag{Name: "byte-offset", Aliases: []string{"b"}, Usage: "prefix each URI with the byte offset (0-based) of its first character"},
		&cli.BoolFlag{Name: "with-filename", Aliases: []string{"H"}, Usage: "prefix each URI with its file name (the default with several files)"},
		&cli.BoolFlag{Name: "no-filename", Aliases: []string{"h"}, Usage: "never prefix file names"},
		&cli.BoolFlag{Name: "count", Aliases: []string{"c"}, Usage: "print only the number of URIs (per file, with several files)"},
		&cli.BoolFlag{Name: "unique", Aliases: []string{"u"}, Usage: "print each URI once: the first occurrence of each normal form"},
		&cli.BoolFlag{Name: "null", Aliases: []string{"0"}, Usage: "end each URI with NUL instead of a line break"},
		&cli.BoolFlag{Name: "json", Usage: "print JSON Lines: uri, normalized, raw, file, line, column, offset, end, delimiter, valid, reason, flags, alt"},
		&cli.BoolFlag{Name: "normalize", Usage: "print the RFC 3986 normal form of each URI"},
		&cli.BoolFlag{Name: "invalid", Usage: "print only the invalid URIs, as URI<TAB>reason"},
		&cli.BoolFlag{Name: "ascii", Usage: "print IRIs in their URI form (percent-encoding, IDNA A-labels)"},
		&cli.BoolFlag{Name: "any-scheme", Usage: "find any scheme of two or more characters, not only the registered ones"},
		&cli.StringSliceFlag{Name: "scheme", Usage: "find only these schemes (comma-separated, repeatable)"},
		&cli.BoolFlag{Name: "www", Usage: "also find bare www.host... (reported as http://www.host...)"},
		&cli.BoolFlag{Name: "email", Usage: "also find bare user@host.tld (reported as mailto:user@host.tld)"},
		&cli.StringFlag{Name: "hyphen", Value: "keep", Usage: "a URI broken after a hyphen: keep the hyphen, drop it, or print both forms (keep|drop|both)"},
		&cli.IntFlag{Name: "max-length", Value: 64 << 10, Usage: "skip (and report) candidates longer than this many bytes"},
		&cli.BoolFlag{Name: "fold-width", Usage: "read fullwidth forms (ｈｔｔｐ：／／) as ASCII"},
	}
}

// output holds what the flags ask to print.
type output struct {
	w        *bufio.Writer
	fileName bool
	line     bool
	column   bool
	offset   bool
	count    bool
	json     bool
	norm     bool
	invalid  bool
	term     byte
}

func runExtract(c *cli.Context) error {
	opts, err := extractOptions(c)
	if err != nil {
		return cli.Exit(err.Error(), exitTrouble)
	}
	files := c.Args().Slice()
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	out := &output{
		w:        w,
		fileName: (len(files) > 1 || c.Bool("with-filename")) && !c.Bool("no-filename"),
		line:     c.Bool("line-number"),
		column:   c.Bool("column"),
		offset:   c.Bool("byte-offset"),
		count:    c.Bool("count"),
		json:     c.Bool("json"),
		norm:     c.Bool("normalize"),
		invalid:  c.Bool("invalid"),
		term:     '\n',
	}
	if c.Bool("null") {
		out.term = 0
	}
	opts.NoLines = !out.line && !out.column && !out.json
	status := exitNotFound
	for _, name := range files {
		n, err := out.file(name, opts)
		if n > 0 && status == exitNotFound {
			status = exitFound
		}
		if err != nil {
			w.Flush()
			fmt.Fprintf(os.Stderr, "urix: %s: %v\n", displayName(name), err)
			status = exitTrouble
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "urix: writing output: %v\n", err)
		return cli.Exit("", exitTrouble)
	}
	if status != exitFound {
		return cli.Exit("", status)
	}
	return nil
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

// file prints the URIs of one file and returns how many it printed (or
// counted).
func (o *output) file(name string, opts extract.Options) (int, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return 0, unwrapPathError(err)
		}
		defer f.Close()
		r = f
	}
	opts.OnSkip = func(sk extract.Skip) {
		o.w.Flush()
		fmt.Fprintf(os.Stderr, "urix: %s: skipped a candidate of %d bytes at offset %d (longer than --max-length)\n",
			displayName(name), sk.End-sk.Offset, sk.Offset)
	}
	s := extract.NewScanner(r, opts)
	n := 0
	for s.Scan() {
		m := s.Match()
		if m.Valid == o.invalid {
			continue
		}
		n++
		if !o.count {
			o.print(name, m)
		}
	}
	if o.count {
		if o.fileName {
			o.w.WriteString(name)
			o.w.WriteByte(':')
		}
		o.w.WriteString(strconv.Itoa(n))
		o.w.WriteByte('\n')
	}
	return n, unwrapPathError(s.Err())
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

func (o *output) print(name string, m *extract.Match) {
	if o.json {
		o.w.Write(appendJSON(nil, name, m))
		o.w.WriteByte('\n')
		return
	}
	w := o.w
	if o.fileName {
		w.WriteString(name)
		w.WriteByte(':')
	}
	if o.line {
		w.WriteString(strconv.FormatInt(m.Line, 10))
		w.WriteByte(':')
	}
	if o.column {
		w.WriteString(strconv.FormatInt(m.Column, 10))
		w.WriteByte(':')
	}
	if o.offset {
		w.WriteString(strconv.FormatInt(m.Offset, 10))
		w.WriteByte(':')
	}
	if o.norm && m.Valid {
		w.WriteString(m.Normalized)
	} else {
		w.WriteString(m.URI)
	}
	if o.invalid {
		w.WriteByte('\t')
		w.WriteString(m.Err.Error())
	}
	w.WriteByte(o.term)
}
