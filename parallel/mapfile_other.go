//go:build !linux

package parallel

import "os"

func mapFile(*os.File, int64) []byte { return nil }

func unmapFile([]byte) {}

func dropPages([]byte) {}
