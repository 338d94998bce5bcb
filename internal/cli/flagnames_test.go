package cli

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// Every flag of the app has its names worked out once (namesOnce), the
// names urfave/cli gives the flag itself; the help lists each flag as the
// flag itself would be listed.
func TestFlagNamesOnce(t *testing.T) {
	app := newApp(osStreams())
	plain := extractFlags()
	if len(app.Flags) != len(plain) {
		t.Fatalf("%d flags, extractFlags has %d", len(app.Flags), len(plain))
	}
	for i, f := range app.Flags {
		switch f.(type) {
		case *cli.BoolFlag, *cli.IntFlag, *cli.StringFlag, *cli.StringSliceFlag, *cli.GenericFlag, *cli.Int64Flag, *cli.UintFlag, *cli.PathFlag:
			t.Errorf("flag %v: names worked out at every call (%T): add its type to namesOnce", f.Names(), f)
		}
		if !slices.Equal(f.Names(), plain[i].Names()) {
			t.Errorf("flag %d: names %v, the flag's own %v", i, f.Names(), plain[i].Names())
		}
		if got, want := f.String(), plain[i].String(); got != want {
			t.Errorf("flag %d: listed as %q, the flag itself as %q", i, got, want)
		}
	}
	// The help, man page and completions are those of the flags unwrapped.
	for _, args := range [][]string{{"urix", "--help"}, {"urix", "--generate", "complete-fish"}, {"urix", "--generate", "man"}} {
		var got, want strings.Builder
		app, unwrapped := newApp(osStreams()), newApp(osStreams())
		unwrapped.Flags = extractFlags()
		app.Writer, unwrapped.Writer = &got, &want
		errGot, errWant := app.Run(args), unwrapped.Run(args)
		if got.String() != want.String() || (errGot == nil) != (errWant == nil) {
			t.Errorf("%v: %d bytes (%v), %d unwrapped (%v)", args[1:], got.Len(), errGot, want.Len(), errWant)
		}
		if got.Len() < 1000 || errGot != nil {
			t.Errorf("%v: %q, %v", args[1:], got.String(), errGot)
		}
	}
}

// With no file and standard input a terminal, urix prints grep's short
// usage and exits 2; a file, "-" or -r is read as asked. The terminal is
// the run's answer (streams), not the test's own standard input.
func TestUsageOnTerminal(t *testing.T) {
	terminal := streams{stdinTerminal: func() bool { return true }, stdoutTerminal: func() bool { return false }}
	empty := t.TempDir() + "/empty.txt"
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args      []string
		usage     bool
		wantState int
	}{
		{[]string{"urix"}, true, exitTrouble},
		{[]string{"urix", "-n", "-c"}, true, exitTrouble},
		{[]string{"urix", "-q", empty}, false, exitNotFound},
		{[]string{"urix", "-r", "-q", t.TempDir()}, false, exitNotFound},
	} {
		var out, errOut strings.Builder
		app := newApp(terminal)
		app.Writer, app.ErrWriter = &out, &errOut
		args, err := normalizeArgs(app, tc.args)
		if err != nil {
			t.Fatal(err)
		}
		status := exitFound
		var ec cli.ExitCoder
		if err := app.Run(args); errors.As(err, &ec) {
			status = ec.ExitCode()
		}
		if got := errOut.String() == shortUsage; got != tc.usage || status != tc.wantState {
			t.Errorf("%v: usage %v (stderr %q), status %d; want usage %v, status %d", tc.args, got, errOut.String(), status, tc.usage, tc.wantState)
		}
	}
}
