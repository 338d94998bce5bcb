package engine

import (
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/uri"
)

// linkFacts is what the run computes of each link beyond finding it
// (behaviour §10); its zero value (no --print, no --embedded) computes
// nothing, and the plain output pays nothing.
type linkFacts struct {
	print    PrintWhat
	embedded bool
	// printed is -u's set of what --print host or domain prints (the
	// scanner's own set is of normal forms).
	printed *extract.UniqueSet
}

func (lf *linkFacts) on() bool { return lf.print != PrintURI || lf.embedded }

// maxEmbeddedDepth bounds the URIs read inside URIs inside URIs (a
// redirector to a click tracker to the target is 2).
const maxEmbeddedDepth = 4

// write writes m, found at at, as --print and --embedded ask; f.out.Write
// alone when neither is given.
func (f *fileOutput) write(m *extract.Match, at *document.Origin) {
	lf := &f.r.facts
	if !lf.on() {
		f.print(m, at)
		return
	}
	f.writeOne(m, at)
	if lf.embedded && m.Valid && f.r.out.Selects(m) {
		f.writeEmbedded(m, at, m.URI, maxEmbeddedDepth)
	}
}

// writeEmbedded writes the URIs embedded in container (found as m), each
// followed by those embedded in it.
func (f *fileOutput) writeEmbedded(m *extract.Match, at *document.Origin, container string, depth int) {
	if depth == 0 {
		return
	}
	for _, e := range uri.Embedded(container) {
		n, err := uri.Normalize(e, uri.KindIRI)
		if err != nil {
			continue
		}
		if f.r.opts.UniqueSet != nil && !f.r.opts.UniqueSet.Add(n) {
			continue // -u: as the scanner dedups the URIs it finds
		}
		em := *m
		em.URI, em.Normalized, em.Flags, em.Alt = e, n, 0, ""
		if !isASCII(e) {
			em.Flags = extract.IRI // decoded %XX of UTF-8: an IRI
		}
		em.EmbeddedIn = container
		f.found++
		f.writeOne(&em, at)
		f.writeEmbedded(m, at, e, depth-1)
	}
}

// writeOne writes m, or its host or domain (--print).
func (f *fileOutput) writeOne(m *extract.Match, at *document.Origin) {
	lf := &f.r.facts
	if lf.print == PrintURI || !f.r.out.Selects(m) {
		f.print(m, at)
		return
	}
	if !m.Valid {
		return // --print takes no --invalid: only valid URIs come here
	}
	facts := uri.FactsOfValid(m.URI) // the host cache's, no second parse
	if !facts.HasHost {
		return
	}
	v := facts.Host
	if lf.print == PrintDomain {
		if v = facts.Domain; v == "" {
			return
		}
	}
	if lf.printed != nil && !lf.printed.Add(v) {
		return
	}
	pm := *m
	pm.URI, pm.Normalized = v, v
	f.print(&pm, at)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
