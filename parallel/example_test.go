package parallel_test

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/parallel"
)

// Three texts read at once, their URIs printed in the texts' order.
func ExampleOrdered() {
	texts := []string{
		"first: http://a.example/1 and http://a.example/2",
		"second: <http://b.example/1>",
		"third: (see http://c.example/1).",
	}
	out := parallel.NewOrdered(os.Stdout)
	var wg sync.WaitGroup
	for i, text := range texts {
		wg.Go(func() {
			w := out.Writer(i)
			for m, err := range extract.All(strings.NewReader(text), extract.Options{}) {
				if err == nil {
					fmt.Fprintln(w, m.URI)
				}
			}
			out.Done(i)
		})
	}
	wg.Wait()
	// Output:
	// http://a.example/1
	// http://a.example/2
	// http://b.example/1
	// http://c.example/1
}
