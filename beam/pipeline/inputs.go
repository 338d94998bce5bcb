package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/klauspost/compress/gzip"
	"github.com/urix-dev/urix/document"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*inputPath)(nil)).Elem())
	register.DoFn4x1[context.Context, string, func(inputPath), func(string), error](&matchFn{})
	register.DoFn4x1[context.Context, string, func(inputPath), func(string), error](&listFn{})
	register.Emitter1[inputPath]()
}

// An inputPath is a file to read, and whether a walk found it (a "**"
// of a pattern): read as the CLI's -r reads what it finds, a binary file
// skipped (engine.Input.Walked).
type inputPath struct {
	Path   string
	Walked bool
}

// The inputs of a job: the files its patterns match (Config.Inputs) and
// the paths its lists give (Config.InputLists), each a path that the
// search opens. Nothing here opens an input: a path that names nothing
// readable (vanished since, a dangling link, a directory) is the
// search's to report, as the CLI reports a file named on its command
// line, with the CLI's words; the job goes on.

// inputs returns the paths of c's inputs and the messages of the listing
// (a directory of a ** walk that cannot be read).
func inputs(s beam.Scope, c Config) (paths, msgs beam.PCollection) {
	var all, told []beam.PCollection
	if len(c.Inputs) > 0 {
		p, m := beam.ParDo2(s, &matchFn{Flags: c.Flags}, beam.CreateList(s, c.Inputs))
		all, told = append(all, p), append(told, m)
	}
	if len(c.InputLists) > 0 {
		p, m := beam.ParDo2(s, &listFn{Prefix: c.InputPrefix}, beam.CreateList(s, c.InputLists))
		all, told = append(all, p), append(told, m)
	}
	return beam.Flatten(s, all...), beam.Flatten(s, told...)
}

// checkPatterns tells a malformed pattern before the job runs.
func checkPatterns(patterns []string) error {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("--input %q: %v", p, err)
		}
	}
	return nil
}

// matchFn lists the paths a pattern matches. A local pattern is globbed
// here: each "*", "?" and "[...]" within one name, "**" as a name for
// any number of directories (none included), the files of a ** in the
// order of the CLI's -r walk (names sorted, depth first; regular files
// only, symbolic links not followed: document.WalkFiles); the others,
// as filepath.Glob, in sorted order, whatever they name. A pattern of
// another filesystem is listed by it (gs://, s3://: their wildcards). A
// pattern without a wildcard is a path, given on whether or not it
// names a file. The walk of a ** takes the CLI's flags of the -r walk:
// --include, --exclude, --dereference-recursive (-R: symbolic links
// followed).
type matchFn struct {
	// Flags are the CLI's flags, as words (Config.Flags).
	Flags []string

	walk document.WalkFilesOptions
}

func (f *matchFn) Setup() error {
	o, err := engineOptions(f.Flags)
	f.walk = document.WalkFilesOptions{Follow: o.Follow, Include: o.Include, Exclude: o.Exclude}
	return err
}

func (f *matchFn) ProcessElement(ctx context.Context, pattern string, emitPath func(inputPath), emitMsg func(string)) error {
	if !hasMeta(pattern) {
		emitPath(inputPath{Path: pattern})
		return nil
	}
	if isLocal(pattern) {
		matches, err := globLocal(pattern, f.walk, func(file string, err error) {
			fileErrors.Inc(ctx, 1)
			emitMsg(encodeMessage(file, "error", unwrapPathError(err).Error()))
		})
		walked := slices.Contains(strings.Split(filepath.ToSlash(pattern), "/"), "**")
		for _, m := range matches {
			emitPath(inputPath{Path: m, Walked: walked})
		}
		return err
	}
	fsys, err := filesystem.New(ctx, pattern)
	if err != nil {
		return err
	}
	defer fsys.Close()
	// A listing that fails may be the storage's moment: returned, the
	// runner retries it.
	matches, err := fsys.List(ctx, pattern)
	if err != nil {
		return fmt.Errorf("listing %s: %w", pattern, err)
	}
	slices.Sort(matches)
	for _, m := range matches {
		emitPath(inputPath{Path: m})
	}
	return nil
}

func hasMeta(pattern string) bool { return strings.ContainsAny(pattern, `*?[`) }

// isLocal tells a path of the local filesystem: one without a scheme
// (Beam's filesystems are chosen by "SCHEME://").
func isLocal(p string) bool { return !strings.Contains(p, "://") }

