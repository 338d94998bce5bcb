package cli

// The URI core on the command line (behaviour §8): check, normalize, resolve,
// parse and compare. Each takes its URIs as arguments, or one per line on
// standard input when none is given.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/urix-dev/urix/internal/quote"
	"github.com/urix-dev/urix/uri"
)

// Exit statuses of the core commands.
const (
	coreOK      = 0 // all valid; equivalent
	coreFailed  = 1 // some invalid; not equivalent
	coreTrouble = 2 // bad usage; compare: an invalid operand
)

func coreCommands() []*cli.Command {
	return []*cli.Command{
		checkCommand(),
		normalizeCommand(),
		resolveCommand(),
		parseCommand(),
		compareCommand(),
	}
}

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "exit 0 when every URI is valid (RFC 3986; --iri: RFC 3987), else 1",
		ArgsUsage: "[URI...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "ref", Usage: "accept URI references (RFC 3986 4.1)"},
			&cli.BoolFlag{Name: "iri", Usage: "accept IRIs (RFC 3987)"},
		},
		Action: func(c *cli.Context) error {
			k := checkKind(c.Bool("ref"), c.Bool("iri"))
			return eachInput(c, func(s string) error {
				return uri.Validate(s, k)
			})
		},
	}
}

// checkKind maps check's flags to a grammar; both give IRI-reference.
func checkKind(ref, iri bool) uri.Kind {
	switch {
	case ref && iri:
		return uri.KindIRIRef
	case ref:
		return uri.KindRef
	case iri:
		return uri.KindIRI
	}
	return uri.KindURI
}

func normalizeCommand() *cli.Command {
	return &cli.Command{
		Name:      "normalize",
		Usage:     "print the RFC 3986 6.2.2/6.2.3 normal form of each URI or IRI",
		ArgsUsage: "[URI...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "ascii", Usage: "map IRIs to URIs first (RFC 3987 3.1)"},
		},
		Action: func(c *cli.Context) error {
			ascii := c.Bool("ascii")
			out := bufio.NewWriter(c.App.Writer)
			return flushed(out, eachInput(c, func(s string) error {
				n, err := normalizeArg(s, ascii)
				if err == nil {
					fmt.Fprintln(out, n)
				}
				return err
			}))
		},
	}
}

func normalizeArg(s string, ascii bool) (string, error) {
	if ascii {
		a, err := uri.ToASCII(s)
		if err != nil {
			return "", err
		}
		s = a
	}
	return uri.Normalize(s, uri.KindIRI)
}

func resolveCommand() *cli.Command {
	return &cli.Command{
		Name:      "resolve",
		Usage:     "print the target of each reference against BASE (RFC 3986 5.2)",
		ArgsUsage: "BASE [REF...]",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.Exit("resolve: BASE is required", coreTrouble)
			}
			base := c.Args().First()
			if err := uri.Validate(base, uri.KindIRI); err != nil {
				// Resolution is by the grammar alone (RFC 3986 5.4.2 keeps
				// "http:g"), so only a grammar error stops it here.
				if _, err := uri.Resolve(base, ""); err != nil {
					return cli.Exit(fmt.Sprintf("invalid: %s: %v", quote.Input(base), err), coreTrouble)
				}
			}
			out := bufio.NewWriter(c.App.Writer)
			return flushed(out, eachArg(c, c.Args().Tail(), func(ref string) error {
				t, err := uri.Resolve(base, ref)
				if err == nil {
					fmt.Fprintln(out, t)
				}
				return err
			}))
		},
	}
}

func parseCommand() *cli.Command {
	return &cli.Command{
		Name:      "parse",
		Usage:     "print the components of each URI or IRI as a JSON object",
		ArgsUsage: "[URI...]",
		Action: func(c *cli.Context) error {
			out := bufio.NewWriter(c.App.Writer)
			enc := json.NewEncoder(out)
			enc.SetEscapeHTML(false)
			return flushed(out, eachInput(c, func(s string) error {
				u, err := uri.Parse(s, uri.KindIRIRef)
				if err != nil {
					return err
				}
				return enc.Encode(componentsOf(u))
			}))
		},
	}
}

