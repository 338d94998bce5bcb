package pipeline

import (
	"bufio"
	"container/heap"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/klauspost/compress/gzip"
)

func init() {
	register.DoFn3x1[context.Context, string, func(string), error](&writeBundlesFn{})
	register.DoFn3x1[context.Context, []byte, func(*string) bool, error](&commitFn{})
	register.DoFn3x1[context.Context, []byte, func(*string) bool, error](&writeOneFn{})
	register.DoFn3x1[context.Context, []byte, func(*[]URICount) bool, error](&writeTopFn{})
	register.Iter1[[]URICount]()
	register.DoFn3x0[context.Context, URICount, func([]URICount)](&topFn{})
	register.Emitter1[[]URICount]()
	register.Iter1[string]()
	register.Emitter1[string]()
	register.Function1x1[URICount, string](uriLine)
}

// Compression is how the output files are compressed.
type Compression string

// The compressions of Config.Compress.
const (
	Gzip Compression = "gzip" // the default: FILE.jsonl.gz
	None Compression = "none" // FILE.jsonl
)

// ParseCompression reads the value of --compress.
func ParseCompression(s string) (Compression, error) {
	switch c := Compression(s); c {
	case Gzip, None:
		return c, nil
	case "":
		return Gzip, nil
	}
	return "", fmt.Errorf("--compress %q: want gzip or none", s)
}

// ext is the file name extension of the outputs.
func (c Compression) ext() string {
	if c == None {
		return ".jsonl"
	}
	return ".jsonl.gz"
}

// ShardName is the name of shard i of n of an output, compressed by c:
// PREFIX-00000-of-00016.jsonl.gz for the results, PREFIX.KIND-00000-of-00004.jsonl.gz
// for the others (KIND schemes, hosts, domains, uris, hostlinks,
// domainlinks, top, errors), so that PREFIX-* names the results alone.
func ShardName(prefix, kind string, i, n int, c Compression) string {
	return fmt.Sprintf("%s-%05d-of-%05d%s", base(prefix, kind), i, n, c.ext())
}

func base(prefix, kind string) string {
	if kind == "" {
		return prefix
	}
	return prefix + "." + kind
}

// tempDir is where the bundles write the files of one output before
// they are committed: PREFIX.KIND.tmp, which neither PREFIX-* nor
// PREFIX.KIND-* names.
func tempDir(prefix, kind string) string { return base(prefix, kind) + ".tmp" }

// bundleFile is the file in which one bundle writes its lines of one
// output: a temporary file of a name of its own in the output's tempDir,
// created at the first line (a bundle that writes nothing makes no
// file), closed at the end of the bundle, whose name the bundle then
// emits. commitFn gives the files of the committed bundles their final
// names; those of the attempts a runner gave up (a failed bundle, retried)
// are never emitted and commitFn removes them: a retry neither loses nor
// duplicates a line.
type bundleFile struct {
	prefix, kind string
	compress     Compression

	ctx   context.Context
	fs    filesystem.Interface
	name  string // "" until the first write
	wc    io.WriteCloser
	gz    *gzip.Writer
	w     *asyncWriter
	err   error // the first error, kept: the bundle fails with it
	lines int64
}

func newBundleFile(prefix, kind string, c Compression) *bundleFile {
	return &bundleFile{prefix: prefix, kind: kind, compress: c}
}

// start begins a bundle. A file a failed bundle left open (the runner
// may reuse the DoFn) is closed as it is, never committed.
func (f *bundleFile) start(ctx context.Context) {
	f.abandon()
	f.ctx, f.err, f.lines = ctx, nil, 0
}

// abandon closes the file of a bundle that did not finish; commitFn
// removes it.
func (f *bundleFile) abandon() {
	if f.name == "" {
		return
	}
	f.w.close()
	f.wc.Close()
	f.fs.Close()
	f.name, f.fs, f.wc, f.gz, f.w = "", nil, nil, nil, nil
}

// Write writes p, lines ending in "\n", to the bundle's file.
func (f *bundleFile) Write(p []byte) (int, error) {
	if f.err == nil && f.name == "" {
		f.err = f.open()
	}
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.w.Write(p)
	if err != nil {
		f.err = err
	}
	return n, err
}

