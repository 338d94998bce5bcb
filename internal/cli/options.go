package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/urfave/cli/v2"
	"github.com/urix-dev/urix/engine"
)

// ParseOptions maps flags of the urix command line to the options of a
// run by the command line's own mapping (its flags, defaults, checks and
// conflicts, and their messages), for a layer over the engine that takes
// the same flags: the Beam pipeline, whose DoFns carry the flags as
// words and make their options of them on each worker. args are flags
// only, one flag a word with its value after "=" or in the next word
// ("--www", "--hyphen=both", "--scheme", "https"); only the flags named
// (long, without dashes) in allowed may be given. The options are those
// of a run whose output is not a terminal.
func ParseOptions(args, allowed []string) (engine.Options, error) {
	var o engine.Options
	flags := extractFlags()
	app := &cli.App{
		Name:           "urix",
		Flags:          flags,
		HideHelp:       true,
		HideVersion:    true,
		Writer:         io.Discard,
		ErrWriter:      io.Discard,
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   func(_ *cli.Context, err error, _ bool) error { return err },
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("%q: want flags only", c.Args().First())
			}
			for _, f := range flags {
				if c.IsSet(f.Names()[0]) && !slices.Contains(allowed, f.Names()[0]) {
					return fmt.Errorf("%s: not taken here", dashed(f.Names()[0]))
				}
			}
			if err := checkConflicts(c); err != nil {
				return err
			}
			var err error
			o, err = engineOptions(c, noTerminal)
			return err
		},
	}
	if err := app.Run(append([]string{"urix"}, args...)); err != nil {
		// The message alone: a cli.Exit error's status is not the
		// caller's.
		return o, errors.New(err.Error())
	}
	return o, nil
}

// noTerminal is the streams of a run whose input and output are not
// terminals.
var noTerminal = streams{
	stdinTerminal:  func() bool { return false },
	stdoutTerminal: func() bool { return false },
}

// A FlagDoc is what the command line says of one of its flags, for a
// layer that takes the same flag (urix-beam) to say the same.
type FlagDoc struct {
	Name       string // the long name, without dashes
	Usage      string // the help text; a `WORD` in it names the value
	Default    string // the default value as typed; "" for none
	TakesValue bool   // false for a flag that is on or off
}

// FlagDocs returns the FlagDoc of each flag named (long names, without
// dashes), in that order; a name that is no flag is left out.
func FlagDocs(names []string) []FlagDoc {
	flags := extractFlags()
	var docs []FlagDoc
	for _, name := range names {
		for _, f := range flags {
			df, ok := f.(cli.DocGenerationFlag)
			if !ok || f.Names()[0] != name {
				continue
			}
			d := FlagDoc{Name: name, Usage: df.GetUsage(), TakesValue: df.TakesValue()}
			if d.TakesValue {
				d.Default = df.GetValue()
			}
			docs = append(docs, d)
		}
	}
	return docs
}
