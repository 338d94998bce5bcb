package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// Ranges of one file, for a pipeline that hands the pieces of one large
// file to different machines (issues 33 and 34): Ranges lists them,
// RunRange reads one, WriteMessages puts the messages of a file's ranges
// together. Concatenated in the order of the list, the outputs of
// RunRange are what Run prints for the whole file at Jobs 1, byte for
// byte, and WriteMessages writes what Run writes on Stderr.
//
// A range of an mbox or a WARC file starts and ends where a reading may
// be cut without changing what is found (document.Boundaries): at a
// message of an mbox, at a record of a WARC file, at a gzip member that
// starts at one of those (a WARC file as crawlers write it, a member a
// record).
//
// A plain, uncompressed text file is cut at line ends, but a line of
// text can read differently for what stands before it (an unclosed <, a
// quoted reply's depth, a URI over a line break; SPEC revision 5): no
// line end is a boundary. So its ranges are joined as Run's text chunks
// are (extract.Split): Ranges scans the whole file ahead, each range with
// the scanner its reading will use, which starts a little before it, and
// finds where that scanner agrees with the one that has read everything
// before (a candidate both report, or a place where both are quiet). Each
// Range carries, in Text, which of its scanner's candidates are its own:
// from that join to the next range's, which may lie past End (RunRange
// reads on to it) or, inside a <...> that runs over whole ranges, in a
// later range (the ranges between print nothing). The scan ahead judges
// no candidate: on one CPU it costs about what Run at Jobs 1 costs on
// sparse text (200 MB of text, 30,000 URIs: 0.1 to 0.25 s each), half of
// it on text dense with URIs (97 MB, a URI a line: 0.3 to 0.4 s against
// 0.5 to 1.1 s), and Ranges runs it on Jobs workers (doc/design.md, "Ranges").
//
// Any other file (one message, news, HTML, a file of one compressed
// stream, a text without a line end before its last byte) is one range.

// A Range is a piece of one file that RunRange reads apart from the
// rest: bytes Start to End of the file as stored (compressed or not).
type Range struct {
	File       string // the file's name, as Run would be given it
	Start, End int64
	// From is where the range's first message or record is in the
	// file, its number and the offset of its bytes once decoded (so
	// that RunRange numbers what it prints as Run does); the zero
	// Boundary for the range at the file's start.
	From document.Boundary
	// Text is set for a range of a plain-text file read in ranges: where
	// its reading starts (before Start) and which of the candidates it
	// finds are the range's (extract.TextRanges); nil for any other.
	Text *extract.TextRange
}

// Ranges lists the ranges of the file name, whose size bytes r reads, of
// about target bytes each (each range ends at the first boundary, or
// line end for text, target bytes or more past its start), in file
// order: the whole file as one range when it has no boundary past its
// start, when target is 0 or less, or when o asks for something of the
// file as a whole (Quiet, List, MaxCount, Output.Count, Extract.Unique;
// for text, Extract.FoldWidth too).
//
// It reads the whole file (an mbox's lines, a WARC file's record
// headers, all of a gzipped one, which is decoded) but searches none of
// it; a text file's candidates are found, on min(o.Jobs, GOMAXPROCS)
// workers, but none judged or printed. Where the reading fails (a truncated or corrupt gzip member,
// trailing garbage), the last range runs from the last boundary before
// it to the end of the file, and RunRange meets the failure as Run does.
// The error returned is one of r's: the file could not be read.
func Ranges(name string, r io.ReaderAt, size int64, o Options, target int64) ([]Range, error) {
	cur := Range{File: name, End: size}
	if target <= 0 || !rangeable(o) {
		return []Range{cur}, nil
	}
	src := &errorKeeper{r: r}
	head := make([]byte, min(size, document.HeadSize))
	n, _ := src.ReadAt(head, 0)
	if src.err != nil {
		return nil, src.err
	}
	head = head[:n]
	if textRangeable(head, size, o) {
		return textRanges(name, src, size, o, target)
	}
	var out []Range
	docs := document.NewReader(document.Options{Format: o.Format, RequireCompressed: o.RequireCompressed, MaxWindow: o.MaxWindow})
	// The head is read once: a reader of remote storage would take the
	// second reading from offset 0 for a step back, and ask again.
	from := &headFirst{head: head, r: src}
	docs.Boundaries(io.NewSectionReader(from, 0, size), name, func(b document.Boundary) error {
		if b.Offset-cur.Start >= target {
			cur.End = b.Offset
			out = append(out, cur)
			cur = Range{File: name, Start: b.Offset, End: size, From: b}
		}
		return nil
	})
	if src.err != nil {
		return nil, src.err
	}
	return append(out, cur), nil
}

// rangeable tells whether a file may be read in ranges with o: not when
// what is printed depends on the file as a whole (a count, a name, the
// first occurrence, a stop after some URIs).
func rangeable(o Options) bool {
	return !o.Quiet && o.List == ListNone && o.MaxCount < 0 && !o.Output.Count && !o.Extract.Unique
}