// WriteLine writes line and its line break.
func (f *bundleFile) WriteLine(line string) error {
	if _, err := f.Write([]byte(line)); err != nil {
		return err
	}
	_, err := f.Write([]byte{'\n'})
	f.lines++
	return err
}

func (f *bundleFile) open() error {
	var r [12]byte
	rand.Read(r[:])
	name := tempDir(f.prefix, f.kind) + "/" + hex.EncodeToString(r[:]) + f.compress.ext()
	fs, err := filesystem.New(f.ctx, name)
	if err != nil {
		return err
	}
	wc, err := fs.OpenWrite(f.ctx, name)
	if err != nil {
		fs.Close()
		return err
	}
	f.fs, f.name, f.wc = fs, name, wc
	var w io.Writer = wc
	if f.compress != None {
		f.gz = newGzipWriter(wc)
		w = f.gz
	}
	f.w = newAsyncWriter(w)
	return nil
}

// finish ends the bundle: the file's name, "" when the bundle wrote
// nothing, or the first error of the bundle's writes, for which the
// bundle must fail (to be retried).
func (f *bundleFile) finish() (string, error) {
	if f.name == "" {
		return "", f.err
	}
	err := errors.Join(f.err, f.w.close())
	if f.gz != nil {
		err = errors.Join(err, f.gz.Close())
	}
	err = errors.Join(err, f.wc.Close(), f.fs.Close())
	name := f.name
	f.name, f.fs, f.wc, f.gz, f.w = "", nil, nil, nil, nil
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	return name, nil
}

// asyncBlock is the size of the blocks an asyncWriter hands over.
const asyncBlock = 1 << 20

// asyncWriter writes to w on a goroutine of its own, in blocks: the
// compression of a bundle's file runs beside the bundle's work, not in
// it. The engine hands a file's results over in order, on one goroutine,
// which also counts them (searchFn's sink): compressing them there took
// 1.9 of its 5.6 s on bench's 250 MB collection (session 18). Two blocks
// at most are held, one being filled, one being written.
type asyncWriter struct {
	w      io.Writer
	buf    []byte
	blocks chan []byte // to the goroutine
	free   chan []byte // back from it
	done   chan struct{}
	closed bool

	mu  sync.Mutex
	err error // w's first error
}

func newAsyncWriter(w io.Writer) *asyncWriter {
	a := &asyncWriter{w: w, blocks: make(chan []byte, 1), free: make(chan []byte, 2), done: make(chan struct{})}
	a.free <- make([]byte, 0, asyncBlock)
	a.buf = make([]byte, 0, asyncBlock)
	go a.run()
	return a
}

func (a *asyncWriter) run() {
	defer close(a.done)
	for b := range a.blocks {
		if a.error() == nil {
			if _, err := a.w.Write(b); err != nil {
				a.mu.Lock()
				a.err = err
				a.mu.Unlock()
			}
		}
		a.free <- b[:0]
	}
}

func (a *asyncWriter) error() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Write copies p, handing each full block over; w's first error, once
// known, fails it.
func (a *asyncWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := copy(a.buf[len(a.buf):cap(a.buf)], p)
		a.buf, p = a.buf[:len(a.buf)+k], p[k:]
		if len(a.buf) == cap(a.buf) {
			if err := a.error(); err != nil {
				return n - len(p), err
			}
			a.blocks <- a.buf
			a.buf = <-a.free
		}
	}
	return n, nil
}

// close writes what is held and waits for the goroutine: w's first
// error. It may be called again.
func (a *asyncWriter) close() error {
	if !a.closed {
		a.closed = true
		if len(a.buf) > 0 {
			a.blocks <- a.buf
		}
		close(a.blocks)
		<-a.done
	}
	return a.error()
}

// writeBundles writes the lines of col where they are made, a file a
// bundle, and commits the files as the output PREFIX.KIND-*-of-N, N the
// number of bundles that wrote lines (at least one file: an output of no
// lines is one empty file).
func writeBundles(s beam.Scope, col beam.PCollection, prefix, kind string, c Compression) {
	s = s.Scope("Write " + ShardName(prefix, kind, 0, 1, c))
	names := beam.ParDo(s, &writeBundlesFn{Prefix: prefix, Kind: kind, Compress: c}, col)
	commit(s, names, prefix, kind, c)
}

