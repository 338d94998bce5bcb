package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync/atomic"

	"github.com/urfave/cli/v2"
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/document/mail"
	"github.com/urix-dev/urix/document/warc"
)

func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "auto", Category: "Input", Usage: "read input as `FORMAT`: text, mail, mbox, news, warc or auto (mail when it starts like a message or an mbox, warc when it starts like a WARC file, else text)"},
		&cli.BoolFlag{Name: "recursive", Aliases: []string{"r"}, Category: "Input", Usage: "read directories recursively, files in path order", DisableDefaultText: true},
		&cli.BoolFlag{Name: "dereference-recursive", Aliases: []string{"L"}, Category: "Input", Usage: "with -r, follow symbolic links", DisableDefaultText: true},
		&cli.BoolFlag{Name: "text", Aliases: []string{"a"}, Category: "Input", Usage: "with -r, read binary files too (by default a file with a NUL in its first block is skipped)", DisableDefaultText: true},
		&cli.StringSliceFlag{Name: "include", Category: "Input", Usage: "with -r, read only files whose name matches `GLOB`"},
		&cli.StringSliceFlag{Name: "exclude", Category: "Input", Usage: "with -r, skip files and directories whose name matches `GLOB`"},
		&cli.BoolFlag{Name: "decompress", Aliases: []string{"z"}, Category: "Input", Usage: "insist that every input is compressed (gzip, bzip2, xz and zstd are read transparently anyway)", DisableDefaultText: true},
	}
}

// inputConfig says how inputs are found and read.
type inputConfig struct {
	format    string
	recursive bool
	follow    bool
	text      bool
	include   []string
	exclude   []string
	forceZ    bool
}

func newInputConfig(c *cli.Context) (inputConfig, error) {
	in := inputConfig{
		format:    c.String("format"),
		recursive: c.Bool("recursive") || c.Bool("dereference-recursive"),
		follow:    c.Bool("dereference-recursive"),
		text:      c.Bool("text"),
		include:   c.StringSlice("include"),
		exclude:   c.StringSlice("exclude"),
		forceZ:    c.Bool("decompress"),
	}
	switch in.format {
	case "auto", "text", "mail", "mbox", "news", "warc":
		return in, nil
	}
	return in, fmt.Errorf("--format %q: want text, mail, mbox, news, warc or auto", in.format)
}

// inputFile is one input: a file name, or "-" for standard input.
type inputFile struct {
	name string
	// walked: found by -r in a directory rather than named; binary ones
	// are skipped.
	walked bool
}

// list gives each input in order; the directories of a -r walk are
// expanded. It returns an error when some entry could not be listed.
func (in *inputConfig) list(args []string, emit func(int, inputFile), warnf func(string, ...any)) error {
	i := 0
	var failed error
	for _, a := range args {
		if a == "-" || !in.recursive {
			emit(i, inputFile{name: a})
			i++
			continue
		}
		if fi, err := os.Stat(a); err != nil || !fi.IsDir() {
			emit(i, inputFile{name: a})
			i++
			continue
		}
		opts := document.WalkOptions{Follow: in.follow, Include: in.include, Exclude: in.exclude}
		err := document.Walk([]string{a}, opts, func(path string) error {
			emit(i, inputFile{name: path, walked: true})
			i++
			return nil
		}, func(path string, err error) {
			warnf("%s: %v", path, unwrapPathError(err))
			failed = err
		})
		if err != nil {
			warnf("%s: %v", a, unwrapPathError(err))
			failed = err
		}
	}
	return failed
}

// input reads one input and prints its URIs to w; it returns how many it
// printed (or counted) and false when an error was reported.
func (r *run) input(wk *worker, in inputFile, w io.Writer) (int, bool) {
	f := &fileOutput{r: r, out: wk.writer(r, w, in.name), name: in.name, wk: wk}
	f.w = f.out.Buffer()
	defer f.out.Flush()
	opened, err := r.read(f, in)
	r.stats.found.Add(f.found)
	r.stats.invalid.Add(f.invalid)
	if r.out.Count && opened {
		f.out.WriteCount()
	}
	if err != nil {
		f.out.Flush()
		r.warnf("%s: %v", displayName(in.name), unwrapPathError(err))
		return f.out.Count(), false
	}
	return f.out.Count(), true
}

// read opens an input, undoes its compression, skips it when binary, and
// reads it in its format.
func (r *run) read(f *fileOutput, in inputFile) (opened bool, err error) {
	var rd io.Reader = os.Stdin
	if in.name != "-" {
		file, err := os.Open(in.name)
		if err != nil {
			return false, err
		}
		defer file.Close()
		if size, ok := r.splittable(in, file); ok {
			r.stats.files.Add(1)
			return true, r.readSplit(f, file, size)
		}
		rd = file
	}
	r.stats.files.Add(1)
	rd = &yieldingReader{r: &countingReader{r: rd, n: &r.stats.bytes}}
	dec, _, err := f.wk.raw.Decompress(rd, r.in.forceZ)
	if err != nil {
		return true, err
	}
	br := f.wk.reader(dec)
	head := r.head(br, in)
	if in.walked && !r.in.text && document.IsBinary(head) {
		if !r.quiet {
			r.warnf("%s: binary file skipped (use -a to read it)", in.name)
		}
		return true, nil
	}
	switch format := r.formatOf(head); format {
	case "text":
		return true, f.text(br, &origin{})
	case "warc":
		return true, r.readWARC(f, br)
	default:
		return true, r.readMail(f, br, format)
	}
}

