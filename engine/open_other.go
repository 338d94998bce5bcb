//go:build !unix

package engine

import "os"

func openInput(name string) (*os.File, error) { return os.Open(name) }

// walkedFile is a regular file found by a -r walk (cmd_open_unix.go).
type walkedFile struct{ *os.File }

func (f *walkedFile) open(name string) (err error) {
	f.File, err = os.Open(name)
	return err
}
