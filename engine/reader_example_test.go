package engine_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/engine"
	"github.com/urix-dev/urix/extract"
)

// hosts counts the URIs of each host that a run writes.
type hosts map[string]int

func (h hosts) URI(file string, m *extract.Match, from *document.Origin) {
	// m.Normalized is valid during the call only: the key is a copy.
	h[strings.Clone(strings.SplitN(m.Normalized, "/", 4)[2])]++
}

func (h hosts) Message(m engine.Message) { fmt.Println("message:", m.File, m.Text) }

// Inputs that are not files (an object store's, a buffer's) are read
// with RunInputs; a Sink takes each URI as it is written.
func ExampleRunInputs() {
	o := engine.DefaultOptions()
	o.Stdout, o.Stderr = io.Discard, io.Discard
	count := hosts{}
	o.Sink = count
	res := engine.RunInputs([]engine.Input{
		{Name: "notes", Open: func() (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader("see <http://a.example/x> and http://b.example/\nthen http://a.example/y\n")), nil
		}},
		{Name: "gone", Open: func() (io.ReadCloser, error) { return nil, os.ErrNotExist }},
	}, o)
	fmt.Println(count, res.Status == engine.Trouble)
	// Output:
	// message: gone file does not exist
	// map[a.example:2 b.example:1] true
}