// textRangeable tells whether a file of size bytes, whose first bytes
// are head, is read in ranges as text: a plain, uncompressed text file as Run reads
// it (not one that began like a WARC file or an mbox, whose warning is
// the document reader's), with options that Split takes too (FoldWidth
// counts the offsets of the folded text).
func textRangeable(head []byte, size int64, o Options) bool {
	if o.RequireCompressed || o.Extract.FoldWidth || size == 0 {
		return false
	}
	p := document.ProbeHead(head)
	if p.Compression != document.None {
		return false
	}
	switch o.Format {
	case document.Text:
		return true
	case document.Auto:
		return p.Format == document.Text && p.Why == ""
	}
	return false
}

// textRanges lists the ranges of a text file: each ends at the first
// line end target bytes or more past its start, and its reading is
// joined to the ranges around it by a scan of the whole file
// (extract.TextRanges).
func textRanges(name string, r *errorKeeper, size int64, o Options, target int64) ([]Range, error) {
	starts := []int64{0}
	buf := make([]byte, 64<<10)
	for at := target; at < size; {
		n, _ := r.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		if n == 0 {
			break
		}
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			end := at + int64(i) + 1
			if end >= size {
				break
			}
			starts = append(starts, end)
			at = end + target
			continue
		}
		at += int64(n)
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(starts) == 1 {
		return []Range{{File: name, End: size}}, nil
	}
	run := newRun([]string{name}, o)
	workers := min(max(1, o.Jobs), runtime.GOMAXPROCS(0))
	trs, err := extract.TextRanges(r, size, starts, run.opts, workers)
	if err != nil {
		return nil, err
	}
	out := make([]Range, len(starts))
	for i, start := range starts {
		end := size
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		out[i] = Range{File: name, Start: start, End: end, Text: &trs[i]}
	}
	return out, nil
}

// headFirst reads r, but its first len(head) bytes from head.
type headFirst struct {
	head []byte
	r    io.ReaderAt
}

func (h *headFirst) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(h.head)) {
		return h.r.ReadAt(p, off)
	}
	n := copy(p, h.head[off:])
	if n == len(p) {
		return n, nil
	}
	m, err := h.r.ReadAt(p[n:], off+int64(n))
	return n + m, err
}

// errorKeeper keeps the first error of r other than io.EOF: a failure of
// the file, not of its content.
type errorKeeper struct {
	r   io.ReaderAt
	mu  sync.Mutex
	err error
}

func (k *errorKeeper) ReadAt(p []byte, off int64) (int, error) {
	n, err := k.r.ReadAt(p, off)
	if err != nil && err != io.EOF {
		k.mu.Lock()
		if k.err == nil {
			k.err = err
		}
		k.mu.Unlock()
	}
	return n, err
}

// RangeResult is what RunRange ends with: the range's status and counts
// (Files is 1, Bytes the range's), and its messages, held for
// WriteMessages.
type RangeResult struct {
	Result
	Messages RangeMessages
	// ReadErr is the first error of the reader of the file itself (not
	// of its content: a corrupt member is an error of the file, told in
	// Messages as Run tells it): a storage read that failed, which may
	// succeed again. A pipeline retries the range rather than keep its
	// output.
	ReadErr error
}

// RunRange reads the range rg of a file that r reads (the whole file,
// at the offsets of the file) as Run reads those bytes in a run over the
// whole file at Jobs 1: it prints on o.Stdout what Run prints for the
// documents of the range, and returns its messages. A text range is read
// from a little before Start (rg.Text.Base) and up to its join with the
// next range, which may lie past End: it prints the URIs, and warns of
// the candidates skipped for their length, that are its own. o must be the
// options given to Ranges. A Sink is told of the URIs (not of the
// messages, which WriteMessages writes); Progress is called as by Run.
func RunRange(rg Range, r io.ReaderAt, o Options) RangeResult {
	o.Jobs, o.Recursive, o.Follow = 1, false, false
	run := newRun([]string{rg.File}, o)
	run.in.from = rg.From
	src := &errorKeeper{r: r}
	section := io.NewSectionReader(src, rg.Start, rg.End-rg.Start)
	in := inputFile{name: rg.File, open: func() (io.ReadCloser, error) { return io.NopCloser(section), nil }}
	var res RangeResult
	held := &res.Messages
	held.File = run.displayName(rg.File)
	var errs bytes.Buffer
	msgs := &messages{r: run, w: &errs, file: held.File, capture: held.add}
	stdout := bufio.NewWriterSize(stdoutWriter{run}, 64<<10)
	stop := run.startProgress()
	var n int
	var ok bool
	if rg.Text != nil {
		n, ok = run.textRange(run.newWorker(0), rg, src, stdout, msgs)
	} else {
		n, ok = run.input(run.newWorker(0), in, stdout, msgs)
	}
	stdout.Flush()
	stop()
	if err := run.writeErr.Load(); err != nil {
		fmt.Fprintf(&errs, "urix: write error: %v\n", unwrapPathError(*err))
		ok = false
	}
	held.Error = errs.String()
	res.Status = NotFound
	switch {
	case !ok:
		res.Status = Trouble
	case n > 0:
		res.Status = Found
	}
	res.Stats = run.snapshot()
	res.ReadErr = src.err
	return res
}

