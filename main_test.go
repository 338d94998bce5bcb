package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run urix in-process: testscript re-executes the
// test binary as "urix" and calls urixMain.
func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{"urix": urixMain}))
}

// TestScripts runs the command-line scenarios in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus},
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
