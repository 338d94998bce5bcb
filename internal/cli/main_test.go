package cli

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/ulikunitz/xz"
	"github.com/urix-dev/urix/engine"
)

// TestMain lets the scripts run urix in-process: testscript re-executes the
// test binary as "urix" and calls Main, with the engine's Tuning read from
// the script's environment (scriptTuning).
func TestMain(m *testing.M) {
	// Under -race each process sleeps a second as it exits, for the
	// reports of other goroutines (the race runtime's atexit_sleep_ms):
	// the scripts run urix hundreds of times, so the race run of this
	// package took 139 s, 5 of them CPU. The children inherit this.
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", raceOptions)
	}
	testscript.Main(m, map[string]func(){"urix": func() {
		tuning = scriptTuning()
		os.Exit(Main())
	}})
}

// scriptTuning reads the engine's Tuning from the environment a script
// sets (env URIX_SPLIT_CHUNK=16): small chunks and message runs make many
// joins and hand-overs on small inputs. The urix binary reads no such
// variable; only this test binary does.
func scriptTuning() engine.Tuning {
	num := func(name string) int64 {
		n, _ := strconv.ParseInt(os.Getenv(name), 10, 64)
		return max(n, 0)
	}
	return engine.Tuning{
		SplitChunk: num("URIX_SPLIT_CHUNK"),
		MessageMax: int(num("URIX_MESSAGE_MAX")),
		MessageRun: int(num("URIX_MESSAGE_RUN")),
	}
}

// raceOptions are the race runtime's options for the processes the
// scripts run: a short wait at exit instead of a second.
const raceOptions = "atexit_sleep_ms=20"

// TestScripts runs the command-line scenarios in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "../../testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("GORACE", os.Getenv("GORACE"))
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"status":     cmdStatus,
			"compress":   cmdCompress,
			"damage":     cmdDamage,
			"repeat":     cmdRepeat,
			"truncate":   cmdTruncate,
			"nul":        cmdNul,
			"gentext":    cmdGenText,
			"genmbox":    cmdGenMbox,
			"genmaildir": cmdGenMaildir,
			"genwarc":    cmdGenWARC,
			"feedslow":   cmdFeedSlow,
			"writeto":    cmdWriteTo,
			"pty":        cmdPty,
			"shrink":     cmdShrink,
			"prefix":     cmdPrefix,
		},
	})
}

// cmdStatus is the script command "status N PROG ARGS...": it runs PROG like
// exec and wants exit status N exactly (exec tells only zero from non-zero,
// and urix's statuses 1 and 2 mean different things).
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdCompress is "compress gzip|gzip-records|zstd|xz SRC DST": DST is SRC
// compressed; with gzip-records, a gzip member for each WARC record, as
// crawlers write WARC files.
func cmdCompress(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: compress gzip|gzip-records|zstd|xz SRC DST")
	}
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	out, err := os.Create(ts.MkAbs(args[2]))
	ts.Check(err)
	defer out.Close()
	if args[0] == "gzip-records" {
		for _, m := range gzipRecords(ts, data) {
			_, err = out.Write(m)
			ts.Check(err)
		}
		return
	}
	var w io.WriteCloser
	switch args[0] {
	case "gzip":
		w = gzip.NewWriter(out)
	case "zstd":
		w, err = zstd.NewWriter(out)
	case "xz":
		w, err = xz.NewWriter(out)
	default:
		ts.Fatalf("compress: unknown format %q", args[0])
	}
	ts.Check(err)
	_, err = w.Write(data)
	ts.Check(err)
	ts.Check(w.Close())
}

// cmdTruncate is "truncate FILE N": FILE keeps its first N bytes.
func cmdTruncate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: truncate FILE N")
	}
	n, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	ts.Check(os.Truncate(ts.MkAbs(args[0]), n))
}

// cmdNul is "nul FILE": each \0 in FILE becomes a NUL byte (txtar
// archives hold text only).
func cmdNul(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: nul FILE")
	}
	name := ts.MkAbs(args[0])
	data, err := os.ReadFile(name)
	ts.Check(err)
	ts.Check(os.WriteFile(name, []byte(strings.ReplaceAll(string(data), `\0`, "\x00")), 0o644))
}

