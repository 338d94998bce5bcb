package engine

import "io"

// An Input is an input that the engine opens through a function rather
// than by its path: a file of another filesystem (a Beam worker's, an
// object store's), a network stream, a buffer.
type Input struct {
	// Name is the input's name in the output and the messages.
	Name string
	// Open opens it. The engine calls it when the input's turn comes and
	// closes what it returns once the input is read; an error is the
	// input's, told as that of a file that cannot be opened
	// ("urix: NAME: ERROR", status Trouble) before the next input is read.
	Open func() (io.ReadCloser, error)
	// Walked marks an input found by a walk of directories, not named
	// (the Beam pipeline's "dir/**"): read as -r reads what it finds,
	// a binary one skipped with a warning unless Options.Binary.
	Walked bool
}

// RunInputs reads inputs as Run reads the files named on its command
// line: each is one input (there is no walk of directories: Recursive
// and Follow are not used), read as a stream, its format and compression
// told by its first bytes, in order. With no inputs it reads nothing.
func RunInputs(inputs []Input, o Options) Result {
	if len(inputs) == 0 {
		return Result{Status: NotFound}
	}
	o.Recursive, o.Follow = false, false
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = in.Name
	}
	r := newRun(names, o)
	r.in.opened = inputs
	stop := r.startProgress()
	status := r.all(r.inputs, r.jobs)
	stop()
	return Result{Status: status, Stats: r.snapshot()}
}

// readOpened reads an input that Open opens (RunInputs).
func (r *run) readOpened(f *fileOutput, in inputFile) (opened bool, err error) {
	rc, err := in.open()
	if err != nil {
		return false, err
	}
	defer rc.Close()
	return true, r.readDocuments(f, in, rc)
}
