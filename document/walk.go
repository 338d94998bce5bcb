package document

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// WalkFilesOptions controls WalkFiles.
type WalkFilesOptions struct {
	// Follow makes WalkFiles follow symbolic links met inside the trees (to files
	// and to directories), guarding against loops. Without it such links are
	// skipped. Roots are always followed.
	Follow bool
	// Include, when not empty, keeps only the files whose base name matches
	// one of these globs (path.Match syntax).
	Include []string
	// Exclude drops the files whose base name matches one of these globs, and
	// prunes the directories whose base name does.
	Exclude []string
}

// ErrLoop is reported to onErr (wrapped) for a followed symbolic link that
// leads back to a directory being walked.
var ErrLoop = errors.New("symbolic link loop")

// WalkFiles lists the files under the roots, calling fn for each in a stable
// order: roots in the order given, and under each, depth-first with the
// entries of every directory sorted by name (the order of filepath.WalkDir and
// of ripgrep --sort path). Paths are the root joined with the names below it
// (filepath.Join, so cleaned).
//
// A root that is not a directory (a file, a named pipe, /dev/stdin...) is
// listed as given, globs notwithstanding. Inside the trees only regular files
// are listed; symbolic links are skipped unless opts.Follow is set, and then
// a link to a directory that is already on the current path is reported to
// onErr as ErrLoop and not entered. Include and exclude globs match base
// names (path.Match syntax); an exclude glob that matches a directory's name
// prunes it (roots excepted). A malformed glob makes WalkFiles fail before it
// starts.
//
// Errors on one entry (a root that does not exist, an unreadable directory, a
// dangling link) are reported to onErr, which may be nil, and the walk goes
// on. An error returned by fn stops the walk and is returned, except
// filepath.SkipAll, which stops it and returns nil.
func WalkFiles(roots []string, opts WalkFilesOptions, fn func(path string) error, onErr func(path string, err error)) error {
	for _, g := range append(append([]string(nil), opts.Include...), opts.Exclude...) {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("bad glob %q: %w", g, err)
		}
	}
	if onErr == nil {
		onErr = func(string, error) {}
	}
	w := &walker{opts: opts, fn: fn, onErr: onErr}
	for _, root := range roots {
		fi, err := os.Stat(root)
		if err != nil {
			onErr(root, err)
			continue
		}
		if !fi.IsDir() {
			err = fn(root)
		} else {
			err = w.dir(root, fi, nil)
		}
		if err != nil {
			if errors.Is(err, filepath.SkipAll) {
				return nil
			}
			return err
		}
	}
	return nil
}

type walker struct {
	opts  WalkFilesOptions
	fn    func(string) error
	onErr func(string, error)
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// dir walks the directory at p; ancestors holds the directories on the
// current path (used for loop detection when following links).
func (w *walker) dir(p string, fi fs.FileInfo, ancestors []fs.FileInfo) error {
	if w.opts.Follow {
		for _, a := range ancestors {
			if os.SameFile(a, fi) {
				w.onErr(p, fmt.Errorf("%w: %s is already being walked", ErrLoop, p))
				return nil
			}
		}
		ancestors = append(ancestors, fi)
	}
	entries, err := readDir(p) // sorted by name
	if err != nil {
		w.onErr(p, err)
		if len(entries) == 0 {
			return nil
		}
	}
	for _, e := range entries {
		child, name, typ := e.path, e.name(), e.typ
		var cfi fs.FileInfo
		if typ&fs.ModeSymlink != 0 {
			if !w.opts.Follow {
				continue
			}
			cfi, err = os.Stat(child)
			if err != nil {
				w.onErr(child, err)
				continue
			}
			typ = cfi.Mode().Type()
		}
		if typ.IsDir() {
			if matchAny(w.opts.Exclude, name) {
				continue
			}
			if cfi == nil {
				if cfi, err = os.Lstat(child); err != nil {
					w.onErr(child, err)
					continue
				}
			}
			if err := w.dir(child, cfi, ancestors); err != nil {
				return err
			}
			continue
		}
		if !typ.IsRegular() {
			continue
		}
		if len(w.opts.Include) > 0 && !matchAny(w.opts.Include, name) {
			continue
		}
		if matchAny(w.opts.Exclude, name) {
			continue
		}
		if err := w.fn(child); err != nil {
			return err
		}
	}
	return nil
}
