package engine

import (
	"bufio"
	"io"
	"os"
	"runtime"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/output"
)

// One large plain-text file is read by several workers at once, a chunk
// each, with the output of one worker (package parallel, Split).

// splitMin is the size of the smallest file read in chunks: smaller ones
// are read whole by one worker. With Tuning.SplitChunk, a file of two
// chunks is read so (tests of the joins).
func (r *run) splitMin() int64 {
	if r.tuning.SplitChunk > 0 {
		return 2 * r.tuning.SplitChunk
	}
	return 32 << 20
}

// splittable tells whether an input, probed as in, may be read in chunks:
// the only input of the run (with several, the workers have whole files
// to read, and chunks only add the joins), a regular, uncompressed
// plain-text file of splitMin bytes or more, read from its start, with
// jobs to spare and nothing asked that needs the text before a chunk.
// Standard input may be one, when it is such a file read from its start
// (urix < FILE; chunks are read from the file's start).
func (r *run) splittable(in inputFile, p probed) bool {
	if !r.splitFiles || r.facts.on() || r.jobs < 2 || r.opts.Unique || r.opts.FoldWidth || r.in.forceZ {
		return false
	}
	if !p.regular || p.pos != 0 || p.size < r.splitMin() {
		return false
	}
	if p.head.Compression != document.None || (in.walked && !r.in.text && p.head.Binary) {
		return false
	}
	switch r.in.docFormat {
	case document.Text:
		return true
	case document.Auto:
		// Text, and not text that began like a WARC file or an mbox:
		// its warning is the document reader's.
		return p.head.Format == document.Text && p.head.Why == ""
	}
	return false
}

// readSplit reads a large file in chunks on r.jobs workers.
func (r *run) readSplit(f *fileOutput, file *os.File, size int64) error {
	f.from = &document.Origin{File: f.name, Format: document.Text}
	s := extract.Split{
		// More workers than CPUs only share them, and each takes its
		// share of the output held (dense 50 MB, --json, on 2 CPUs:
		// -j 8 0.80 s, -j 2 0.55 s).
		Workers:   min(r.jobs, runtime.GOMAXPROCS(0)),
		ChunkSize: r.tuning.SplitChunk,
		Options:   r.opts,
		Format:    output.Deferred{Options: &r.out, File: f.name},
		OnSkip:    f.skipped,
		Progress:  func(n int64) { f.wk.tally.bytes.Add(n) },
	}
	var w io.Writer = f.out.Buffer()
	if r.out.LineBuffered {
		// Split writes the URIs in blocks as each is joined in order;
		// --line-buffered sends each block out as it comes, not when
		// the buffer is full.
		w = flushingWriter{f.out.Buffer()}
	}
	n, err := s.Read(w, file, size)
	f.found += n.Found
	f.invalid += n.Invalid
	f.out.AddCount(int(n.Selected))
	if err != nil && r.writeErr.Load() != nil {
		// Split stopped at the write error, which the run reports
		// (once, as "write error"): not an error of this file.
		return errStopped
	}
	return err
}

// flushingWriter writes through a buffered writer, flushing it after each
// write.
type flushingWriter struct{ w *bufio.Writer }

func (f flushingWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		err = f.w.Flush()
	}
	return n, err
}
