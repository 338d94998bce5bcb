package main

import (
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// autoProgressBytes is the input size over which --progress is on by
// default (when stderr is a terminal).
const autoProgressBytes = 256 << 20

// startProgress shows a progress bar of the bytes read on stderr, when
// --progress asks for it or by default for a large input on a terminal,
// and returns the function that takes it down.
func (r *run) startProgress(c *cli.Context, args []string) (stop func()) {
	total := namedSize(args)
	on := c.Bool("progress")
	if !c.IsSet("progress") {
		on = term.IsTerminal(int(os.Stderr.Fd())) && (total > autoProgressBytes || r.in.recursive)
	}
	if !on {
		return func() {}
	}
	if r.in.recursive {
		total = -1 // unknown until the walk is over: bytes and rate only
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetDescription("urix"),
	)
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
		bar.Finish()
		bar.Clear()
	}
}

// namedSize adds up the sizes of the named regular files (0 for others).
func namedSize(args []string) int64 {
	var total int64
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	return total
}
