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
	"github.com/urix-dev/urix/output"
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
	// Standard input too, when it is a large file (urix < FILE).
	if size, ok := r.splittable(in, file); ok {
		r.stats.files.Add(1)
		err := r.readSplit(f, file, size)
		// Read to its end, as a stream would be: a shell's group
		// sharing it ({ urix; cat; } < FILE) finds it read.
		file.Seek(size, io.SeekStart)
		return true, err
	}
	return true, r.readDocuments(f, in, file)
}

// readDocuments reads the documents of an opened input.
func (r *run) readDocuments(f *fileOutput, in inputFile, file io.Reader) (err error) {
	r.stats.files.Add(1)
	rd := r.counted(file)
	docs := docReaders.Get().(*document.Reader)
	defer docReaders.Put(docs)
	docs.Options = document.Options{
		Format:            r.in.docFormat,
		RequireCompressed: r.in.forceZ,
		MaxWindow:         r.in.maxWindow,
		Workers:           r.decodeWorkers(),
		SkipBinary:        in.walked && !r.in.text,
		AnchorText:        r.out.JSON, // behaviour §10: text, in --json only
		Warn: func(w document.Warning) {
			if r.held(&w) {
				return
			}
			w.File = r.displayName(f.name)
			f.msgs.warn(causeOf(w.Message), "%s", w)
		},
	}
	if r.messagesInParallel() {
		err = r.readMessages(f, docs, rd)
	} else {
		err = docs.Read(rd, f.name, f.document)
	}
	if errors.Is(err, document.ErrBinary) {
		f.msgs.warn("binary", "%s: %v (use -a to read it)", r.displayName(in.name), err)
		return nil
	}
	return err
}

// counted wraps an input for the progress bar's count of bytes read (and
// yields now and then: yieldingReader). A gzip file that is the only
// input, a regular file read with -j 2 or more, can also be read at any
// offset: workers then decode its members (a WARC file as crawlers write
// it, a member a record) ahead of the reading. Only a gzip file: that
// reader ends at the size the file had when it was opened, where a file
// of /proc (size 0) or a log being written goes on.
func (r *run) counted(rd io.Reader) io.Reader {
	if file, ok := rd.(*os.File); ok && r.oneInput && r.aheadWorkers() > 1 {
		if pos, size, ok := gzipFile(file); ok {
			return newRegularFile(file, pos, size, &r.stats.bytes)
		}
	}
	return &yieldingReader{r: &countingReader{r: rd, n: &r.stats.bytes}}
}

// gzipFile reports whether file is a regular file that starts with the
// gzip magic bytes where it stands (pos), and its size.
func gzipFile(file *os.File) (pos, size int64, ok bool) {
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0, 0, false
	}
	if pos, err = file.Seek(0, io.SeekCurrent); err != nil || pos > fi.Size() {
		return 0, 0, false
	}
	head := make([]byte, document.SniffLen)
	n, _ := file.ReadAt(head, pos)
	return pos, fi.Size(), document.Sniff(head[:n]) == document.Gzip
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
	f.write(m, f.wk.outputOrigin(&d.Origin))
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

// outputOrigin is where a document came from, as the output tells it
// (urix-beam maps it the same way), in the worker's own Mail or WARC:
// valid until its next call, which output.Writer.Write allows (it keeps
// nothing of it). A new one for each document with a URI was an
// allocation for every header field of a message.
func (wk *worker) outputOrigin(o *document.Origin) output.Origin {
	switch {
	case o.Message > 0:
		wk.mail = output.Mail{Message: o.Message, Offset: o.MessageOffset, MessageID: o.MessageID, Field: o.Field, HTML: o.HTML,
			Source: o.Source.String(), Tag: o.Tag, Attr: o.Attr}
		if o.Field == "" {
			wk.mail.Part = o.Part
		}
		return output.Origin{Mail: &wk.mail, Text: o.Text}
	case o.Format == document.WARC:
		wk.warc = output.WARC{Record: o.Record, Offset: o.RecordOffset, TargetURI: o.TargetURI, RecordID: o.RecordID}
		if o.Source != document.SourceBody {
			wk.warc.Source, wk.warc.Tag, wk.warc.Attr = o.Source.String(), o.Tag, o.Attr
		}
		return output.Origin{WARC: &wk.warc, Text: o.Text}
	}
	return output.Origin{}
}
