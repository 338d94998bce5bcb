package cli

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/urix-dev/urix/engine"
)

// printStats prints --stats: the run's counts, then those of the
// data-quality warnings not printed, the most frequent first.
func printStats(w io.Writer, s engine.Stats, d time.Duration) {
	fmt.Fprintf(w, "urix: %d files, %d bytes, %d URIs, %d invalid, %.3f s\n",
		s.Files, s.Bytes, s.Found, s.Invalid, d.Seconds())
	if len(s.Quality) == 0 {
		return
	}
	causes := make([]string, 0, len(s.Quality))
	total := 0
	for c, n := range s.Quality {
		causes = append(causes, c)
		total += n
	}
	sort.Slice(causes, func(i, j int) bool {
		if s.Quality[causes[i]] != s.Quality[causes[j]] {
			return s.Quality[causes[i]] > s.Quality[causes[j]]
		}
		return causes[i] < causes[j]
	})
	var b strings.Builder
	for i, c := range causes {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c + ": ")
		b.WriteString(strconv.Itoa(s.Quality[c]))
	}
	fmt.Fprintf(w, "urix: %d data-quality warnings not printed (--warnings prints them): %s\n", total, b.String())
}
