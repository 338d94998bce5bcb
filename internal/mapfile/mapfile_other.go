//go:build !linux

package mapfile

import "os"

// Map returns nil here: the caller reads the file.
func Map(*os.File, int64) []byte { return nil }

// Unmap does nothing here.
func Unmap([]byte) {}

// Drop does nothing here.
func Drop([]byte) {}
