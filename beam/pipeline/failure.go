package pipeline

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"syscall"

	"cloud.google.com/go/storage"
	"google.golang.org/api/googleapi"
)

// Failures stay with their file (issue 34). What is wrong with a file
// itself, now and on every retry (it is missing, unreadable, a
// directory, a dangling link; its data is corrupt or hostile), is a line
// of the errors output, as the CLI says it, and the job goes on, to exit
// with status 2. What may be the storage's moment (a read that fails
// half way, a listing, a 503) is returned from the DoFn: the runner
// drops what the failed attempt emitted and retries the bundle, so the
// file's results are in the output once, from the attempt that read it
// all.

// permanent marks an error that a retry would meet again: a data error
// of the reading (a corrupt stream, a bad format), or a path that names
// no filesystem.
type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// transient tells whether an error of opening or reading a file may go
// away on a retry.
func transient(err error) bool {
	if err == nil || errors.As(err, new(permanent)) {
		return false
	}
	for _, p := range []error{
		fs.ErrNotExist, fs.ErrPermission, syscall.EISDIR, syscall.ENOTDIR,
		syscall.ELOOP, syscall.ENAMETOOLONG, storage.ErrObjectNotExist,
	} {
		if errors.Is(err, p) {
			return false
		}
	}
	var gerr *googleapi.Error
	if errors.As(err, &gerr) {
		return retriedStatus(gerr.Code)
	}
	// S3's errors (smithy-go's ResponseError) say their HTTP status so.
	var herr interface{ HTTPStatusCode() int }
	if errors.As(err, &herr) && herr.HTTPStatusCode() != 0 {
		return retriedStatus(herr.HTTPStatusCode())
	}
	return true
}

// retriedStatus tells the HTTP statuses worth a retry: a timeout, too
// many requests, the server's errors. The other 4xx (403, 404) are the
// file's.
func retriedStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500
}

// storageReader reads a file from its filesystem, keeping the first
// error of the filesystem's reader: an error of the reading that comes
// with one is the storage's, any other is the data's.
type storageReader struct {
	r   io.Reader
	err error
}

func (s *storageReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// cause is the error to judge for err, an error of what read through s:
// the storage's when it failed, else err as permanent.
func (s *storageReader) cause(err error) error {
	if s.err != nil {
		return s.err
	}
	return permanent{err}
}
