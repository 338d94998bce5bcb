package engine

import (
	"io"
	"runtime"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/parallel"
)

// The messages of one mbox are read on several workers at once
// (document.ReadMessages), their output and messages put back in the
// order of the messages: the output is the one one worker gives, byte for
// byte, and so is stderr.

// messagesInParallel tells whether the messages of an input may be read
// on several workers: as for a file read in chunks (the only input,
// nothing asked that stops at a count), and not with --unique, whose
// first occurrence is the first in the input's order.
func (r *run) messagesInParallel() bool {
	return r.splitFiles && r.jobs >= 2 && runtime.GOMAXPROCS(0) >= 2 && !r.opts.Unique
}

// heldWarning is a warning of a message read by a worker, held until the
// message's turn, when it goes through the input's cap like the others.
type heldWarning struct{ cause, text string }

// messageJob is a run of messages for a worker, read one after the
// other; messageDone what the worker found. A run, not one message: a
// hand-over per message of ~10 KB (a channel send, a wake-up, a place in
// the order) cost a sixth more CPU than one worker (bench's mbox: 20,000
// messages, 2,051 context switches against 482).
type messageJob struct {
	k  int // the run's place in the order
	ms []*document.Message
}

// runBytes is the size at which a run of held messages goes to a worker
// (Tuning.MessageRun sets it, for tests of the order of many small runs).
func (r *run) runBytes() int {
	if r.tuning.MessageRun > 0 {
		return r.tuning.MessageRun
	}
	return 256 << 10
}

type messageDone struct {
	k              int
	found, invalid int64
	count          int
	warns          []heldWarning
	err            error
}

// messageWorker reads messages for one input on a worker of its own,
// keeping its scanner, output buffer and walker from message to message.
type messageWorker struct {
	f     fileOutput
	wk    worker
	docs  document.MessageReader
	warns []heldWarning
}

func newMessageWorker(f *fileOutput) *messageWorker {
	mw := &messageWorker{}
	mw.f = fileOutput{r: f.r, name: f.name, wk: &mw.wk, limit: -1,
		msgs: &messages{r: f.r, file: f.msgs.file, capture: func(cause, text string) {
			mw.warns = append(mw.warns, heldWarning{cause, text})
		}}}
	mw.f.out = mw.wk.writer(f.r, io.Discard, f.name)
	mw.docs.AnchorText = f.r.out.JSON
	mw.docs.Warn = func(w document.Warning) {
		if f.r.held(&w) {
			return
		}
		w.File = f.r.displayName(f.name)
		mw.f.msgs.warn(causeOf(w.Message), "%s", w)
	}
	return mw
}

// read reads one message, its output to out.
func (mw *messageWorker) read(j messageJob, out *parallel.Ordered) messageDone {
	f := &mw.f
	f.out.Reset(out.Writer(j.k), f.name)
	f.found, f.invalid, mw.warns = 0, 0, nil
	var err error
	for _, m := range j.ms {
		if err == nil {
			err = mw.documents(m)
		}
		m.Release()
	}
	f.out.Flush()
	if err != nil {
		// The input ends here (its mapping faulted: the file shrank):
		// the runs after this one, which a worker may have read before,
		// print nothing (behaviour §1.5).
		out.Stop(j.k)
	}
	out.Done(j.k)
	return messageDone{k: j.k, found: f.found, invalid: f.invalid, count: f.out.Count(), warns: mw.warns, err: err}
}

// documents reads the documents of message m. A panic of the mail
// reader, on this worker's goroutine, would end the process: it ends the
// input instead, as on one worker (contain.go).
func (mw *messageWorker) documents(m *document.Message) (err error) {
	defer func() {
		if p := recover(); p != nil {
			mw.docs = document.MessageReader{AnchorText: mw.docs.AnchorText, Warn: mw.docs.Warn}
			err = panicError(p)
		}
	}()
	return mw.docs.Documents(m, mw.f.document)
}

