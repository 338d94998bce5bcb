package cli

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"github.com/urix-dev/urix/engine"
	"golang.org/x/term"
)

// autoProgressBytes is the input size over which --progress is on by
// default (when stderr is a terminal and stdout is not).
const autoProgressBytes = 256 << 20

// terminal is what the run writes on the process's stdout and stderr,
// with the progress bar, when there is one, kept clear of it.
//
// The bar is on stderr only. When stdout is the same terminal, each write
// of the output first takes the bar off the line (clearBar, under mu), and
// the next tick draws it again below: URIs are never written into the
// bar's line.
//
// The bar is held only through funcs: a *progressbar.ProgressBar in a
// field of terminal, which is in an io.Writer, kept every exported method
// of the bar in the binary (the linker keeps the methods of types that
// reflection could reach, as text/template's may; the bar's
// StartHTTPServer brought net/http and crypto/tls: 13.7 -> 17.3 MB).
type terminal struct {
	mu          sync.Mutex // serializes stderr and the bar
	bar         *barFuncs  // nil: no bar
	clearStdout bool
}

// barFuncs are what the run does with the bar.
type barFuncs struct {
	clear  func()
	set    func(int64)
	finish func()
}

func newTerminal() *terminal { return &terminal{} }

// stdout is where results and the commands' output go.
//
// A standard output closed before the start (urix f >&-) is not an error
// here, as it is in grep: the Go runtime opens /dev/null, read and write,
// in its place (runtime/fds_unix.go), and that cannot be told from the
// /dev/null, read and write, that Python's subprocess.DEVNULL, Node's
// "ignore" (libuv) and systemd's StandardOutput=null give a program. A
// guess that took it for a closed one failed every such run with "write
// error", exit 2; the output of urix f >&- goes nowhere, exit 0.
var stdout io.Writer = os.Stdout

func (t *terminal) stdout() io.Writer { return terminalStdout{t} }
func (t *terminal) stderr() io.Writer { return terminalStderr{t} }

type terminalStdout struct{ t *terminal }

func (w terminalStdout) Write(p []byte) (int, error) {
	if w.t.clearStdout {
		w.t.mu.Lock()
		defer w.t.mu.Unlock()
		w.t.clearBar()
	}
	return stdout.Write(p)
}

type terminalStderr struct{ t *terminal }

func (w terminalStderr) Write(p []byte) (int, error) {
	w.t.mu.Lock()
	defer w.t.mu.Unlock()
	w.t.clearBar()
	return os.Stderr.Write(p)
}

// clearBar takes the bar off the terminal's line (mu held).
func (t *terminal) clearBar() {
	if t.bar != nil {
		t.bar.clear()
	}
}

// progressWanted tells whether to show a progress bar of the bytes read
// on stderr: when --progress asks for it, or by default for a large input.
func progressWanted(c *cli.Context, args []string, recursive bool) bool {
	if c.IsSet("progress") {
		return c.Bool("progress")
	}
	// By default only where it helps and cannot get in the way: a
	// terminal to watch it on, the output going elsewhere, and an input
	// that takes a while (or whose size is unknown).
	total, known := inputSize(args)
	return term.IsTerminal(int(os.Stderr.Fd())) && !term.IsTerminal(int(os.Stdout.Fd())) &&
		(total > autoProgressBytes || !known || recursive)
}

// startBar draws the bar, empty, for the inputs args.
func (t *terminal) startBar(args []string, recursive bool) {
	total, known := inputSize(args)
	if !known || recursive {
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
	t.mu.Lock()
	defer t.mu.Unlock()
	bar.RenderBlank()
	t.bar = &barFuncs{
		clear:  func() { bar.Clear() },
		set:    func(n int64) { bar.Set64(n) },
		finish: func() { bar.Finish(); bar.Clear() },
	}
	t.clearStdout = term.IsTerminal(int(os.Stdout.Fd()))
}

// progress is the engine's Progress callback: the bar shows the bytes
// read so far.
func (t *terminal) progress(s engine.Stats) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.bar != nil {
		t.bar.set(s.Bytes)
	}
}

// stopBar takes the bar down for good.
func (t *terminal) stopBar() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.bar == nil {
		return
	}
	t.bar.finish()
	t.bar, t.clearStdout = nil, false
}

// inputSize adds up the sizes of the inputs; known is false when one of
// them has no size to tell (a pipe, a terminal).
func inputSize(args []string) (total int64, known bool) {
	known = true
	if len(args) == 0 {
		args = []string{"-"}
	}
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
