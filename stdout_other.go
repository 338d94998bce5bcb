//go:build !unix

package main

// stdoutClosedAtStart is false where a closed standard output cannot be
// told from a redirection to the null device.
func stdoutClosedAtStart() bool { return false }