// globLocal lists the local files that pattern matches; what a ** walk
// cannot read is told to onErr, and the walk goes on. walk is the -r
// walk's options (its Include and Exclude globs match base names).
func globLocal(pattern string, walk document.WalkFilesOptions, onErr func(string, error)) ([]string, error) {
	segs := strings.Split(filepath.ToSlash(pattern), "/")
	star := slices.Index(segs, "**")
	if star < 0 {
		return filepath.Glob(pattern)
	}
	// The directories before the first wildcard are the walk's root.
	root := 0
	for root < star && !hasMeta(segs[root]) {
		root++
	}
	base := filepath.FromSlash(strings.Join(segs[:root], "/"))
	switch {
	case root == 0:
		base = "."
	case base == "":
		base = "/"
	}
	rest := segs[root:]
	var out []string
	err := document.WalkFiles([]string{base}, walk, func(p string) error {
		rel, err := filepath.Rel(base, p)
		if err != nil {
			return err
		}
		relSegs := strings.Split(filepath.ToSlash(rel), "/")
		if ok, err := matchSegments(rest, relSegs); err != nil {
			return err
		} else if ok {
			out = append(out, p)
		}
		return nil
	}, onErr)
	return out, err
}

// matchSegments tells whether the names of a path match the pattern's,
// each by path.Match but "**", which matches any number of names.
func matchSegments(pattern, names []string) (bool, error) {
	for len(pattern) > 0 {
		if pattern[0] == "**" {
			for len(pattern) > 1 && pattern[1] == "**" {
				pattern = pattern[1:] // "**/**" is "**": tried once, not n² times
			}
			for skip := 0; skip <= len(names); skip++ {
				if ok, err := matchSegments(pattern[1:], names[skip:]); ok || err != nil {
					return ok, err
				}
			}
			return false, nil
		}
		if len(names) == 0 {
			return false, nil
		}
		if ok, err := path.Match(pattern[0], names[0]); !ok || err != nil {
			return false, err
		}
		pattern, names = pattern[1:], names[1:]
	}
	return len(names) == 0, nil
}

// unwrapPathError drops the "open NAME:" that the file name before the
// message already says, as the CLI does.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// listFn gives the paths of an input list: one path or URL a line, blank
// lines and lines starting with "#" skipped, the file gzip-compressed or
// not (Common Crawl's wet.paths.gz). An entry that is not absolute (no
// "SCHEME://", no leading "/") is taken after Prefix when there is one
// ("s3://commoncrawl/" before "crawl-data/..."), else as given. The
// entries are paths, not patterns.
type listFn struct {
	Prefix string
}

// maxListLine bounds the length of a line of an input list.
const maxListLine = 64 << 10

func (f *listFn) ProcessElement(ctx context.Context, list string, emitPath func(inputPath), emitMsg func(string)) (err error) {
	told := func(err error) error {
		if transient(err) {
			return fmt.Errorf("%s: %w", list, err)
		}
		fileErrors.Inc(ctx, 1)
		emitMsg(encodeMessage(list, "error", unwrapPathError(err).Error()))
		return nil
	}
	rc, err := openPath(ctx, list)
	if err != nil {
		return told(err)
	}
	defer rc.Close()
	src := &storageReader{r: rc}
	br := bufio.NewReader(src)
	var r io.Reader = br
	if head, _ := br.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return told(src.cause(err))
		}
		defer zr.Close()
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxListLine)
	for sc.Scan() {
		entry := strings.TrimSpace(sc.Text())
		if entry == "" || strings.HasPrefix(entry, "#") {
			continue
		}
		emitPath(inputPath{Path: f.resolve(entry)})
	}
	if err := sc.Err(); err != nil {
		return told(src.cause(err))
	}
	return nil
}

// resolve is the path of an entry of the list.
func (f *listFn) resolve(entry string) string {
	if f.Prefix == "" || !isLocal(entry) || strings.HasPrefix(entry, "/") {
		return entry
	}
	if strings.HasSuffix(f.Prefix, "/") {
		return f.Prefix + entry
	}
	return f.Prefix + "/" + entry
}

// openPath opens a path of any registered Beam filesystem; an S3 object
// by openS3.
func openPath(ctx context.Context, p string) (io.ReadCloser, error) {
	if strings.HasPrefix(p, "s3://") {
		return openS3(ctx, p)
	}
	fsys, err := filesystem.New(ctx, p)
	if err != nil {
		return nil, permanent{err}
	}
	rc, err := fsys.OpenRead(ctx, p)
	if err != nil {
		fsys.Close()
		return nil, err
	}
	return closeBoth{rc, fsys}, nil
}

// closeBoth closes a file, then its filesystem's client.
type closeBoth struct {
	io.ReadCloser
	fsys io.Closer
}

func (c closeBoth) Close() error {
	err := c.ReadCloser.Close()
	if ferr := c.fsys.Close(); err == nil {
		err = ferr
	}
	return err
}
