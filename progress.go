package main

import (
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// autoProgressBytes is the input size over which --progress is on by
// default (when stderr is a terminal and stdout is not).
const autoProgressBytes = 256 << 20

// startProgress shows a progress bar of the bytes read on stderr, when
// --progress asks for it or by default for a large input, and returns the
// function that takes it down.
//
// The bar is on stderr only. When stdout is the same terminal, each write
// of the output first takes the bar off the line (clearBar, under
// r.stderr), and the next tick draws it again below: URIs are never
// written into the bar's line.
func (r *run) startProgress(c *cli.Context, args []string) (stop func()) {
	total, known := inputSize(args)
	stdoutTerm := term.IsTerminal(int(os.Stdout.Fd()))
	on := c.Bool("progress")
	if !c.IsSet("progress") {
		// By default only where it helps and cannot get in the way: a
		// terminal to watch it on, the output going elsewhere, and an
		// input that takes a while (or whose size is unknown).
		on = term.IsTerminal(int(os.Stderr.Fd())) && !stdoutTerm &&
			(total > autoProgressBytes || !known || r.in.recursive)
	}
	if !on || r.quiet {
		return func() {}
	}
	if !known || r.in.recursive {
		total = -1 // unknown: bytes and rate, no ETA
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetDescription("urix"),
		// With no total, the bytes read so far (and the rate).
		progressbar.OptionShowCount(),
	)
	// The bar's clock starts at its first drawing; drawn now, the first
	// rate is the bytes of the first tick over the tick's time, not over
	// the microseconds since the first Set (426 GB/s, as it was).
	r.stderr.Lock()
	bar.RenderBlank()
	r.stderr.Unlock()
	r.clearBar = func() { bar.Clear() }
	if stdoutTerm {
		r.clearStdout = true
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				r.stderr.Lock()
				bar.Set64(r.stats.bytes.Load())
				r.stderr.Unlock()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		r.stderr.Lock()
		defer r.stderr.Unlock()
		bar.Finish()
		bar.Clear()
		r.clearBar, r.clearStdout = nil, false
	}
}

// inputSize adds up the sizes of the inputs; known is false when one of
// them has no size to tell (a pipe, a terminal).
func inputSize(args []string) (total int64, known bool) {
	known = true
	for _, a := range args {
		var fi os.FileInfo
		var err error
		if a == "-" {
			fi, err = os.Stdin.Stat()
		} else {
			fi, err = os.Stat(a)
		}
		switch {
		case err != nil:
		case fi.Mode().IsRegular():
			total += fi.Size()
		case a == "-" || fi.Mode()&os.ModeNamedPipe != 0:
			known = false
		}
	}
	return total, known
}