// cmdGenText is "gentext FILE SIZE SEED [sparse|longlines|quoted]": FILE gets
// SIZE bytes of text that is hard to cut: URIs in every delimiter, <...>
// broken across lines and mail quotes, unclosed '<', long candidates, blank
// lines. With "sparse", stretches of up to 40 KB without a URI come between
// them, so that many of a split file's chunks hold none. With "longlines",
// the text has a line break every 2,000 words or so, so that lines run
// across several chunks; "quoted" is that with each line a mail quote
// ("> "), so that a chunk's reader that starts inside a line does not know
// the line's quote depth for a long while.
func cmdGenText(ts *testscript.TestScript, neg bool, args []string) {
	mode := ""
	if len(args) == 4 {
		mode = args[3]
	}
	if neg || len(args) < 3 || len(args) > 4 || mode != "" && mode != "sparse" && mode != "longlines" && mode != "quoted" {
		ts.Fatalf("usage: gentext FILE SIZE SEED [sparse|longlines|quoted]")
	}
	sparse := mode == "sparse"
	longLines := mode == "longlines" || mode == "quoted"
	size, rng := countAndSeed(ts, args)
	words := []string{
		"lorem", "ipsum", "<http://x.example/a", "b>", "(see", "http://p.example/q).",
		`"http://q.example/r"`, "<http://wrap.example/", "  more>", "Note:", "<", ">",
		"http://" + strings.Repeat("y", 300), "e.g.http://eg.example/", "\n", "\n\n",
		"> quoted <http://qq.example/", "\n> cont>", "<URL:", "[http://b.example/]",
		"http://h.example/some-\n  thing>", `"http://split.example/a` + "\n" + `  b"`,
		// Longer than a worker's lead: one URI (or one skipped candidate)
		// that a worker starting inside it would read as many.
		"http://long.example/" + strings.Repeat("ab:http://in.example/", 500),
	}
	var b strings.Builder
	if mode == "quoted" {
		b.WriteString("> ")
	}
	for i := 0; b.Len() < size; i++ {
		if sparse && rng.IntN(40) == 0 {
			for n := rng.IntN(40000); n > 0; n -= 27 {
				b.WriteString("Note: nothing at 10:30 here")
				b.WriteString([]string{" ", "\n", "\n> ", " < "}[rng.IntN(4)])
			}
		}
		if mode == "quoted" {
			// Lines of 6 KB or so, each ending inside a <...> that
			// the next line's quote prefix continues; a URI every
			// 600 bytes or so, so that chunk readers are often quiet
			// past their chunk's start.
			switch {
			case rng.IntN(1000) == 0:
				b.WriteString("<http://qb.example/a\n> b> ")
			case rng.IntN(100) == 0:
				b.WriteString(strings.ReplaceAll(words[rng.IntN(len(words))], "\n", " ") + " ")
			default:
				b.WriteString("lorem ")
			}
			continue
		}
		if rng.IntN(20) == 0 {
			fmt.Fprintf(&b, "http://u%d.example/p ", i)
			continue
		}
		w := words[rng.IntN(len(words))]
		if longLines && rng.IntN(2000) != 0 {
			w = strings.ReplaceAll(w, "\n", " ")
		}
		b.WriteString(w)
		b.WriteByte(' ')
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// countAndSeed reads the N (or SIZE) and SEED of a "genX FILE N SEED"
// command: N, and a generator seeded with SEED.
func countAndSeed(ts *testscript.TestScript, args []string) (int, *rand.Rand) {
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	seed, err := strconv.ParseUint(args[2], 10, 64)
	ts.Check(err)
	return n, rand.New(rand.NewPCG(seed, seed))
}

// cmdGenMbox is "genmbox FILE N SEED": FILE gets an mbox of N messages
// of every kind the mail reader knows, taken at random: plain text,
// quoted-printable, multipart/alternative with a base64 HTML part, List-*
// fields, unknown charsets and a broken base64 part (warnings), candidates
// longer than 300 bytes, long messages (50 KB and more), ">From " lines.
func cmdGenMbox(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: genmbox FILE N SEED")
	}
	n, rng := countAndSeed(ts, args)
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "From sender%d@example.com Mon Jan  1 00:00:%02d 2024\n", i, i%60)
		writeGenMessage(&b, i, rng)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// cmdGenMaildir is "genmaildir DIR N SEED": DIR gets a Maildir of the
// N messages genmbox would write (without their "From " lines), a file
// each in DIR/cur, as mail clients keep them; every 50th has ten
// parts of unknown charsets (more warnings than an input prints).
func cmdGenMaildir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: genmaildir DIR N SEED")
	}
	n, rng := countAndSeed(ts, args)
	for _, sub := range []string{"cur", "new", "tmp"} {
		ts.Check(os.MkdirAll(ts.MkAbs(filepath.Join(args[0], sub)), 0o755))
	}
	for i := 1; i <= n; i++ {
		var b strings.Builder
		if i%50 == 0 {
			fmt.Fprintf(&b, "Message-ID: <w%d@example.com>\nContent-Type: multipart/mixed; boundary=ww\n\n", i)
			for k := range 10 {
				fmt.Fprintf(&b, "--ww\nContent-Type: text/plain; charset=x-none%d\n\nhttp://example.com/w/%d/%d\n", k, i, k)
			}
			b.WriteString("--ww--\n")
		} else {
			writeGenMessage(&b, i, rng)
		}
		name := filepath.Join(args[0], "cur", fmt.Sprintf("%d.M%dP1.host:2,S", 1700000000+i, i))
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte(b.String()), 0o644))
	}
}

