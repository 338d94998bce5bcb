package engine

import (
	"fmt"

	"github.com/urix-dev/urix/document"
)

// A panic while one document is read (a bug of urix's that some input
// meets, or a Sink's) is contained to that document (behaviour §7.7):
// its remaining text is not read, the input's error says so, and the
// documents after it, the other inputs and the run go on. Where the
// document reader itself panics, between documents, the input ends
// there, as at a read error. Without this, one bad record among a
// crawl's billions ended the CLI's run and failed the Beam job's bundle
// on every retry.

// heldError is the cause under which a worker that reads messages for
// an input (mbox.go) holds an error until the message's turn: it is then
// the input's error, not a warning.
const heldError = "\x00error"

// containDocument, deferred by the reading of document d, reports a panic
// of that reading as an error of the input and lets the input go on.
func (f *fileOutput) containDocument(d *document.Document) {
	p := recover()
	if p == nil {
		return
	}
	// The scanner and the attribute reader stopped half way: the next
	// document gets new ones.
	f.wk.sc, f.wk.ar = nil, nil
	f.failed = true
	text := fmt.Sprintf("%s: internal error reading the document%s: %v (the rest of it was not read; please report this)",
		f.r.displayName(f.name), d.Where(), p)
	if f.msgs.capture != nil {
		f.msgs.capture(heldError, text)
		return
	}
	f.msgs.errorf("%s", text)
}

// panicError is the error with which an input ends when the reading of
// its format panics between documents.
func panicError(p any) error {
	return fmt.Errorf("internal error reading the input: %v (the rest of it was not read; please report this)", p)
}
