package main

import (
	"sort"
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

// print prints the counts, the most frequent first, on one line.
func (q *qualityCounts) print(r *run) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.counts) == 0 {
		return
	}
	causes := make([]string, 0, len(q.counts))
	total := 0
	for c, n := range q.counts {
		causes = append(causes, c)
		total += n
	}
	sort.Slice(causes, func(i, j int) bool {
		if q.counts[causes[i]] != q.counts[causes[j]] {
			return q.counts[causes[i]] > q.counts[causes[j]]
		}
		return causes[i] < causes[j]
	})
	var b strings.Builder
	for i, c := range causes {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c + ": ")
		b.WriteString(itoa(q.counts[c]))
	}
	r.warnf("%d data-quality warnings not printed (--warnings prints them): %s", total, b.String())
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