// writeGenMessage writes message i of genmbox, without its "From " line.
func writeGenMessage(b *strings.Builder, i int, rng *rand.Rand) {
	fmt.Fprintf(b, "Message-ID: <m%d@example.com>\nSubject: message %d\n", i, i)
	if rng.IntN(3) == 0 {
		fmt.Fprintf(b, "List-Archive: <http://lists.example/arch/%d>\n", i)
	}
	body := fmt.Sprintf("Message %d: see http://example.com/m/%d and <http://example.com/wrapped/\n  %d>.\n>From the top\n", i, i, i)
	switch rng.IntN(8) {
	case 0:
		body += "http://long.example/" + strings.Repeat("x", 400) + "\n"
	case 1:
		body += strings.Repeat("filler line http://fill.example/a\n", 1500)
	}
	switch rng.IntN(5) {
	case 0:
		b.WriteString("Content-Type: text/plain; charset=x-nonesuch\n\n" + body)
	case 1:
		b.WriteString("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n")
		b.WriteString(strings.ReplaceAll(body, "http://example.com/m/", "http://example.com/=\nqp/"))
	case 2:
		html := fmt.Sprintf(`<p>Hi <a href="http://example.com/h/%d?a=1&amp;b=2">link</a> http://example.com/t/%d</p>`, i, i)
		enc := base64.StdEncoding.EncodeToString([]byte(html))
		if rng.IntN(4) == 0 {
			enc = enc[:len(enc)/2] + "!!" + enc[len(enc)/2:]
		}
		b.WriteString("Content-Type: multipart/alternative; boundary=bb\n\n--bb\nContent-Type: text/plain\n\n" + body +
			"--bb\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\n" + enc + "\n--bb--\n")
	default:
		b.WriteString("\n" + body)
	}
	b.WriteString("\n")
}

