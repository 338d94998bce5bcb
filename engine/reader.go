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
	opens := make([]func() (io.ReadCloser, error), len(inputs))
	for i, in := range inputs {
		names[i], opens[i] = in.Name, in.Open
	}
	r := newRun(names, o)
	r.in.opens = opens
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
