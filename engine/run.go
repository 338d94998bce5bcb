package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/internal/quote"
	"github.com/urix-dev/urix/output"
	"github.com/urix-dev/urix/parallel"
)

// run is one Run: its options, and the state its workers share.
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
	list ListMode
	// maxCount: -m, the URIs read of each file at most (-1: no limit).
	maxCount int
	jobs     int
	// splitFiles: one large file may be read in chunks (split.go).
	splitFiles bool
	// oneInput: one file is read, not several at once (the workers of
	// -j are free for the gzip members of that one: run.counted).
	oneInput bool
	in       inputConfig
	inputs   []string
	// facts: --print and --embedded (facts.go).
	facts  linkFacts
	tuning Tuning
	// sink is told of what is written (Options.Sink; sink.go).
	sink Sink

	stdin          io.Reader
	stdout, stderr io.Writer

	// stop ends the run early: -q found a URI, or stdout failed.
	stop atomic.Bool
	// quietFound is 1 + the index of the first input in which -q found
	// a URI (0: none yet). The inputs before it are read even once the
	// run is stopped, as one worker reads them before it: their errors
	// are told (grep -q says them too).
	quietFound atomic.Int64
	// writeErr is the first error writing stdout.
	writeErr atomic.Pointer[error]

	// errOut orders the messages of the inputs on stderr (in input
	// order).
	errOut   *parallel.Ordered
	stderrMu sync.Mutex
	stats    runStats

	progress      func(Stats)
	progressEvery time.Duration
}

// runStats are the counts of --stats and of the progress callback.
type runStats struct {
	// own is the run's share of the counts (what no worker of all reads:
	// split chunks, ranges), workers[k] worker k's. Summed when read.
	own     tally
	workers []tally
	quality qualityCounts
}

// tally is one worker's share of the run's counts, written by it alone.
// One set of atomics that the workers of -j 2 all added to passed its
// cache line from CPU to CPU at every file and read, and with it the
// run's options beside it that every URI reads: -r -j 2 over a Maildir
// of 6,013 files, the adds of run.input and countingReader.Read took 2
// ms of CPU more than at -j 1 (perf; issue 32). The padding keeps each
// share on lines of its own.
type tally struct {
	_                            [64]byte
	files, bytes, found, invalid atomic.Int64
	_                            [64]byte
}

// shared is the tally of what no worker of all reads.
func (s *runStats) shared() *tally { return &s.own }

// sum returns the run's counts so far.
func (s *runStats) sum() (files, bytes, found, invalid int64) {
	add := func(t *tally) {
		files += t.files.Load()
		bytes += t.bytes.Load()
		found += t.found.Load()
		invalid += t.invalid.Load()
	}
	add(&s.own)
	for i := range s.workers {
		add(&s.workers[i])
	}
	return
}

// stdoutWriter is the run's output: the first write error is kept, and
// stops the run (grep: "write error", exit 2).
type stdoutWriter struct{ r *run }

func (w stdoutWriter) Write(p []byte) (int, error) {
	n, err := w.r.stdout.Write(p)
	if err != nil {
		w.r.writeErr.CompareAndSwap(nil, &err)
		w.r.stop.Store(true)
	}
	return n, err
}

// stderrWriter is the run's messages, one write at a time.
type stderrWriter struct{ r *run }