// readMessages reads the documents of an input (docs set up by read) by
// messages: the messages held in memory on the workers, the others (a
// message too long to hold, an input that is no mbox) here, once all
// before it are through.
func (r *run) readMessages(f *fileOutput, docs *document.Reader, rd io.Reader) error {
	workers := min(r.jobs, runtime.GOMAXPROCS(0))
	// Runs given out and not through: enough for the workers never to
	// wait for one, few enough that what they hold (a run, up to 256 KiB
	// and one message of up to 1 MiB, and its output, 64 KiB in memory,
	// the rest in a temporary file) stays small.
	window := 4 * workers
	var dst io.Writer = f.w
	if r.out.LineBuffered {
		// What the workers write goes out as it reaches its turn.
		dst = flushingWriter{f.w}
	}
	out := parallel.NewOrdered(dst)
	jobs := make(chan messageJob, window)
	results := make(chan messageDone, window)
	for range workers {
		go func() {
			mw := newMessageWorker(f)
			for j := range jobs {
				results <- mw.read(j, out)
			}
		}()
	}
	next, through := 0, 0
	pending := map[int]messageDone{}
	var failed error
	// pass takes in what the workers are through with, in order, and
	// waits for one more while wait says so.
	pass := func(wait func() bool) {
		for through < next {
			if d, ok := pending[through]; ok {
				delete(pending, through)
				through++
				f.found += d.found
				f.invalid += d.invalid
				f.out.AddCount(d.count)
				for _, w := range d.warns {
					if w.cause == heldError {
						f.failed = true
						f.msgs.errorf("%s", w.text)
						continue
					}
					f.msgs.warn(w.cause, "%s", w.text)
				}
				if d.err != nil && failed == nil {
					failed = d.err
				}
				continue
			}
			if !wait() {
				select {
				case d := <-results:
					pending[d.k] = d
					continue
				default:
					return
				}
			}
			d := <-results
			pending[d.k] = d
		}
	}
	all := func() bool { return true }
	var inline *document.MessageReader
	var run []*document.Message
	size := 0
	runLimit := r.runBytes()
	if r.out.LineBuffered {
		// Each message's URIs as soon as it is read (a live mailbox, a
		// terminal), not once 256 KiB have come.
		runLimit = 1
	}
	give := func() error {
		if len(run) == 0 {
			return nil
		}
		pass(func() bool { return next-through >= window })
		if failed != nil {
			return failed
		}
		jobs <- messageJob{next, run}
		next++
		run, size = nil, 0
		return nil
	}
	err := docs.ReadMessages(rd, f.name, r.tuning.MessageMax, func(m *document.Message) error {
		if m.Held() {
			run = append(run, m)
			size += m.Size()
			if size >= runLimit {
				return give()
			}
			return nil
		}
		if err := give(); err != nil {
			return err
		}
		pass(all)
		if failed != nil {
			return failed
		}
		if inline == nil {
			inline = &document.MessageReader{Warn: docs.Options.Warn, AnchorText: docs.Options.AnchorText}
		}
		err := inline.Documents(m, f.document)
		m.Release()
		return err
	})
	// The run held when the input fails (a corrupt gzip member, a
	// truncated stream) is read too: one worker would have printed its
	// messages before the error (issue 32).
	if gerr := give(); err == nil {
		err = gerr
	}
	close(jobs)
	pass(all)
	if failed != nil {
		// A message before the input's error failed (its mapping
		// faulted): one worker would have stopped there.
		err = failed
	}
	return err
}

// document finds the URIs of one document of an input; a panic ends that
// document only (contain.go).
func (f *fileOutput) document(d *document.Document) error {
	defer f.containDocument(d)
	if h := f.r.tuning.beforeDocument; h != nil {
		h(d)
	}
	if d.Source == document.SourceHTMLAttr || d.Source == document.SourceHTTPHeader {
		return f.attrValue(d)
	}
	return f.text(d.Body, &d.Origin)
}
