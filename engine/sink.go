package engine

import (
	"strings"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// A Sink is told of what a run writes, as it writes it: each URI that its
// output selects, and each message about an input. A layer that keeps
// the results in a form of its own (the Beam pipeline counts schemes,
// hosts, domains and URIs; an indexer) reads them here rather than parse
// the printed output, which the run writes on Stdout and Stderr as
// without a Sink.
//
// With a Sink the run reads its inputs on one worker, one after the
// other (as with Extract.Unique): its calls come from one goroutine, in
// the order of the output.
type Sink interface {
	// URI is called for each URI the output selects (printed, or counted
	// with -c, -l or -q), as printed: with --print host or domain, m.URI
	// is the host or domain. file is the input's name as Run was given
	// it; from is where in the input the URI was found (package
	// document; Format Text and no message or record for plain text).
	// m and from, and the strings they hold (the run reuses their
	// memory), are valid during the call only: strings.Clone what is
	// kept.
	URI(file string, m *extract.Match, from *document.Origin)
	// Message is called for each message about an input, as it is
	// printed on Stderr ("urix: FILE: TEXT"); with NoMessages there is
	// none.
	Message(Message)
}

// A Message is one message about an input.
type Message struct {
	// File is the input's name as the messages give it
	// (output.Options.DisplayName: "(standard input)" for "-").
	File string
	// Text is what is said of it, without "FILE: ".
	Text string
	// Error is set for an error: the input could not be read (to its
	// end), and the run's status is Trouble. Else it is a warning.
	Error bool
	// More is, for the message that ends an input's warnings of one cause
	// past the cap ("N more warnings like ..."), N: the warnings not
	// printed. 0 for the others.
	More int
}

// print writes m, found at at, to the output, and tells the Sink of it
// when the output selects it.
func (f *fileOutput) print(m *extract.Match, at *document.Origin) {
	f.out.Write(m, at)
	if s := f.r.sink; s != nil && f.r.out.Selects(m) {
		s.URI(f.name, m, at)
	}
}

// tell tells the Sink of a message printed about the input: text is as
// printed, after "urix: ".
func (m *messages) tell(isError bool, text string, more int) {
	if s := m.r.sink; s != nil {
		s.Message(Message{File: m.file, Text: strings.TrimPrefix(text, m.file+": "), Error: isError, More: more})
	}
}
