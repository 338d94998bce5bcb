//go:build !urfave_cli_no_docs

package cli

import "github.com/urfave/cli/v2"

// manPage is the man page in section 1, user commands (urfave/cli's
// ToMan says 8, system administration).
func manPage(app *cli.App) (string, error) { return app.ToManWithSection(1) }