// headSize is how much of an input is looked at to tell a binary file or
// the format.
const headSize = 8 << 10

// head returns the first bytes of an input, as many as the decisions on it
// need: headSize to tell a binary file (one found by -r), and with --format
// auto no more than decides the format, so that a slow stream (tail -f |
// urix) is not held up waiting for 8 KiB, while the decision is the one
// the first 8 KiB would give. A read error shows again on the first read.
func (r *run) head(br *bufio.Reader, in inputFile) []byte {
	if in.walked && !r.in.text {
		h, _ := br.Peek(headSize)
		return h
	}
	if r.in.format != "auto" {
		return nil
	}
	for want := 1; ; {
		if _, err := br.Peek(want); err != nil {
			h, _ := br.Peek(br.Buffered())
			return h
		}
		h, _ := br.Peek(min(headSize, br.Buffered()))
		if len(h) >= headSize || formatDecided(h) {
			return h
		}
		want = len(h) + 1
	}
}

// formatDecided tells whether more input could change what formatOf says
// of the prefix h.
func formatDecided(h []byte) bool {
	const warc = "WARC/1."
	if len(h) < len(warc) && bytes.HasPrefix([]byte(warc), h) {
		return false
	}
	if bytes.HasPrefix(h, []byte(warc)) {
		return true
	}
	_, ok := mail.DetectEarly(h)
	return ok
}

// formatOf is --format, or for auto what the first bytes look like.
func (r *run) formatOf(head []byte) string {
	if r.in.format != "auto" {
		return r.in.format
	}
	if bytes.HasPrefix(head, []byte("WARC/1.")) {
		return "warc"
	}
	switch mail.Detect(head) {
	case mail.FormatMbox:
		return "mbox"
	case mail.FormatMail, mail.FormatNews:
		return "mail"
	}
	return "text"
}

func (r *run) readMail(f *fileOutput, rd io.Reader, format string) error {
	mf, _, err := mail.ParseFormat(format)
	if err != nil {
		return err
	}
	warn := func(msgNo int, msg string) {
		if !r.quiet {
			r.warnf("%s: message %d: %s", displayName(f.name), msgNo, msg)
		}
	}
	return mail.Walk(rd, mail.Options{Format: mf, Warn: warn}, func(p *mail.Part) error {
		return f.text(p.Body, &origin{
			msgNo: p.MsgNo, msgOffset: p.MsgOffset, messageID: p.MessageID,
			part: p.Path, field: p.Field, html: p.HTML,
		})
	})
}

// readWARC reads the records of a WARC file; a malformed record is
// reported and costs only itself.
func (r *run) readWARC(f *fileOutput, rd io.Reader) error {
	wr := warc.NewReader(rd)
	bad := 0
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var fe *warc.FormatError
			if !errors.As(err, &fe) || bad > 1000 {
				return err
			}
			bad++
			if !r.quiet {
				r.warnf("%s: %v", displayName(f.name), err)
			}
			continue
		}
		from := &origin{warc: true, warcTarget: rec.TargetURI, warcID: rec.RecordID, warcOffset: rec.Offset}
		if err := f.text(rec.Body, from); err != nil {
			return err
		}
	}
}

// origin says where in a structured input a piece of text came from.
type origin struct {
	msgNo     int // 1-based message number; 0 when the input is not mail
	msgOffset int64
	messageID string
	part      string
	field     string
	html      bool

	warc       bool
	warcTarget string
	warcID     string
	warcOffset int64
}

// where describes the origin for a message on stderr.
func (o *origin) where() string {
	switch {
	case o.msgNo > 0 && o.field != "":
		return fmt.Sprintf(" in the %s field of message %d", o.field, o.msgNo)
	case o.msgNo > 0:
		return fmt.Sprintf(" in part %s of message %d", o.part, o.msgNo)
	case o.warc:
		return fmt.Sprintf(" in the record at offset %d", o.warcOffset)
	}
	return ""
}

// countingReader counts the bytes read, for --stats.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// yieldingReader makes the goroutine that reads through it yield
// (runtime.Gosched) once every yieldEvery bytes.
//
// A worker that reads a large file runs for long without being scheduled.
// When the Go runtime's monitor thread (sysmon) finds such a goroutine, 10
// ms on, inside a system call, it takes its P and hands it off; each P it
// takes sets it back to waking every 20 µs, and while no P is idle (-j 2
// on two CPUs) it then takes the P of every read it sees twice, so it
// goes on waking and taking. Each of those wake-ups and hand-offs
// displaces a worker. A yield every 4 MiB (about 2 ms of reading) keeps
// the goroutine from being seen as long-running, and the monitor sleeps
// its longest (10 ms). Two 800 MB files, -j 2: 0.382 -> 0.351 s (median of
// 15; least 0.363 -> 0.346), 1,475 -> 343 context switches; -j 1 the same.
type yieldingReader struct {
	r     io.Reader
	since int // bytes read since the last yield
}

const yieldEvery = 4 << 20

func (y *yieldingReader) Read(p []byte) (int, error) {
	n, err := y.r.Read(p)
	if y.since += n; y.since >= yieldEvery {
		y.since = 0
		runtime.Gosched()
	}
	return n, err
}