// cmdGenWARC is "genwarc FILE N SEED [short]": FILE gets a WARC file of N
// conversion records (a warcinfo first), taken at random: short ones,
// long ones (50 KB and more; none with short), ones with a candidate over
// 300 bytes, and now and then a malformed record (a bad Content-Length)
// between them.
func cmdGenWARC(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || len(args) > 4 || len(args) == 4 && args[3] != "short" {
		ts.Fatalf("usage: genwarc FILE N SEED [short]")
	}
	n, rng := countAndSeed(ts, args[:3])
	short := len(args) == 4 // no records of 1,500 lines
	var b strings.Builder
	record := func(typ, target, block string) {
		fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: %s\r\nWARC-Record-ID: <urn:uuid:%08d>\r\n", typ, b.Len())
		if target != "" {
			fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", target)
		}
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	}
	record("warcinfo", "", "software: genwarc\r\n")
	for i := 1; i <= n; i++ {
		block := fmt.Sprintf("Page %d: see http://example.com/p/%d and <http://example.com/wrapped/\n  %d>.\n", i, i, i)
		switch rng.IntN(8) {
		case 0:
			block += "http://long.example/" + strings.Repeat("x", 400) + "\n"
		case 1:
			if !short {
				block += strings.Repeat("filler line http://fill.example/a\n", 1500)
			}
		case 2:
			b.WriteString("WARC/1.0\r\nWARC-Type: conversion\r\nContent-Length: nope\r\n\r\nhttp://lost.example/\r\n\r\n")
		}
		record("conversion", fmt.Sprintf("http://site.example/%d", i), block)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// cmdFeedSlow is "feedslow FIRST MARK REST PROG ARGS...": it runs PROG
// with its stdin a pipe, writes the file FIRST to it, waits until PROG
// has printed MARK (a failure after a minute), then writes the file REST
// and closes the pipe; PROG's stdout is the command's. So a script shows
// that output comes as input does, not at its end, without timing it.
func cmdFeedSlow(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 4 {
		ts.Fatalf("usage: feedslow FIRST MARK REST PROG [ARGS...]")
	}
	first, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	rest, err := os.ReadFile(ts.MkAbs(args[2]))
	ts.Check(err)
	cmd := exec.Command(lookPath(ts, args[3]), args[4:]...)
	cmd.Dir = ts.Getenv("WORK")
	in, err := cmd.StdinPipe()
	ts.Check(err)
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	_, err = in.Write(first)
	ts.Check(err)
	var got strings.Builder
	seen := make(chan bool, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := out.Read(buf)
			got.Write(buf[:n])
			if strings.Contains(got.String(), args[1]) {
				select {
				case seen <- true:
				default:
				}
			}
			if err != nil {
				close(seen)
				return
			}
		}
	}()
	select {
	case ok := <-seen:
		if !ok {
			ts.Fatalf("output ended without %q", args[1])
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		ts.Fatalf("%q not printed before the rest of the input came", args[1])
	}
	_, err = in.Write(rest)
	ts.Check(err)
	in.Close()
	for range seen {
	}
	ts.Check(cmd.Wait())
	fmt.Fprint(ts.Stdout(), got.String())
}

// lookPath finds prog on the script's PATH (where testscript puts urix).
func lookPath(ts *testscript.TestScript, prog string) string {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	ts.Fatalf("%s: not found on PATH", prog)
	return ""
}

// cmdWriteTo is "writeto full|pipe|closed|nullrw N PROG ARGS...": it runs
// PROG with its stdout on /dev/full (every write fails: ENOSPC), on a pipe
// whose reader is gone (EPIPE), closed (sh's >&-), or on /dev/null opened
// for reading and writing (Python's subprocess.DEVNULL), and wants exit
// status N, or death by that signal when N is SIGPIPE; PROG's stderr is
// the command's stderr, for the script to check.
func cmdWriteTo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: writeto full|pipe|closed|nullrw N|SIGPIPE PROG [ARGS...]")
	}
	signalled := args[1] == "SIGPIPE"
	want, err := strconv.Atoi(args[1])
	if !signalled {
		ts.Check(err)
	}
	cmd := scriptCommand(ts, args[2], args[3:], "URIX_SPLIT_CHUNK")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	switch args[0] {
	case "full":
		f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			ts.Logf("no /dev/full: %v", err)
			fmt.Fprint(ts.Stderr(), "urix: write error: no /dev/full here\n")
			return
		}
		defer f.Close()
		cmd.Stdout = f
	case "pipe":
		r, w, err := os.Pipe()
		ts.Check(err)
		r.Close()
		defer w.Close()
		cmd.Stdout = w
	case "nullrw":
		f, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
		ts.Check(err)
		defer f.Close()
		cmd.Stdout = f
	case "closed":
		cmd.Args = append([]string{"sh", "-c", `exec "$0" "$@" >&-`}, cmd.Args...)
		cmd.Path, err = exec.LookPath("sh")
		ts.Check(err)
	default:
		ts.Fatalf("writeto: want full, pipe, closed or nullrw, not %q", args[0])
	}
	err = cmd.Run()
	fmt.Fprint(ts.Stderr(), stderr.String())
	if signalled {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGPIPE {
			ts.Fatalf("writeto: %v, want death by SIGPIPE (stderr %q)", err, stderr.String())
		}
		return
	}
	wantStatus(ts, "writeto", err, want, stderr.String())
}

// wantStatus fails the script unless err, of a command that ran, says
// exit status want (nil: 0).
func wantStatus(ts *testscript.TestScript, name string, err error, want int, stderr string) {
	got := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", name, err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d (stderr %q)", got, want, stderr)
	}
}

// scriptCommand is PROG ARGS run in the script's directory, with the
// script's values of the environment variables named (those it sets).
func scriptCommand(ts *testscript.TestScript, prog string, args []string, env ...string) *exec.Cmd {
	cmd := exec.Command(lookPath(ts, prog), args...)
	cmd.Dir = ts.Getenv("WORK")
	for _, name := range env {
		if v := ts.Getenv(name); v != "" {
			if cmd.Env == nil {
				cmd.Env = os.Environ()
			}
			cmd.Env = append(cmd.Env, name+"="+v)
		}
	}
	return cmd
}