// commit gives the files whose names are written (each a committed
// bundle's, emitted once) their final names. It runs once all are
// written: the names are its side input.
func commit(s beam.Scope, names beam.PCollection, prefix, kind string, c Compression) {
	beam.ParDo0(s, &commitFn{Prefix: prefix, Kind: kind, Compress: c}, beam.Impulse(s), beam.SideInput{Input: names})
}

// writeBundlesFn writes each line to its bundle's file, and emits the
// file's name at the end of the bundle.
type writeBundlesFn struct {
	Prefix   string
	Kind     string
	Compress Compression

	file *bundleFile
}

func (f *writeBundlesFn) Setup() { f.file = newBundleFile(f.Prefix, f.Kind, f.Compress) }

func (f *writeBundlesFn) StartBundle(ctx context.Context, _ func(string)) { f.file.start(ctx) }

func (f *writeBundlesFn) Teardown() { f.file.abandon() }

func (f *writeBundlesFn) ProcessElement(_ context.Context, line string, _ func(string)) error {
	return f.file.WriteLine(line)
}

func (f *writeBundlesFn) FinishBundle(_ context.Context, emit func(string)) error {
	name, err := f.file.finish()
	if name != "" {
		emit(name)
	}
	return err
}

// commitFn renames the committed files of an output to its shard names,
// in the order of their (random) names, and removes what failed
// attempts left in the temporary directory. Retried, it renames what is
// left to rename: a file already renamed is at its final name.
type commitFn struct {
	Prefix   string
	Kind     string
	Compress Compression
}

func (f *commitFn) ProcessElement(ctx context.Context, _ []byte, names func(*string) bool) error {
	var committed []string
	var name string
	for names(&name) {
		committed = append(committed, name)
	}
	slices.Sort(committed)
	if len(committed) == 0 {
		// An output of no lines is one empty file.
		return writeFile(ctx, ShardName(f.Prefix, f.Kind, 0, 1, f.Compress), f.Compress, func(*bufio.Writer) {})
	}
	dir := tempDir(f.Prefix, f.Kind)
	fs, err := filesystem.New(ctx, dir+"/x")
	if err != nil {
		return err
	}
	defer fs.Close()
	n := len(committed)
	for i, tmp := range committed {
		final := ShardName(f.Prefix, f.Kind, i, n, f.Compress)
		if err := filesystem.Rename(ctx, fs, tmp, final); err != nil {
			if renamedBefore(ctx, fs, tmp, final) {
				continue
			}
			return fmt.Errorf("committing %s: %w", final, err)
		}
	}
	removeLeftovers(ctx, fs, dir)
	return nil
}

// renamedBefore tells whether tmp was renamed to final by an earlier
// attempt of the commit: tmp is gone, final is there.
func renamedBefore(ctx context.Context, fs filesystem.Interface, tmp, final string) bool {
	if _, err := fs.Size(ctx, tmp); err == nil {
		return false
	}
	_, err := fs.Size(ctx, final)
	return err == nil
}

// removeLeftovers removes the files of failed attempts from dir, and dir
// itself where directories are (the local filesystem). Nothing reads
// them; what cannot be removed is left.
func removeLeftovers(ctx context.Context, fs filesystem.Interface, dir string) {
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return
	}
	left, _ := fs.List(ctx, dir+"/*")
	for _, name := range left {
		rm.Remove(ctx, name)
	}
	if !strings.Contains(dir, "://") {
		rm.Remove(ctx, dir)
	}
}

// writeOne writes the lines of col, a small output (the schemes, the
// errors), as one file: the lines are the side input of one write.
func writeOne(s beam.Scope, col beam.PCollection, prefix, kind string, c Compression) {
	s = s.Scope("Write " + ShardName(prefix, kind, 0, 1, c))
	beam.ParDo0(s, &writeOneFn{Prefix: prefix, Kind: kind, Compress: c}, beam.Impulse(s), beam.SideInput{Input: col})
}

type writeOneFn struct {
	Prefix   string
	Kind     string
	Compress Compression
}

func (f *writeOneFn) ProcessElement(ctx context.Context, _ []byte, lines func(*string) bool) error {
	var all []string
	var line string
	for lines(&line) {
		all = append(all, line)
	}
	// Sorted, so that a file is the same on every run.
	slices.Sort(all)
	return writeFile(ctx, ShardName(f.Prefix, f.Kind, 0, 1, f.Compress), f.Compress, func(w *bufio.Writer) {
		for _, l := range all {
			w.WriteString(l)
			w.WriteByte('\n')
		}
	})
}

