//go:build urfave_cli_no_docs

package cli

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func manPage(*cli.App) (string, error) {
	return "", errors.New("this urix was built without the man page writer (-tags urfave_cli_no_docs)")
}
