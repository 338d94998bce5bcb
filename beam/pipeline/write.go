package pipeline

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"
)

func init() {
	register.DoFn1x2[string, int, string](&shardFn{})
	register.DoFn2x0[[]byte, func(int, string)](&everyShardFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeShardFn{})
	register.DoFn3x1[context.Context, []byte, func(*[]URICount) bool, error](&writeTopFn{})
	register.Iter1[[]URICount]()
	register.Emitter2[int, string]()
	register.Iter1[string]()
	register.Function1x1[URICount, string](uriLine)
}

// ShardName is the name of shard i of n of an output: PREFIX-00000-of-00016.jsonl
// for the results, PREFIX.KIND-00000-of-00004.jsonl for the others (KIND
// schemes, hosts, domains, uris, top, errors), so that PREFIX-* names the
// results alone.
func ShardName(prefix, kind string, i, n int) string {
	if kind != "" {
		prefix += "." + kind
	}
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

// writeSharded writes the lines of col into n files, each written whole
// by one worker. A line goes to the shard its hash names: the same line to
// the same shard on a retried bundle, and the shards filled evenly.
// textio.Write is not used: it funnels all output through one worker.
func writeSharded(s beam.Scope, col beam.PCollection, prefix, kind string, n int) {
	s = s.Scope("Write " + ShardName(prefix, kind, 0, n))
	keyed := beam.ParDo(s, &shardFn{Shards: n}, col)
	// One empty line for every shard, so that a shard that no line hashes
	// to is still written: "-of-N" then tells the whole set.
	empty := beam.ParDo(s, &everyShardFn{Shards: n}, beam.Impulse(s))
	grouped := beam.GroupByKey(s, beam.Flatten(s, keyed, empty))
	beam.ParDo0(s, &writeShardFn{Prefix: prefix, Kind: kind, Shards: n}, grouped)
}

type shardFn struct{ Shards int }

func (f *shardFn) ProcessElement(line string) (int, string) {
	h := fnv.New32a()
	io.WriteString(h, line)
	return int(h.Sum32() % uint32(f.Shards)), line
}

type everyShardFn struct{ Shards int }

func (f *everyShardFn) ProcessElement(_ []byte, emit func(int, string)) {
	for i := range f.Shards {
		emit(i, "")
	}
}

// writeShardFn writes one shard, lines in no particular order. On a
// filesystem that renames, it writes a temporary file renamed at the end,
// so that a reader never sees half a shard; a retried write makes the
// same file again.
type writeShardFn struct {
	Prefix string
	Kind   string
	Shards int
}

func (f *writeShardFn) ProcessElement(ctx context.Context, shard int, lines func(*string) bool) error {
	return writeFile(ctx, ShardName(f.Prefix, f.Kind, shard, f.Shards), func(w *bufio.Writer) {
		var line string
		for lines(&line) {
			if line == "" {
				continue // everyShardFn's
			}
			w.WriteString(line)
			w.WriteByte('\n')
		}
	})
}

func writeFile(ctx context.Context, name string, write func(*bufio.Writer)) error {
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
	w := bufio.NewWriterSize(wc, 1<<20)
	write(w)
	if err := w.Flush(); err != nil {
		wc.Close()
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if renames {
		return renamer.Rename(ctx, tmp, name)
	}
	return nil
}

// writeTopFn writes the top N URIs by count, the most frequent first.
type writeTopFn struct {
	Prefix string
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
	return writeFile(ctx, ShardName(f.Prefix, "top", 0, 1), func(w *bufio.Writer) {
		for _, c := range top {
			w.WriteString(uriLine(c))
			w.WriteByte('\n')
		}
	})
}

// writeTop writes the n URIs of the largest counts. top.Largest gives
// nothing for an empty input: the list is a side input of one write, so
// that the file is written, empty, when nothing is found.
func writeTop(s beam.Scope, uris beam.PCollection, prefix string, n int) {
	s = s.Scope("Top")
	largest := top.Largest(s, uris, n, lessURICount)
	beam.ParDo0(s, &writeTopFn{Prefix: prefix}, beam.Impulse(s), beam.SideInput{Input: largest})
}