// cmdShrink is "shrink FILE SIZE N PROG ARGS...": it runs PROG with FILE
// on its stdin and its stdout on a pipe, cuts FILE to SIZE bytes as soon
// as the first byte of output comes (PROG, held by the pipe, has read
// little of FILE then), and wants exit status N. What PROG wrote goes to
// the script's stdout and stderr. GOMAXPROCS set in the script is
// PROG's.
func cmdShrink(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 4 {
		ts.Fatalf("usage: shrink FILE SIZE N PROG [ARGS...]")
	}
	size, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	want, err := strconv.Atoi(args[2])
	ts.Check(err)
	cmd := scriptCommand(ts, args[3], args[4:], "GOMAXPROCS")
	in, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer in.Close()
	cmd.Stdin = in
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	var b bytes.Buffer
	first := make([]byte, 1)
	if n, _ := io.ReadFull(out, first); n == 1 {
		b.Write(first)
	}
	ts.Check(os.Truncate(ts.MkAbs(args[0]), size))
	io.Copy(&b, out)
	err = cmd.Wait()
	fmt.Fprint(ts.Stdout(), b.String())
	fmt.Fprint(ts.Stderr(), stderr.String())
	wantStatus(ts, "shrink", err, want, stderr.String())
}

// cmdPrefix is "prefix FILE1 FILE2 MIN": FILE1 (stdout for the last
// command's) holds the first lines of FILE2, MIN bytes or more, its last
// line whole or cut short (a file that shrank as it was read may end in
// the middle of a URI, which is then printed as far as it goes).
func cmdPrefix(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: prefix FILE1 FILE2 MIN")
	}
	a := ts.ReadFile(args[0])
	b := ts.ReadFile(args[1])
	least, err := strconv.Atoi(args[2])
	ts.Check(err)
	whole := a
	if i := strings.LastIndexByte(strings.TrimSuffix(a, "\n"), '\n'); i >= 0 {
		whole = a[:i+1] // all but the last line
	} else {
		whole = ""
	}
	last := strings.TrimSuffix(a[len(whole):], "\n")
	if !strings.HasPrefix(b, whole) || !strings.HasPrefix(b[len(whole):], last) {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		ts.Fatalf("%s is not a prefix of %s: they differ at byte %d of %d", args[0], args[1], i, len(a))
	}
	if len(a) < least {
		ts.Fatalf("%s: %d bytes, want %d or more", args[0], len(a), least)
	}
}

// cmdPty is "pty [-o FILE] [-i FILE] [-s N] OUT PROG ARGS...": it runs
// PROG under script(1) from util-linux, with stdin, stdout and stderr on
// a pseudo-terminal (stdout on FILE with -o; stdin a pipe from FILE with
// -i), wants exit status N (0 without -s), and writes what the terminal
// received to OUT. The script's TERM and GREP_COLORS are PROG's. Scripts
// guard it with [exec:script].
func cmdPty(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: pty [-o FILE] [-i FILE] [-s N] OUT PROG [ARGS...]")
	}
	stdout, stdin, status := "", "", 0
	for len(args) >= 4 && (args[0] == "-o" || args[0] == "-i" || args[0] == "-s") {
		switch args[0] {
		case "-o":
			stdout = args[1]
		case "-i":
			stdin = args[1]
		case "-s":
			n, err := strconv.Atoi(args[1])
			ts.Check(err)
			status = n
		}
		args = args[2:]
	}
	line := shellQuote(lookPath(ts, args[1]))
	if stdin != "" {
		line = "cat " + shellQuote(ts.MkAbs(stdin)) + " | " + line
	}
	for _, a := range args[2:] {
		line += " " + shellQuote(a)
	}
	if stdout != "" {
		line += " >" + shellQuote(ts.MkAbs(stdout))
	}
	cmd := exec.Command("script", "-qefc", line, "/dev/null")
	cmd.Dir = ts.Getenv("WORK")
	cmd.Stdin = strings.NewReader("")
	cmd.Env = os.Environ()
	for _, name := range []string{"TERM", "GREP_COLORS"} {
		cmd.Env = append(cmd.Env, name+"="+ts.Getenv(name))
	}
	out, err := cmd.Output()
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), out, 0o644))
	wantStatus(ts, "pty", err, status, string(out))
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TestGeneratedDocsHaveEveryFlag: the man page and the fish completion
// are made from the flag definitions, and name every flag of urix and of
// its commands.
func TestGeneratedDocsHaveEveryFlag(t *testing.T) {
	app := newApp(osStreams())
	man, err := manPage(app)
	if err != nil {
		t.Skip(err) // built with -tags urfave_cli_no_docs
	}
	fish, err := app.ToFishCompletion()
	if err != nil {
		t.Fatal(err)
	}
	flags := app.Flags
	for _, cmd := range app.Commands {
		flags = append(flags, cmd.Flags...)
	}
	for _, f := range flags {
		name := f.Names()[0]
		if !strings.Contains(man, "--"+name) {
			t.Errorf("man page: no --%s", name)
		}
		if !strings.Contains(fish, "-l "+name) {
			t.Errorf("fish completion: no -l %s", name)
		}
	}
}
