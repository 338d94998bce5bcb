package pipeline

import (
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph"
)

// TestKeysBatchedWhereMade: the keys of each search are batched by a
// batchKeysFn that reads that search's output itself, so that a runner
// fuses the two and no (key, count) pair is an element between stages.
// Batched after a Flatten of the two searches' keys (as once merged),
// prism held each of the 1.8 million pairs of the 250 MB collection with
// its state: 3.4 GB of peak RSS and 22 s, where the bound is 0.5 GB.
func TestKeysBatchedWhereMade(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, Config{Inputs: []string{t.TempDir() + "/*"}, Output: t.TempDir() + "/x"}); err != nil {
		t.Fatal(err)
	}
	edges, _, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	producer := map[*graph.Node]*graph.MultiEdge{}
	for _, e := range edges {
		for _, out := range e.Output {
			producer[out.To] = e
		}
	}
	batchers := 0
	for _, e := range edges {
		if e.Op != graph.ParDo || !strings.HasSuffix(e.DoFn.Name(), "batchKeysFn") {
			continue
		}
		batchers++
		from := producer[e.Input[0].From]
		if from == nil || from.Op != graph.ParDo || !strings.HasSuffix(from.DoFn.Name(), "searchFn") && !strings.HasSuffix(from.DoFn.Name(), "rangeSearchFn") {
			name := "nothing"
			if from != nil {
				name = from.Name()
			}
			t.Errorf("a batchKeysFn reads the output of %s, want a search's", name)
		}
	}
	if batchers != 2 {
		t.Errorf("%d batchKeysFn, want 2 (one a search)", batchers)
	}
}
