//go:build !linux

package engine

import "os"

// widenPipe is Linux's only (F_SETPIPE_SZ).
func widenPipe(*os.File) {}