// components is the JSON form of a parsed URI (behaviour §8): every component as
// written, null when absent; the fields are in the order behaviour §8.4 lists them.
type components struct {
	Scheme   *string `json:"scheme"`
	Userinfo *string `json:"userinfo"`
	Host     *string `json:"host"`
	Port     *string `json:"port"`
	Path     string  `json:"path"`
	Query    *string `json:"query"`
	Fragment *string `json:"fragment"`
}

func componentsOf(u *uri.URI) components {
	present := func(s string, ok bool) *string {
		if !ok {
			return nil
		}
		return &s
	}
	return components{
		Scheme:   present(u.Scheme, u.Scheme != ""),
		Userinfo: present(u.Userinfo, u.HasUserinfo),
		Host:     present(u.Host, u.HasAuthority),
		Port:     present(u.Port, u.HasPort),
		Path:     u.Path,
		Query:    present(u.Query, u.HasQuery),
		Fragment: present(u.Fragment, u.HasFragment),
	}
}

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "exit 0 when A and B are equivalent once normalized, 1 when not, 2 when either is invalid",
		ArgsUsage: "A B",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "explain", Usage: "say on standard error why A and B are not equivalent: the normal form each compares as", DisableDefaultText: true},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return cli.Exit("compare: want two URIs, A and B", coreTrouble)
			}
			a, b := c.Args().Get(0), c.Args().Get(1)
			eq, err := uri.Equivalent(a, b)
			switch {
			case err != nil:
				bad := a
				if uri.Validate(a, uri.KindIRIRef) == nil {
					bad = b
				}
				fmt.Fprintf(c.App.ErrWriter, "invalid: %s: %v\n", quote.Input(bad), err)
				return cli.Exit("", coreTrouble)
			case !eq:
				if c.Bool("explain") {
					fmt.Fprintf(c.App.ErrWriter, "not equivalent:\n  %s\n  %s\n", comparedForm(a), comparedForm(b))
				}
				return cli.Exit("", coreFailed)
			}
			return nil
		},
	}
}

// comparedForm is the form s is compared in: its normal form, in its URI
// form when it has one (behaviour §8).
func comparedForm(s string) string {
	n, err := uri.Normalize(s, uri.KindIRIRef)
	if err != nil {
		return s
	}
	if a, err := uri.ToASCII(n); err == nil {
		if na, err := uri.Normalize(a, uri.KindIRIRef); err == nil {
			return na
		}
	}
	return n
}

// flushed flushes out after a command's work, which returned err; a
// write error (a full disk) is the command's error, exit 2, as for the
// extractor (urixMain says which).
func flushed(out *bufio.Writer, err error) error {
	if ferr := out.Flush(); ferr != nil {
		return errWritten
	}
	return err
}

// eachInput runs fn on every argument, and on every line of standard input
// for "-" or when there is no argument. An error of fn is reported as "invalid: INPUT: REASON"
// on standard error and makes the exit status 1 once all are done.
func eachInput(c *cli.Context, fn func(string) error) error {
	return eachArg(c, c.Args().Slice(), fn)
}

// eachArg is eachInput over args, reading standard input when args is empty.
func eachArg(c *cli.Context, args []string, fn func(string) error) error {
	failed := false
	do := func(s string) error {
		err := fn(s)
		if _, bad := err.(*uri.Error); bad {
			fmt.Fprintf(c.App.ErrWriter, "invalid: %s: %v\n", quote.Input(s), err)
			failed = true
			return nil
		}
		return err
	}
	if len(args) == 0 {
		// No argument: standard input, as "-".
		args = []string{"-"}
	}
	for _, s := range args {
		var err error
		if s == "-" {
			// "-" is standard input, one URI a line, as for the
			// extractor's files ("-" is no URI reference: it needs no
			// quoting, "./-" is the reference).
			err = eachLine(c.App.Reader, do)
		} else {
			err = do(s)
		}
		if err != nil {
			return cli.Exit(err.Error(), coreTrouble)
		}
	}
	if failed {
		return cli.Exit("", coreFailed)
	}
	return nil
}

// eachLine calls fn on every line of r, without its line break (LF or CRLF).
// An empty line is the empty string (the empty reference). Lines may be of
// any length.
func eachLine(r io.Reader, fn func(string) error) error {
	if r == nil {
		r = os.Stdin
	}
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		line = strings.TrimSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\r")
		if ferr := fn(line); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
