// Package engine runs urix over inputs: it walks directories, opens each
// file, undoes its compression and tells its format once (package
// document), chooses how to read it, runs the workers, keeps the output
// and the messages in input order, caps the warnings, counts the run and
// reports its progress. The command line (internal/cli) and the Beam
// pipeline (module beam) are layers over it: they map the same flags to
// Options by the same code (internal/cli's ParseOptions for the
// pipeline) and call Run, or RunInputs for inputs opened by the caller (a
// Beam filesystem's files), with a Sink told of each URI and message.
//
// The call sequence is
//
//	o := engine.DefaultOptions()
//	o.Stdout, o.Stderr = w, errw
//	o.Output.JSON = true
//	res := engine.Run([]string{"mail.mbox", "notes.txt"}, o)
//	// res.Status is grep's exit status: Found, NotFound or Trouble
//
// Whatever Jobs is, the output and the messages are those of one worker,
// byte for byte (design note: doc/design.md).
//
// # Units of work
//
// A worker reads a whole input, or a batch of small ones, or a piece of
// one large input: a plain-text file in chunks (extract.Split, whose
// joins make the chunks read as one), an mbox in runs of messages and a
// WARC file in runs of records (document.Reader.ReadMessages), a gzip
// file of many members by its members (document's gzip reader). Each
// piece takes one place in the run's output order. doc/design.md says
// how each is chosen and what bounds its memory.
//
// For a pipeline that reads one large file on several machines, Ranges
// lists the pieces of a file that read alone (at mbox messages, WARC
// records, gzip members that start at one; a text file at line ends,
// with the joins of Split found ahead) and RunRange reads one; in order,
// their outputs are Run's on the whole file (ranges.go).
package engine

import (
	"io"
	"os"
	"runtime"
	"time"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/output"
)

// Exit statuses of a run, as grep has them.
const (
	Found    = 0 // something was printed (or -q found a URI)
	NotFound = 1 // nothing was
	Trouble  = 2 // an input could not be read, or the output failed
)

// ListMode says whether a run lists the names of its inputs instead of
// their URIs (grep's -l and -L).
type ListMode int

// The list modes.
const (
	ListNone         ListMode = iota // print the URIs
	ListWithMatches                  // -l: the names of inputs with a URI
	ListWithoutMatch                 // -L: the names of inputs without one
)

// PrintWhat is what the run prints of each URI (--print, behaviour §10).
type PrintWhat int

// What a run prints of each URI.
const (
	PrintURI    PrintWhat = iota // the URI
	PrintHost                    // its host as a browser connects to it
	PrintDomain                  // its registrable domain
)

// Options say what a run finds, what it prints of it, and how it reads.
// DefaultOptions gives those of urix with no flag.
type Options struct {
	// Extract says what to find (package extract). With Unique, the run
	// keeps one set for all its inputs, and reads them on one worker:
	// the first occurrence decides.
	Extract extract.Options
	// Output says what to print of each URI (package output).
	Output output.Options

	// Format is the format of every input (document.Auto: told by its
	// first bytes).
	Format document.Format
	// Recursive reads the directories among the inputs (-r); Follow
	// follows symbolic links while walking them (-R).
	Recursive, Follow bool
	// Binary reads the binary files a walk finds (-a); they are skipped
	// with a warning otherwise.
	Binary bool
	// Include and Exclude are the globs of the names a walk reads and
	// skips (document.WalkFilesOptions).
	Include, Exclude []string
	// RequireCompressed refuses an input that is not compressed (-z).
	RequireCompressed bool
	// MaxWindow is the largest decoding window an xz or zstd input may
	// declare (0: document's default).
	MaxWindow int64

	// Jobs is the number of workers (less than 1: one).
	Jobs int
	// Quiet prints nothing and stops at the first URI found (-q).
	Quiet bool
	// NoMessages prints no message about the inputs (-s).
	NoMessages bool
	// Warnings prints each data-quality warning of mail, which are
	// counted in Stats.Quality otherwise.
	Warnings bool
	// List prints the names of inputs instead of their URIs.
	List ListMode
	// MaxCount stops reading an input after that many URIs (-m);
	// negative: no limit.
	MaxCount int
	// Print and Embedded are the link facts of behaviour §10.
	Print    PrintWhat
	Embedded bool

	// Stdin is the input named "-" (nil: os.Stdin). Stdout takes the
	// results and Stderr the messages (nil: the process's).
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Progress, when set, is called with the run's counts every
	// ProgressEvery (200 ms when 0) while it runs, from a goroutine of
	// its own, and once at the end.
	Progress      func(Stats)
	ProgressEvery time.Duration

	// Sink, when set, is told of each URI written and each message as
	// they are (sink.go); the run then reads on one worker.
	Sink Sink

	// Tuning is for tests of the joins and hand-overs between workers;
	// its zero value is what a run should use.
	Tuning Tuning
}

// Tuning sets sizes that tests make small, to exercise many joins on
// small inputs. Zero fields take the engine's defaults.
type Tuning struct {
	// SplitChunk is the size of the chunks of a plain-text file read on
	// several workers; a file of two chunks or more is read so (default:
	// extract.Split's chunk size, for files of 32 MiB or more).
	SplitChunk int64
	// MessageMax is the size of the longest mbox message held in memory
	// for a worker (default document.DefaultMaxMessage); a longer one is
	// read as it streams.
	MessageMax int
	// MessageRun is the size at which a run of held messages goes to a
	// worker (default 256 KiB).
	MessageRun int
	// beforeDocument, when set, is called as each document's reading
	// starts (the package's tests make it panic: contain_test.go).
	beforeDocument func(*document.Document)
}

// DefaultOptions are the options of urix run with no flag: one worker a
// CPU, no count limit, the format told by each input.
func DefaultOptions() Options {
	return Options{
		Extract:   extract.Options{MaxLength: 64 << 10},
		Format:    document.Auto,
		MaxWindow: 128 << 20,
		Jobs:      runtime.NumCPU(),
		MaxCount:  -1,
	}
}

// Stats are the counts of a run.
type Stats struct {
	Files, Bytes   int64 // inputs read, and their bytes (as read: compressed)
	Found, Invalid int64 // URIs found, and how many of them were invalid
	// Quality counts the data-quality warnings of mail that were not
	// printed, by cause ("missing boundary", "unknown charset label",
	// "8-bit header bytes", "bad encoded word"); nil when none.
	Quality map[string]int
}

// Result is what a run ends with.
type Result struct {
	Status int // Found, NotFound or Trouble
	Stats  Stats
}

// Run reads inputs (file names; "-" is Stdin; directories with Recursive)
// as o says, printing their URIs on o.Stdout and messages on o.Stderr.
// With no inputs it reads Stdin, or the working directory with Recursive.
func Run(inputs []string, o Options) Result {
	r := newRun(inputs, o)
	stop := r.startProgress()
	status := r.all(r.inputs, r.jobs)
	stop()
	return Result{Status: status, Stats: r.snapshot()}
}

// orStd is w, or the process's file when w is nil.
func orStd(w io.Writer, f *os.File) io.Writer {
	if w == nil {
		return f
	}
	return w
}
