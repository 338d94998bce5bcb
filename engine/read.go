package engine

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// read opens an input and reads its documents (package document: its
// compression undone, a binary file found by -r skipped, the format told
// by its first bytes), printing the URIs of each.
func (r *run) read(f *fileOutput, in inputFile) (opened bool, err error) {
	if in.open != nil {
		return r.readOpened(f, in)
	}
	if in.walked {
		// A regular file (a walk gives no other), read by its
		// descriptor: none of what follows needs an *os.File for it.
		file := &f.wk.walked
		if err := file.open(in.name); err != nil {
			return false, err
		}
		defer file.Close()
		return true, r.readDocuments(f, in, file)
	}
	var file *os.File
	if in.name == "-" {
		stdin, ok := r.stdin.(*os.File)
		if !ok {
			// A reader given to the engine: read as a stream.
			return true, r.readDocuments(f, in, r.stdin)
		}
		file = stdin
	} else {
		if file, err = openInput(in.name); err != nil {
			return false, err
		}
		defer file.Close()
	}
	widenPipe(file)
	p := r.probe(file)
	// Standard input too, when it is a large file (urix < FILE).
	if r.splittable(in, p) {
		f.wk.tally.files.Add(1)
		err := r.readSplit(f, file, p.size)
		// Read to its end, as a stream would be: a shell's group
		// sharing it ({ urix; cat; } < FILE) finds it read.
		file.Seek(p.size, io.SeekStart)
		return true, err
	}
	if r.gzipAhead(p) {
		return true, r.readDocuments(f, in, newRegularFile(file, p.pos, p.size, &f.wk.tally.bytes))
	}
	return true, r.readDocuments(f, in, file)
}

// gzipAhead tells whether an input, probed as p, is read through a reader
// that can also read it at any offset, so that workers decode its gzip
// members (a WARC file as crawlers write it, a member a record) ahead of
// the reading: the only input of the run, a regular gzip file, read with
// -j 2 or more. Only a gzip file: that reader ends at the size the file
// had when it was opened, where a file of /proc (size 0) or a log being
// written goes on.
func (r *run) gzipAhead(p probed) bool {
	return p.regular && p.head.Compression == document.Gzip && r.oneInput && r.aheadWorkers() > 1
}

// probed is what the engine knows of a named input before reading it:
// whether it is a regular file, where it stands and its size, and what
// its first bytes say (document.ProbeHead), read once at where it stands
// (standard input may stand past its start).
type probed struct {
	regular   bool
	pos, size int64
	head      document.Probe
}

// probe probes file. The first bytes are read only when the file is one
// that may be read otherwise than as a stream: a regular file, with
// workers to spare.
func (r *run) probe(file *os.File) probed {
	var p probed
	if r.jobs < 2 || !r.oneInput {
		return p
	}
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return p
	}
	if p.pos, err = file.Seek(0, io.SeekCurrent); err != nil || p.pos > fi.Size() {
		return p
	}
	p.regular, p.size = true, fi.Size()
	head := make([]byte, document.HeadSize)
	n, _ := file.ReadAt(head, p.pos)
	p.head = document.ProbeHead(head[:n])
	return p
}

// readDocuments reads the documents of an opened input.
func (r *run) readDocuments(f *fileOutput, in inputFile, file io.Reader) (err error) {
	f.wk.tally.files.Add(1)
	rd := file
	if _, ok := file.(*regularFile); !ok {
		f.wk.counting = countingReader{r: file, n: &f.wk.tally.bytes}
		f.wk.yielding = yieldingReader{r: &f.wk.counting}
		rd = &f.wk.yielding
	}
	docs := docReaders.Get().(*document.Reader)
	defer func() {
		if p := recover(); p != nil {
			// The format's reader panicked between documents: the input
			// ends here, the run goes on (contain.go); the reader, in a
			// state unknown, is not kept.
			err = panicError(p)
			return
		}
		docReaders.Put(docs)
	}()
	docs.Options = document.Options{
		Format:            r.in.docFormat,
		RequireCompressed: r.in.forceZ,
		MaxWindow:         r.in.maxWindow,
		Workers:           r.decodeWorkers(),
		SkipBinary:        in.walked && !r.in.text,
		AnchorText:        r.out.JSON, // behaviour §10: text, in --json only
		Warn:              f.wk.warnings(r, f),
	}
	if r.messagesInParallel() {
		err = r.readMessages(f, docs, rd)
	} else {
		// A range of the file (RunRange) from its place; the whole
		// file from its start otherwise (the zero Boundary: Read).
		err = docs.ReadRange(rd, f.name, r.in.from, f.document)
	}
	if errors.Is(err, document.ErrBinary) {
		f.msgs.warn("binary", "%s: %v (use -a to read it)", r.displayName(in.name), err)
		return nil
	}
	return err
}

// warnings returns the worker's function that tells f of a warning of
// the document reader.
func (wk *worker) warnings(r *run, f *fileOutput) func(document.Warning) {
	wk.warnTo = f
	if wk.warn == nil {
		wk.warn = func(w document.Warning) {
			if r.held(&w) {
				return
			}
			f := wk.warnTo
			w.File = r.displayName(f.name)
			f.msgs.warn(causeOf(w.Message), "%s", w)
		}
	}
	return wk.warn
}

// aheadWorkers is the number of workers that may decode an input's gzip
// members ahead: more than the CPUs would only share them.
func (r *run) aheadWorkers() int { return min(r.jobs, runtime.GOMAXPROCS(0)) }

// decodeWorkers is document.Options.Workers: those of aheadWorkers for the
// only input; none when several files are read at once, each on a worker
// already.
func (r *run) decodeWorkers() int {
	if !r.oneInput {
		return 0
	}
	return r.aheadWorkers()
}

// attrValue reports what an HTML attribute value that holds a URL gives,
// read as the recipient's browser reads it (behaviour §9): one URI, whole
// (valid, or invalid as a whole, never cut), or, when the value does not
// start with a URI ("javascript:..."), the URIs of its text.
func (f *fileOutput) attrValue(d *document.Document) error {
	if f.wk.ar == nil {
		f.wk.ar = extract.NewAttrReader(f.r.opts)
	}
	kind, m := f.wk.ar.Read(d.Value, d.Base)
	f.from = &d.Origin
	switch kind {
	case extract.AttrText:
		return f.text(strings.NewReader(d.Value), &d.Origin)
	case extract.AttrNone:
		return nil
	}
	f.found++
	if !m.Valid {
		f.invalid++
	}
	f.write(m, &d.Origin)
	if f.limit >= 0 && f.out.Count() >= f.limit {
		return errEnough
	}
	if f.r.stop.Load() {
		return errStopped
	}
	return nil
}

// docReaders keeps document readers, and their buffers, from input to
// input: -r over many small files would otherwise allocate them per file.
var docReaders = sync.Pool{New: func() any { return new(document.Reader) }}