// newGzipWriter is the compressor of the outputs: gzip's fastest level,
// 1.7 times as fast as its default on the results, for files 19 % larger
// (200 MB of bench's results: 0.40 s and 15.0 MB, against 0.68 s and
// 12.6 MB), where compressing the results took a fifth of the job's CPU
// time.
func newGzipWriter(w io.Writer) *gzip.Writer {
	gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	return gz
}

// writeFile writes the file name whole. On a filesystem that renames, it
// writes a temporary file renamed at the end, so that a reader never sees
// half a file; a retried write makes the same file again.
func writeFile(ctx context.Context, name string, c Compression, write func(*bufio.Writer)) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	tmp := name
	renamer, renames := fs.(filesystem.Renamer)
	if renames {
		var r [8]byte
		rand.Read(r[:])
		tmp = name + ".tmp-" + hex.EncodeToString(r[:])
	}
	wc, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return err
	}
	var gz *gzip.Writer
	var dst io.Writer = wc
	if c != None {
		gz = newGzipWriter(wc)
		dst = gz
	}
	w := bufio.NewWriterSize(dst, 1<<20)
	write(w)
	err = w.Flush()
	if gz != nil {
		err = errors.Join(err, gz.Close())
	}
	if err = errors.Join(err, wc.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if renames {
		return renamer.Rename(ctx, tmp, name)
	}
	return nil
}

// writeTopFn writes the top N URIs by count, the most frequent first, of
// the bundles' lists.
type writeTopFn struct {
	Prefix   string
	N        int
	Compress Compression
}

func (f *writeTopFn) ProcessElement(ctx context.Context, _ []byte, tops func(*[]URICount) bool) error {
	var top, one []URICount
	for tops(&one) {
		top = append(top, one...)
	}
	slices.SortFunc(top, func(a, b URICount) int {
		switch {
		case lessURICount(b, a):
			return -1
		case lessURICount(a, b):
			return 1
		}
		return 0
	})
	top = top[:min(len(top), f.N)]
	return writeFile(ctx, ShardName(f.Prefix, "top", 0, 1, f.Compress), f.Compress, func(w *bufio.Writer) {
		for _, c := range top {
			w.WriteString(uriLine(c))
			w.WriteByte('\n')
		}
	})
}

// writeTop writes the n URIs of the largest counts: each bundle of the
// sums sends its n largest (topFn), and one write takes the n largest of
// those, its side input, so that the file is written, empty, when
// nothing is found. (top.Largest, a combine, cost 29 s of CPU time on
// the 1.6 million URIs of bench's 250 MB collection: its accumulator
// sorts itself again as elements come.)
func writeTop(s beam.Scope, uris beam.PCollection, prefix string, n int, c Compression) {
	s = s.Scope("Top")
	largest := beam.ParDo(s, &topFn{N: n}, uris)
	beam.ParDo0(s, &writeTopFn{Prefix: prefix, N: n, Compress: c}, beam.Impulse(s), beam.SideInput{Input: largest})
}

// topFn sends the N URIs of the largest counts of its bundle, at its end.
type topFn struct {
	N int

	least uriHeap // the largest, the least of them first
}

func (f *topFn) StartBundle(context.Context, func([]URICount)) { f.least = f.least[:0] }

func (f *topFn) ProcessElement(_ context.Context, c URICount, _ func([]URICount)) {
	switch {
	case len(f.least) < f.N:
		heap.Push(&f.least, c)
	case lessURICount(f.least[0], c):
		f.least[0] = c
		heap.Fix(&f.least, 0)
	}
}

func (f *topFn) FinishBundle(_ context.Context, emit func([]URICount)) {
	if len(f.least) > 0 {
		emit(slices.Clone(f.least))
		f.least = f.least[:0]
	}
}

// uriHeap is a heap of URI counts, the least (lessURICount) on top.
type uriHeap []URICount

func (h uriHeap) Len() int           { return len(h) }
func (h uriHeap) Less(i, j int) bool { return lessURICount(h[i], h[j]) }
func (h uriHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *uriHeap) Push(x any)        { *h = append(*h, x.(URICount)) }
func (h *uriHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