func (w stderrWriter) Write(p []byte) (int, error) {
	w.r.stderrMu.Lock()
	defer w.r.stderrMu.Unlock()
	return w.r.stderr.Write(p)
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
	// process reads one input; its output and messages go to stdout and
	// stderr, the writers of slot of out and r.errOut: the input's own
	// at -j 1, its batch's at -j 2 or more.
	process := func(wk *worker, f indexedInput, slot int, stdout, stderr io.Writer) {
		msgs := &wk.msgs
		*msgs = messages{r: r, w: stderr, file: r.displayName(f.input.name)}
		var n int
		ok := true
		switch {
		case f.input.failure != "":
			msgs.errorf("%s", f.input.failure)
			ok = false
		case !r.stop.Load() || r.beforeQuietFound(f.index):
			n, ok = r.input(wk, f.input, stdout, msgs)
		}
		msgs.summary()
		if n > 0 {
			// Stored once: a store at every file passed the flag's
			// line between the workers' CPUs (issue 32).
			if !found.Load() {
				found.Store(true)
			}
			if r.quiet {
				r.setQuietFound(f.index)
				r.stop.Store(true)
				// The messages of the inputs after this one are not
				// said, as one worker does not read them: another
				// worker may have read one already (-q missing f1.txt
				// missing2 at -j 2 said "missing2: no such file" in 22
				// runs of 30).
				r.errOut.Stop(slot)
			}
		}
		if !ok && !trouble.Load() {
			trouble.Store(true)
		}
	}
	if jobs == 1 {
		// One worker reads each input as the walk finds it, on the walk's
		// goroutine: handed over a channel, each small file woke a
		// thread for the walk, blocked on the channel full, and put it to
		// sleep again (-r over 2,863 man pages: 1,343 context switches).
		wk := r.newWorker(1)
		r.in.list(args, func(i int, in inputFile) bool {
			process(wk, indexedInput{i, in}, i, out.Writer(i), r.errOut.Writer(i))
			out.Done(i)
			r.errOut.Done(i)
			return !r.stop.Load()
		})
	} else {
		// Buffered, so that the walk runs ahead of workers through small
		// files instead of waking one for each.
		batches := make(chan inputBatch, batchQueue)
		var wg sync.WaitGroup
		for k := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				wk := r.newWorker(1 + k)
				for b := range batches {
					stdout, stderr := out.Writer(b.slot), r.errOut.Writer(b.slot)
					// Line-buffered output goes out a line at a time, a
					// file's count and name too: not held.
					held := !r.out.LineBuffered
					if held {
						wk.hold(r, stdout)
					}
					for _, f := range b.inputs {
						process(wk, f, b.slot, stdout, stderr)
					}
					if held {
						wk.release()
					}
					out.Done(b.slot)
					r.errOut.Done(b.slot)
				}
			}()
		}
		// The size of a batch is set when it is begun: asked at every
		// input, it read the workers' tallies as they wrote them, and
		// passed their lines to the walk's CPU and back at every file
		// (issue 32).
		size := r.batchSize()
		b := inputBatch{inputs: make([]indexedInput, 0, size)}
		give := func() {
			batches <- b
			size = r.batchSize()
			b = inputBatch{slot: b.slot + 1, inputs: make([]indexedInput, 0, size)}
		}
		r.in.list(args, func(i int, in inputFile) bool {
			b.inputs = append(b.inputs, indexedInput{i, in})
			if len(batches) == 0 || len(b.inputs) >= size {
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
		return Trouble
	}
	switch {
	case r.quiet && found.Load():
		// grep -q: a URI found is success, whatever else went wrong.
		return Found
	case trouble.Load():
		return Trouble
	case found.Load():
		return Found
	}
	return NotFound
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
	files, bytes, _, _ := r.stats.sum()
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
	// What it quotes of the input is capped (quote.Message) here, where
	// every message of an input passes.
	text := quote.Message(fmt.Sprintf(format, args...), m.file)
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
		m.tell(false, text, 0)
	}
}

// errorf prints an error about the input (no cap on their number: there
// is one; what it quotes of the input is capped).
func (m *messages) errorf(format string, args ...any) {
	if !m.r.noMessages {
		text := quote.Message(fmt.Sprintf(format, args...), m.file)
		fmt.Fprintf(m.w, "urix: %s\n", text)
		m.tell(true, text, 0)
	}
}