// textRange reads the text range rg of a file that src reads, as input
// reads a whole input: the range's URIs, as the reading of the whole
// file finds them (extract.NewRangeScanner), printed by the same code.
func (r *run) textRange(wk *worker, rg Range, src io.ReaderAt, w io.Writer, msgs *messages) (int, bool) {
	f := &fileOutput{r: r, out: wk.writer(r, w, rg.File), name: rg.File, wk: wk, msgs: msgs, limit: -1}
	f.w = f.out.Buffer()
	defer f.out.Flush()
	wk.tally.files.Add(1)
	wk.tally.bytes.Add(rg.End - rg.Start)
	err := f.textRange(rg, src)
	wk.tally.found.Add(f.found)
	wk.tally.invalid.Add(f.invalid)
	n := f.out.Count()
	if err != nil {
		f.out.Flush()
		msgs.errorf("%s: %v", r.displayName(rg.File), unwrapPathError(err))
		return n, false
	}
	return n, !f.failed
}

// textRange finds the URIs of the text range rg, as text finds those of
// a whole file; a panic is contained as that of a document.
func (f *fileOutput) textRange(rg Range, src io.ReaderAt) error {
	doc := &document.Document{Origin: document.Origin{File: f.name, Format: document.Text}}
	defer f.containDocument(doc)
	f.from = &doc.Origin
	opts := f.r.opts
	opts.OnSkip = f.skipped
	s := extract.NewRangeScanner(src, *rg.Text, opts)
	for s.Scan() {
		m := s.Match()
		f.found++
		if !m.Valid {
			f.invalid++
		}
		f.write(m, f.from)
		if f.r.stop.Load() {
			return errStopped
		}
	}
	return s.Err()
}

// RangeMessages are the messages of one range about its file. Run
// prints at most five warnings of one cause for a file, and then how many
// more came: a cap over the file, not the range. So a range's warnings
// are held, the first six of each cause in order (all that the file's
// cap may print of them, and the one that passes it) and the count of
// the others, and WriteMessages writes those of a file's ranges together.
// Its fields are exported for a pipeline that carries them between
// machines.
type RangeMessages struct {
	File     string         // the file's name in messages (output.Options.DisplayName)
	Warnings []HeldWarning  // the first warnCap+1 of each cause, in order
	More     map[string]int // by cause, the warnings not held

	held map[string]int // by cause, the warnings held (add)
	// Error is the error that ended the reading of the file, as printed
	// ("urix: FILE: ...\n"); "" when none. The ranges after one that
	// failed print nothing in a run of the whole file.
	Error string
}

// A HeldWarning is a warning of a range, held for the file's cap: its
// cause (its text without its numbers and quoted parts) and its text
// ("FILE: ...").
type HeldWarning struct{ Cause, Text string }

// add holds a warning of the range.
func (m *RangeMessages) add(cause, text string) {
	if m.held == nil {
		m.held = map[string]int{}
	}
	if m.held[cause] <= warnCap {
		m.held[cause]++
		m.Warnings = append(m.Warnings, HeldWarning{cause, text})
		return
	}
	if m.More == nil {
		m.More = map[string]int{}
	}
	m.More[cause]++
}

// WriteMessages writes the messages of the ranges of one file, given in
// the order of Ranges, as Run writes the messages of the whole file:
// the warnings with the file's cap, the error that ended the reading,
// and the counts of the warnings past the cap. It stops at the first
// range with an error, where Run stops reading.
func WriteMessages(w io.Writer, ranges []RangeMessages) error {
	if len(ranges) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	m := &messages{r: &run{}, w: bw, file: ranges[0].File}
	for _, rm := range ranges {
		for _, h := range rm.Warnings {
			m.warn(h.Cause, "%s", h.Text)
		}
		for cause, n := range rm.More {
			m.count[cause] += n
		}
		if rm.Error != "" {
			bw.WriteString(rm.Error)
			break
		}
	}
	m.summary()
	return bw.Flush()
}

// TellMessages tells s of the messages of the ranges of one file, given
// in the order of Ranges, as Run tells a Sink of those of the whole file
// (the file's cap, the error that ended the reading, the counts past the
// cap): the messages WriteMessages writes, each a Message, for a
// pipeline that keeps them apart from their text (the Beam pipeline's
// errors output: its file, its level, its text).
func TellMessages(s Sink, ranges []RangeMessages) {
	if len(ranges) == 0 {
		return
	}
	m := &messages{r: &run{sink: s}, w: io.Discard, file: ranges[0].File}
	for _, rm := range ranges {
		for _, h := range rm.Warnings {
			m.warn(h.Cause, "%s", h.Text)
		}
		for cause, n := range rm.More {
			if m.count == nil { // held warnings come before any More
				break
			}
			m.count[cause] += n
		}
		if rm.Error != "" {
			// Printed as "urix: FILE: TEXT", a line an error.
			for _, line := range strings.Split(strings.TrimSuffix(rm.Error, "\n"), "\n") {
				m.tell(true, strings.TrimPrefix(line, "urix: "), 0)
			}
			break
		}
	}
	m.summary()
}
