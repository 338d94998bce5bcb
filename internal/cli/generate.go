package cli

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// generateFlag is ripgrep's --generate: the man page and the shell
// completions, made from the same flag definitions as --help.
func generateFlag() cli.Flag {
	return &cli.StringFlag{
		Name:     "generate",
		Category: "Help",
		Usage:    "print `KIND` and exit: man (the man page, roff), complete-bash, complete-zsh or complete-fish",
	}
}

// generate prints what --generate asks for; it returns done = false when
// the flag is not given.
func generate(c *cli.Context) (done bool, err error) {
	kind := c.String("generate")
	if kind == "" {
		return false, nil
	}
	var out string
	switch kind {
	case "man":
		out, err = manPage(c.App)
	case "complete-bash":
		out = bashCompletion
	case "complete-zsh":
		out = zshCompletion
	case "complete-fish":
		out, err = c.App.ToFishCompletion()
	default:
		return true, cli.Exit(fmt.Sprintf("--generate %q: want man, complete-bash, complete-zsh or complete-fish", kind), exitTrouble)
	}
	if err != nil {
		return true, cli.Exit(fmt.Sprintf("--generate %s: %v", kind, err), exitTrouble)
	}
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	if _, err = fmt.Fprint(c.App.Writer, out); err != nil {
		return true, errWritten
	}
	return true, nil
}

// The bash and zsh completions ask urix itself for the words that may
// follow (urfave/cli's --generate-bash-completion), so they list the
// flags and commands of the binary that is installed.
const bashCompletion = `# bash completion for urix: urix --generate complete-bash > /etc/bash_completion.d/urix
_urix_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  if [[ "$cur" == -* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
    COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
    COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
  fi
  return 0
}
complete -o bashdefault -o default -F _urix_complete urix`

const zshCompletion = `#compdef urix
# zsh completion for urix: urix --generate complete-zsh > "${fpath[1]}/_urix"
_urix() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _urix urix`