// summary prints, for each cause that passed the cap, how many of its
// warnings were not printed.
func (m *messages) summary() {
	for _, cause := range m.order {
		more := m.count[cause] - warnCap
		text := fmt.Sprintf("%s: %d more warnings like %q", m.file, more, m.first[cause])
		fmt.Fprintf(m.w, "urix: %s\n", text)
		m.tell(false, text, more)
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

// displayName is the name of an input in messages and file lists:
// standard input is "(standard input)", as grep names it, or --label.
func (r *run) displayName(name string) string { return r.out.DisplayName(name) }

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
	// failed: a document's reading panicked, and its error was told
	// (contain.go); the input is read on, but its status is Trouble.
	failed bool
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

	// What the reading of each input needs, made once a worker: made for
	// each, they were a third of what a Maildir's file of 7.8 KB
	// allocated, 1.6 KB, and -j 2 over 6,013 of them reached the
	// collector's first goal where -j 1 did not (issue 32).
	file     fileOutput
	msgs     messages
	counting countingReader
	yielding yieldingReader
	warn     func(document.Warning) // tells warnTo's messages
	warnTo   *fileOutput
	// tally is the worker's share of the run's counts.
	tally *tally
	// held: the output goes to the batch's writer, flushed at its end
	// (hold).
	held bool
	// The workers of all are made one after the other, and their
	// fields written at every file were on lines shared with the next
	// one's (-r -j 2 over a Maildir: the load of held missed the cache
	// at every file; issue 32).
	_ [128]byte
}

// newWorker returns a worker that counts in the tally of all's worker k
// (0: the run's own).
func (r *run) newWorker(k int) *worker {
	if k < 1 || k > len(r.stats.workers) {
		return &worker{tally: r.stats.shared()}
	}
	return &worker{tally: &r.stats.workers[k-1]}
}

// writer returns the worker's output, set to write the URIs of file to w
// (to the batch's writer, w aside, while the worker holds one).
func (wk *worker) writer(r *run, w io.Writer, file string) *output.Writer {
	if wk.held {
		wk.out.Next(file)
		return wk.out
	}
	if wk.out == nil {
		wk.out = output.NewWriter(w, &r.out)
	}
	wk.out.Reset(w, file)
	return wk.out
}

// hold makes the output of the inputs the worker reads next go to w, one
// after the other in its buffer, until release. Flushed at every input,
// the output of a Maildir's small files took the lock of the order
// (parallel.Ordered) at each file, which the other worker's took too
// (issue 32).
func (wk *worker) hold(r *run, w io.Writer) {
	wk.writer(r, w, "")
	wk.held = true
}

// release writes out what the worker held.
func (wk *worker) release() {
	wk.held = false
	wk.out.Flush()
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
	s := f.wk.scanner(f, body)
	for s.Scan() {
		m := s.Match()
		f.found++
		if !m.Valid {
			f.invalid++
		}
		f.write(m, from)
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

// newRun sets up a run of inputs with o: what the options imply for the
// reading (counts only for -q and -l, one worker for -u, ranges of one
// file only when it is read to its end).
func newRun(inputs []string, o Options) *run {
	r := &run{
		opts:       o.Extract,
		out:        o.Output,
		quiet:      o.Quiet,
		noMessages: o.NoMessages,
		warnings:   o.Warnings,
		list:       o.List,
		maxCount:   max(o.MaxCount, -1),
		in: inputConfig{
			recursive: o.Recursive || o.Follow,
			follow:    o.Follow,
			text:      o.Binary,
			include:   o.Include,
			exclude:   o.Exclude,
			forceZ:    o.RequireCompressed,
			docFormat: o.Format,
			maxWindow: o.MaxWindow,
		},
		facts:         linkFacts{print: o.Print, embedded: o.Embedded},
		tuning:        o.Tuning,
		sink:          o.Sink,
		stdin:         o.Stdin,
		stdout:        orStd(o.Stdout, os.Stdout),
		stderr:        orStd(o.Stderr, os.Stderr),
		progress:      o.Progress,
		progressEvery: o.ProgressEvery,
	}
	if r.stdin == nil {
		r.stdin = os.Stdin
	}
	if len(inputs) == 0 {
		inputs = []string{"-"}
		if r.in.recursive {
			// As grep and ripgrep: -r without a path searches the
			// working directory, and names files relative to it
			// ("sub/a.txt", not "./sub/a.txt").
			inputs = []string{"."}
		}
	}
	r.inputs = inputs
	if r.quiet || r.list != ListNone {
		// Counted, not formatted: only whether a file has one matters.
		r.out.Count, r.out.JSON = true, false
	}
	r.opts.NoLines = !r.out.HasPosition()
	// Each URI is written or counted (output.Writer, or split reading's
	// Formatter) before the next is asked for.
	r.opts.ReuseStrings = true
	if r.facts.print != PrintURI && r.opts.Unique {
		// -u dedups what is printed, the host or domain: the scanner
		// gives every URI.
		r.opts.Unique = false
		r.facts.printed = extract.NewUniqueSet()
	}
	if r.opts.Unique && r.opts.UniqueSet == nil {
		// One set for all the inputs: -u is over the whole run.
		r.opts.UniqueSet = extract.NewUniqueSet()
	}
	r.jobs = o.Jobs
	if r.jobs < 1 || o.Extract.Unique || o.Sink != nil {
		// -u: the first occurrence decides, so files are read in order.
		// A Sink is told of the URIs in the order of the output.
		r.jobs = 1
	}
	r.stats.workers = make([]tally, r.jobs)
	// A file read in chunks is read to its end: -q, -l and -m stop at a
	// URI, so one worker reads it, and stops there.
	r.oneInput = len(inputs) == 1 && !r.in.recursive
	r.splitFiles = r.oneInput && !r.quiet && r.list == ListNone && r.maxCount < 0
	return r
}

// snapshot returns the run's counts so far.
func (r *run) snapshot() Stats {
	files, bytes, found, invalid := r.stats.sum()
	return Stats{
		Files: files, Bytes: bytes, Found: found, Invalid: invalid,
		Quality: r.stats.quality.snapshot(),
	}
}

// startProgress calls the Progress callback every progressEvery until
// the function it returns is called, and once then.
func (r *run) startProgress() (stop func()) {
	if r.progress == nil {
		return func() {}
	}
	every := r.progressEvery
	if every <= 0 {
		every = 200 * time.Millisecond
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				r.progress(r.snapshot())
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		r.progress(r.snapshot())
	}
}
