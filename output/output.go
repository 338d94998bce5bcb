// Package output turns the URIs that package extract finds into the
// output of the urix command (behaviour §7): plain lines, grep-style, with
// the prefixes FILE:LINE:COLUMN:OFFSET: each when asked, ended by a line
// break or NUL; the URI as found, its normal form, or (the invalid ones)
// with the reason; a count per input; or JSON Lines, one Record per URI.
//
// It takes matches and where their text came from (a *document.Origin,
// as package document fills it; nil for plain text) and knows nothing of
// how files, mail or WARC records are read.
//
//	w := output.NewWriter(os.Stdout, &output.Options{Line: true})
//	w.Reset(os.Stdout, "notes.txt")
//	s := extract.NewScanner(r, extract.Options{})
//	for s.Scan() {
//		w.Write(s.Match(), nil)
//	}
//	w.Flush()
package output

import (
	"bufio"
	"io"
	"strconv"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// Options choose what is printed of each URI. The zero value prints each
// valid URI as found, one per line.
type Options struct {
	// JSON writes a JSON object (Record) per URI and line; the prefix
	// options below do not apply to it, and Normalize neither (the
	// object holds both forms).
	JSON bool
	// FileName, Line, Column and Offset each add a prefix to a plain
	// line, in grep's order: FILE:LINE:COLUMN:OFFSET:URI. For a URI found
	// in a message, FILE: is followed by the message number.
	FileName, Line, Column, Offset bool
	// Normalize prints the normal form of a valid URI (behaviour §6).
	Normalize bool
	// Invalid selects the invalid URIs instead of the valid ones, and a
	// plain line ends with a tab and the reason.
	Invalid bool
	// Count prints nothing per URI: Writer.WriteCount prints how many
	// were selected.
	Count bool
	// Null ends each plain line with NUL instead of a line break.
	Null bool
	// LineBuffered sends each line out as soon as it is made, so that
	// "tail -f log | urix" shows each URI as it comes.
	LineBuffered bool
	// Color, when set, colours the parts of a plain line (and the names
	// of AppendFileName) as grep --color does; JSON is never coloured.
	Color *Colors
	// StdinLabel names standard input (the file "-"): in FILE: prefixes
	// and counts, where it is "(standard input)" when StdinLabel is
	// empty, as grep names it; and in JSON's file, where it is "-" then.
	StdinLabel string
}

// StdinName is how grep names standard input.
const StdinName = "(standard input)"

// DisplayName is the name of file as a FILE: prefix shows it: standard
// input ("-") by its label, or grep's "(standard input)".
func (o *Options) DisplayName(file string) string {
	if file != "-" {
		return file
	}
	if o.StdinLabel != "" {
		return o.StdinLabel
	}
	return StdinName
}

// jsonName is the name of file as JSON's file gives it: "-" for standard
// input, unless it has a label.
func (o *Options) jsonName(file string) string {
	if file == "-" && o.StdinLabel != "" {
		return o.StdinLabel
	}
	return file
}

// AppendFileName appends the name of file as -l lists it (coloured as
// a FILE: prefix), without an ending.
func (o *Options) AppendFileName(b []byte, file string) []byte {
	if o.Color == nil {
		return append(b, o.DisplayName(file)...)
	}
	b = o.Color.start(b, o.Color.FileName)
	b = append(b, o.DisplayName(file)...)
	return o.Color.end(b, o.Color.FileName)
}

// appendSep appends the ':' after a prefix.
func (o *Options) appendSep(b []byte) []byte {
	if o.Color == nil {
		return append(b, ':')
	}
	b = o.Color.start(b, o.Color.Separator)
	b = append(b, ':')
	return o.Color.end(b, o.Color.Separator)
}

// appendNumber appends a number of a prefix and its ':', the number in
// the colour sgr (of Color) when colouring.
func (o *Options) appendNumber(b []byte, v int64, sgr func(*Colors) string) []byte {
	if o.Color == nil {
		b = strconv.AppendInt(b, v, 10)
		return append(b, ':')
	}
	b = o.Color.start(b, sgr(o.Color))
	b = strconv.AppendInt(b, v, 10)
	b = o.Color.end(b, sgr(o.Color))
	return o.appendSep(b)
}

func lineColor(c *Colors) string { return c.LineNumber }
func byteColor(c *Colors) string { return c.ByteOffset }

// Selects reports whether m is printed (or counted): valid URIs, or with
// Invalid the invalid ones.
func (o *Options) Selects(m *extract.Match) bool { return m.Valid != o.Invalid }

// HasPosition reports whether the output shows a URI's line or column.
func (o *Options) HasPosition() bool { return o.JSON || o.Line || o.Column }

// Append appends the output of m, found in file at from: a line, ended.
func (o *Options) Append(b []byte, file string, from *document.Origin, m *extract.Match) []byte {
	return o.appendLine(b, file, from, m, nil)
}

// AppendDeferred is Append without m's line and column, for a reader that
// formats before it knows how many lines stand before the text (package
// parallel): it returns where AppendPosition is to put them, -1 when
// the output shows neither.
func (o *Options) AppendDeferred(b []byte, file string, from *document.Origin, m *extract.Match) ([]byte, int) {
	if !o.HasPosition() {
		return o.appendLine(b, file, from, m, nil), -1
	}
	posAt := -1
	b = o.appendLine(b, file, from, m, &posAt)
	return b, posAt
}

// AppendPosition appends what the output shows of a URI's line and
// column, where AppendDeferred left them out.
func (o *Options) AppendPosition(b []byte, line, column int64) []byte {
	if o.JSON {
		return appendJSONPosition(b, line, column)
	}
	if o.Line {
		b = o.appendNumber(b, line, lineColor)
	}
	if o.Column {
		// Coloured as a line number: grep has no column, ripgrep
		// colours both alike.
		b = o.appendNumber(b, column, lineColor)
	}
	return b
}

func (o *Options) appendLine(b []byte, file string, from *document.Origin, m *extract.Match, posAt *int) []byte {
	if o.JSON {
		b = appendJSON(b, o.jsonName(file), from, m, posAt)
		return append(b, '\n')
	}
	if o.FileName {
		b = o.AppendFileName(b, file)
		b = o.appendSep(b)
		// FILE:MSGNO: and FILE:RECORD: (behaviour §9.7): no two
		// messages or records of a file read alike. (Coloured as line
		// numbers: numbers of a place in the file.)
		if isMail(from) {
			b = o.appendNumber(b, int64(from.Message), lineColor)
		} else if isWARC(from) && from.Record > 0 {
			b = o.appendNumber(b, int64(from.Record), lineColor)
		}
	}
	if posAt != nil {
		*posAt = len(b)
	} else {
		b = o.AppendPosition(b, m.Line, m.Column)
	}
	if o.Offset {
		b = o.appendNumber(b, m.Offset, byteColor)
	}
	text := m.URI
	if o.Normalize && m.Valid {
		text = m.Normalized
	}
	if o.Color != nil {
		b = o.Color.start(b, o.Color.Match)
		b = append(b, text...)
		b = o.Color.end(b, o.Color.Match)
	} else {
		b = append(b, text...)
	}
	if o.Invalid && m.Err != nil {
		b = append(b, '\t')
		b = append(b, m.Err.Error()...)
	}
	if o.Null {
		return append(b, 0)
	}
	return append(b, '\n')
}

// Deferred formats the URIs of one plain-text input for a reader that
// puts their line and column in later, on several goroutines at once (it
// is the extract.Formatter of the urix command).
type Deferred struct {
	Options *Options
	File    string
}

// Selects is Options.Selects.
func (d Deferred) Selects(m *extract.Match) bool { return d.Options.Selects(m) }

// AppendMatch is Options.AppendDeferred for the file's plain text; with
// Options.Count it appends nothing.
func (d Deferred) AppendMatch(b []byte, m *extract.Match) ([]byte, int) {
	if d.Options.Count {
		return b, -1
	}
	return d.Options.AppendDeferred(b, d.File, nil, m)
}

// AppendPosition is Options.AppendPosition.
func (d Deferred) AppendPosition(b []byte, line, column int64) []byte {
	return d.Options.AppendPosition(b, line, column)
}

// Writer writes the output of the URIs of one input after the other. It
// can be reset to write those of the next input, keeping its buffers.
type Writer struct {
	opts  *Options
	w     *bufio.Writer
	file  string
	count int
	buf   []byte
}

// NewWriter returns a Writer to w, with the options *opts (not copied).
func NewWriter(w io.Writer, opts *Options) *Writer {
	return &Writer{opts: opts, w: bufio.NewWriterSize(w, 32<<10)}
}

// Reset makes the Writer write to w the output of the input file ("-":
// standard input), after it flushed its buffer. Its count starts again.
func (w *Writer) Reset(dst io.Writer, file string) error {
	err := w.w.Flush()
	w.w.Reset(dst)
	w.file, w.count = file, 0
	return err
}

// Next makes the Writer write the output of the input file after that
// of the last, to the same writer, without flushing its buffer between
// them. Its count starts again.
func (w *Writer) Next(file string) {
	w.file, w.count = file, 0
}

// Write prints m, found at from, when it is selected, and counts it.
func (w *Writer) Write(m *extract.Match, from *document.Origin) {
	if !w.opts.Selects(m) {
		return
	}
	w.count++
	if w.opts.Count {
		return
	}
	w.buf = w.opts.Append(w.buf[:0], w.file, from, m)
	w.w.Write(w.buf)
	if w.opts.LineBuffered {
		w.w.Flush()
	}
}

// Buffer is the writer under w, for output already formatted (by
// Deferred, in order) and counted with AddCount.
func (w *Writer) Buffer() *bufio.Writer { return w.w }

// AddCount adds n URIs selected and printed by other means.
func (w *Writer) AddCount(n int) { w.count += n }

// Count returns the number of URIs selected since the last Reset.
func (w *Writer) Count() int { return w.count }

// WriteCount prints the count: "FILE:COUNT" with Options.FileName.
func (w *Writer) WriteCount() {
	if w.opts.FileName {
		w.buf = w.opts.appendSep(w.opts.AppendFileName(w.buf[:0], w.file))
		w.w.Write(w.buf)
	}
	w.w.WriteString(strconv.Itoa(w.count))
	w.w.WriteByte('\n')
}

// Flush writes out what the buffer holds.
func (w *Writer) Flush() error { return w.w.Flush() }
