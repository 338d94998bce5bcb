//go:build !linux

package document

// readDir returns the entries of the directory dir, sorted by name, with
// their paths (filepath.Join(dir, name)). On an error it returns it with
// the entries read before it, as os.ReadDir does.
func readDir(dir string) ([]dirEntry, error) { return readDirOS(dir) }
