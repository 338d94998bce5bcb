//go:build !linux

package document

import (
	"os"
	"path/filepath"
)

// readDir returns the entries of the directory dir, sorted by name, with
// their paths (filepath.Join(dir, name)). On an error it returns it with
// the entries read before it, as os.ReadDir does.
func readDir(dir string) ([]dirEntry, error) {
	entries, err := os.ReadDir(dir)
	out := make([]dirEntry, len(entries))
	for i, e := range entries {
		path := filepath.Join(dir, e.Name())
		out[i] = dirEntry{path: path, nameAt: len(path) - len(e.Name()), typ: e.Type()}
	}
	return out, err
}
