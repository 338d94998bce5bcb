package engine

import (
	"strings"
	"sync"

	"github.com/urix-dev/urix/document"
)

// qualityCounts counts the data-quality warnings of mail that a mail
// reader tolerates without a word (behaviour §9, revision 5): not
// printed unless --warnings, counted by cause for --stats.
type qualityCounts struct {
	mu     sync.Mutex
	counts map[string]int
}

// held reports whether w is a data-quality warning to count rather than
// print, and counts it.
func (r *run) held(w *document.Warning) bool {
	if !w.Quality || r.warnings {
		return false
	}
	q := &r.stats.quality
	q.mu.Lock()
	if q.counts == nil {
		q.counts = map[string]int{}
	}
	q.counts[qualityCause(w.Message)]++
	q.mu.Unlock()
	return true
}

// qualityCause names the kind of a data-quality warning.
func qualityCause(msg string) string {
	switch {
	case strings.Contains(msg, "boundary"):
		return "missing boundary"
	case strings.Contains(msg, "charset"):
		return "unknown charset label"
	case strings.Contains(msg, "8-bit"):
		return "8-bit header bytes"
	}
	return "bad encoded word"
}

// snapshot returns a copy of the counts, nil when there are none.
func (q *qualityCounts) snapshot() map[string]int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.counts) == 0 {
		return nil
	}
	m := make(map[string]int, len(q.counts))
	for c, n := range q.counts {
		m[c] = n
	}
	return m
}
