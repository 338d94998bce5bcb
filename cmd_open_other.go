//go:build !unix

package main

import "os"

func openInput(name string) (*os.File, error) { return os.Open(name) }
