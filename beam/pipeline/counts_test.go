package pipeline

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/urix-dev/urix/uri"
)

// A batch gives back the keys and sums it was made of, and the sums of
// the batches of one shard add up.
func TestBatchRoundTrip(t *testing.T) {
	want := map[string]int64{}
	var keys []string
	for i := range 5000 {
		k := fmt.Sprintf("uhttp://host%d.example.org/path/%d/index.html", i%37, i)
		keys = append(keys, k)
		want[k] = int64(i%5 + 1)
	}
	keys = append(keys, "s", "shttp", "h\x00", "h\x01", "h\x01a", "u\xff\x00")
	for _, k := range keys[5000:] {
		want[k] = 1 << 40
	}
	slices.Sort(keys)
	var w batchWriter
	var r batchReader
	got := map[string]int64{}
	for _, part := range [][]string{keys[:100], keys[100:]} {
		w.reset()
		for _, k := range part {
			w.add(k, want[k])
		}
		if err := r.add(got, w.bytes()); err != nil {
			t.Fatal(err)
		}
	}
	if !maps.Equal(got, want) {
		t.Fatalf("%d keys back, want %d", len(got), len(want))
	}
	w.reset()
	w.add("uhttp://a.example/", 2)
	if err := r.add(got, w.bytes()); err != nil || got["uhttp://a.example/"] != 2 {
		t.Fatalf("a second batch: %v, %d", err, got["uhttp://a.example/"])
	}
	if err := r.add(got, []byte("not deflate")); err == nil {
		t.Fatal("a batch that is not one decodes")
	}
}

// With the engine's workers at 2 a file (FileJobs, as urix-beam sets it
// on prism), the job gives what the CLI gives: the results, the errors
// and the counts (the engine's results do not depend on its workers).
func TestSameAsCLIFileJobs(t *testing.T) {
	was := FileJobs
	FileJobs = 2
	t.Cleanup(func() { FileJobs = was })
	dir := t.TempDir()
	writeCollection(t, dir)
	out := filepath.Join(t.TempDir(), "out", "res")
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, Config{Inputs: []string{filepath.Join(dir, "**")}, Output: out, Top: 7}); err != nil {
		t.Fatal(err)
	}
	if _, err := ptest.RunWithMetrics(p); err != nil {
		t.Fatal(err)
	}
	wantLines, wantErrs := runCLI(t, []string{"-r", dir})
	diffLines(t, "results", readOutput(t, out, "", Gzip), wantLines)
	gotErrs, _, _ := messagesAsCLI(t, readOutput(t, out, "errors", Gzip))
	diffLines(t, "errors", gotErrs, wantErrs)
	checkCounts(t, out, wantLines, Gzip, 7)
	checkLinks(t, out, wantLines, Gzip)
}

// The domain cache gives what the public suffix list gives, whatever the
// hosts that share a slot, and keeps no reused bytes of a caller's.
func TestRegistrableDomainCache(t *testing.T) {
	var hosts []string
	for i := range 20000 {
		hosts = append(hosts, fmt.Sprintf("h%d.example.co.uk", i), fmt.Sprintf("x%d.github.io", i%50), "localhost", "192.0.2.1", "co.uk")
	}
	for round := range 2 {
		for _, h := range hosts {
			buf := []byte(h)
			// A string of the caller's bytes, as the engine's are.
			got := strings.Clone(registrableDomain(unsafe.String(&buf[0], len(buf))))
			for i := range buf {
				buf[i] = 'z' // reused
			}
			if want := uri.RegistrableDomain(h); got != want {
				t.Fatalf("round %d: %q: %q, want %q", round, h, got, want)
			}
		}
	}
}
