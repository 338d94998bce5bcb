package engine

// The inputs of a run: the input flags, the -r walk, and the reading of
// each input by a worker (cmd_input.go says how an input is read in its
// format).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"

	"github.com/urix-dev/urix/document"
)

// inputConfig says how inputs are found and read.
type inputConfig struct {
	recursive bool
	follow    bool
	text      bool
	include   []string
	exclude   []string
	forceZ    bool
	docFormat document.Format
	maxWindow int64
	// opened are the inputs of RunInputs, in place of names.
	opened []Input
	// from is where the input read starts in its file (RunRange).
	from document.Boundary
}

// inputFile is one input: a file name, or "-" for standard input.
type inputFile struct {
	name string
	// walked: found by -r in a directory rather than named; binary ones
	// are skipped.
	walked bool
	// failure, when set, is not an input but an error of the walk, told
	// in its place among the inputs (stderr in the same order at any -j).
	failure string
	// open, when set, opens the input (RunInputs).
	open func() (io.ReadCloser, error)
}

// list gives each input in order; the directories of a -r walk are
// expanded, and what could not be listed is given as a failure in its
// place. It stops when emit returns false.
func (in *inputConfig) list(args []string, emit func(int, inputFile) bool) {
	i := 0
	next := func(f inputFile) bool {
		ok := emit(i, f)
		i++
		return ok
	}
	for k, a := range args {
		if in.opened != nil {
			if !next(inputFile{name: a, open: in.opened[k].Open, walked: in.opened[k].Walked}) {
				return
			}
			continue
		}
		if a == "-" || !in.recursive {
			if !next(inputFile{name: a}) {
				return
			}
			continue
		}
		if fi, err := os.Stat(a); err != nil || !fi.IsDir() {
			if !next(inputFile{name: a}) {
				return
			}
			continue
		}
		opts := document.WalkFilesOptions{Follow: in.follow, Include: in.include, Exclude: in.exclude}
		stopped := false
		err := document.WalkFiles([]string{a}, opts, func(path string) error {
			if !next(inputFile{name: path, walked: true}) {
				stopped = true
				return filepath.SkipAll
			}
			return nil
		}, func(path string, err error) {
			next(inputFile{name: path, failure: fmt.Sprintf("%s: %v", path, unwrapPathError(err))})
		})
		if err != nil && !stopped {
			next(inputFile{name: a, failure: fmt.Sprintf("%s: %v", a, unwrapPathError(err))})
		}
		if stopped {
			return
		}
	}
}

// input reads one input and prints its URIs to w, its messages to msgs;
// it returns how many it printed (or counted; with -l, 1 when it printed
// the name; with -L, the URIs found, as grep's -L succeeds when a line is
// selected, not when a file is listed) and false when an error was
// reported.
func (r *run) input(wk *worker, in inputFile, w io.Writer, msgs *messages) (int, bool) {
	// The worker's, reused: a Maildir's file allocated one (issue 32).
	f := &wk.file
	*f = fileOutput{r: r, out: wk.writer(r, w, in.name), name: in.name, wk: wk, msgs: msgs, limit: r.maxCount}
	switch {
	case r.quiet || r.list != ListNone:
		f.limit = 1
	case r.maxCount == 0:
		// grep -m 0: nothing to read.
		return 0, true
	}
	f.w = f.out.Buffer()
	if !wk.held {
		defer f.out.Flush()
	}
	opened, err := r.read(f, in)
	if errors.Is(err, errEnough) || errors.Is(err, errStopped) {
		err = nil
	}
	wk.tally.found.Add(f.found)
	wk.tally.invalid.Add(f.invalid)
	n := f.out.Count()
	switch {
	case r.quiet:
	case r.list != ListNone:
		listed := (n > 0) == (r.list == ListWithMatches) && opened && err == nil
		if listed {
			f.w.Write(r.out.AppendFileName(nil, in.name))
			if r.out.Null {
				// grep -lZ: names that may hold line breaks.
				f.w.WriteByte(0)
			} else {
				f.w.WriteByte('\n')
			}
		}
		if r.list == ListWithMatches {
			n = 0
			if listed {
				n = 1
			}
		}
	case r.out.Count && opened:
		f.out.WriteCount()
	}
	if err != nil {
		f.out.Flush()
		msgs.errorf("%s: %v", r.displayName(in.name), unwrapPathError(err))
		return n, false
	}
	return n, !f.failed
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

// regularFile is a regular file read as yieldingReader reads, which can
// also be read at any offset (io.ReaderAt, io.Seeker and Size, as
// document.Options.Workers asks). What it counts for progress is how far
// Read has got in the file: the reader seeks past what workers decoded
// ahead at offsets (their reads are not counted: the bar would pass 100 %).
type regularFile struct {
	yieldingReader
	pos *positionCounter
}

// positionCounter reads a section of a file and adds to n the bytes by
// which the furthest offset read has moved.
type positionCounter struct {
	section *io.SectionReader
	n       *atomic.Int64
	reached int64
}

func (c *positionCounter) Read(p []byte) (int, error) {
	k, err := c.section.Read(p)
	if at, _ := c.section.Seek(0, io.SeekCurrent); at > c.reached {
		c.n.Add(at - c.reached)
		c.reached = at
	}
	return k, err
}

// newRegularFile reads file from pos, where it stands (standard input may
// be a file read in part before urix).
func newRegularFile(file *os.File, pos, size int64, n *atomic.Int64) *regularFile {
	c := &positionCounter{section: io.NewSectionReader(file, pos, size-pos), n: n}
	return &regularFile{yieldingReader: yieldingReader{r: c}, pos: c}
}

func (f *regularFile) ReadAt(p []byte, off int64) (int, error) { return f.pos.section.ReadAt(p, off) }

func (f *regularFile) Seek(offset int64, whence int) (int64, error) {
	return f.pos.section.Seek(offset, whence)
}

func (f *regularFile) Size() int64 { return f.pos.section.Size() }

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

// File and Mapped make a yieldingReader of a file a document.FileReader:
// an mbox is then read through a mapping of the file, and the bytes read
// so are counted as those read by Read.
func (y *yieldingReader) File() *os.File {
	if c, ok := y.r.(*countingReader); ok {
		if f, ok := c.r.(*os.File); ok {
			return f
		}
	}
	return nil
}

func (y *yieldingReader) Mapped(n int64) {
	if c, ok := y.r.(*countingReader); ok {
		c.n.Add(n)
	}
}

func (y *yieldingReader) Read(p []byte) (int, error) {
	n, err := y.r.Read(p)
	if y.since += n; y.since >= yieldEvery {
		y.since = 0
		runtime.Gosched()
	}
	return n, err
}
