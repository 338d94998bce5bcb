package extract

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// hardText returns about size bytes of text that is hard to cut: URIs in
// every delimiter, <...> and "..." broken across lines and mail quotes,
// unclosed '<', overlong candidates, blank lines; one word in sparse is
// such, the others plain words.
func hardText(rng *rand.Rand, size, sparse int) []byte {
	words := []string{
		"lorem", "ipsum", "<http://x.example/a", "b>", "(see", "http://p.example/q).",
		`"http://q.example/r"`, "<http://wrap.example/", "  more>", "Note:", "<", ">",
		"http://" + strings.Repeat("y", 300), "e.g.http://eg.example/", "\n", "\n\n",
		"> quoted <http://qq.example/", "\n> cont>", "<URL:", "[http://b.example/]",
		"http://h.example/some-\n  thing>", `"http://split.example/a` + "\n" + `  b"`,
		"www.example.com/x", "user@example.com", "10:30", "mailto:a@b.example",
		"http://long.example/" + strings.Repeat("ab:http://in.example/", 40),
		// A URI inside a long one, farther than a look-back from both
		// ends: a scanner that starts inside the long one sees it alone.
		"http://deep.example/" + strings.Repeat("a", 700) + "?u=http://inner.example/" + strings.Repeat("b", 700),
	}
	var b strings.Builder
	for b.Len() < size {
		if rng.IntN(sparse) != 0 {
			b.WriteString([]string{"word", "Note:", "10:30", "a\n", "> b", "\n> c", "<"}[rng.IntN(7)])
			b.WriteByte(' ')
			continue
		}
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteByte(' ')
	}
	return []byte(b.String())
}

// Two scanners quiet past the same limit join exactly (checkQuietJoin),
// and on text where URIs are not dense they mostly are: the CLI's -j
// relies on it to join chunks without a URI in common instead of reading
// one of them twice.
func TestQuietJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, opts := range []Options{
		{},
		{WWW: true, Email: true, Hyphen: HyphenBoth},
		{MaxLength: 200},
	} {
		data := hardText(rng, 60<<10, 150)
		quiet, tries := 0, 0
		for range 150 {
			limit := 1 + rng.Int64N(int64(len(data)))
			base := max(0, limit-1-rng.Int64N(4096))
			tries++
			if checkQuietJoin(t, data, opts, limit, base) {
				quiet++
			}
		}
		// The second scanner starts inside the long URI, more than a
		// look-back before the one inside it: the first, which read the
		// long one whole, is not quiet there.
		deep := []byte("see http://deep.example/" + strings.Repeat("a", 2000) + "?u=http://inner.example/ end")
		if checkQuietJoin(t, deep, opts, 1000, 900) {
			t.Errorf("options %+v: quiet inside a URI", opts)
		}
		if quiet < tries/2 {
			t.Errorf("options %+v: quiet at %d limits of %d; want most", opts, quiet, tries)
		}
		t.Logf("options %+v: quiet at %d limits of %d", opts, quiet, tries)
	}
}
