//go:build !urfave_cli_no_docs

package main

import "github.com/urfave/cli/v2"

func manPage(app *cli.App) (string, error) { return app.ToMan() }
