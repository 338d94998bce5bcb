package pipeline

import (
	"strings"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/uri"
)

// The link graph of WARC input (README, "Outputs"), the shape of Common
// Crawl's host and domain web graphs:
//
//   - a page is a WARC record with a WARC-Target-URI: its host is the
//     target URI's; records without one (warcinfo, most metadata) have no
//     edges;
//   - its links are the URIs urix finds in the record (text or HTML
//     attributes: hrefs, img src, ...) that have a host a browser takes;
//     mailto:, urn: and the like have none;
//   - a host is the one a browser connects to (uri.BrowserHost: lower
//     case, IDN labels as A-labels, IPv4 in any form as a dotted quad),
//     without the root's dot (example.com. is example.com); a domain is
//     the host's registrable domain (uri.RegistrableDomain), and a host
//     without one (an IP address, localhost) has no domain edges;
//   - an edge's count is the number of pages that link from its host (or
//     domain) to the other at least once: a page that links to a host
//     twenty times counts once;
//   - a page's links to its own host are no host edge, and links within
//     one registrable domain (www.example.com to blog.example.com) no
//     domain edge: the graphs are of links between sites.

// The kinds of the link keys (the first byte, as the other counts'; the
// key is FROM "\x00" TO, which no host holds).
const (
	kindHostLink   = 'l'
	kindDomainLink = 'L'
)

// maxPageLinks bounds the hosts remembered of one page: past it, a page's
// further links to a new host may be counted more than once (a page
// linking to 65536 hosts is no page).
const maxPageLinks = 1 << 16

// pageLinks tells the edges of the URIs of the page being read, each
// once a page.
type pageLinks struct {
	file   string
	record int
	offset int64

	from, fromDomain string          // the page's host and domain; "" for none
	seen             map[string]bool // the edge keys told for the page
}

// reset forgets the page: a new file is read.
func (p *pageLinks) reset() {
	p.file, p.record, p.offset = "", 0, 0
	p.from, p.fromDomain = "", ""
	clear(p.seen)
}

// edges calls add with the key of each edge of a URI with keys k, found
// at at in file, that its page has not had yet.
func (p *pageLinks) edges(file string, at *document.Origin, k keys, add func(key string)) {
	if at == nil || at.Format != document.WARC || at.TargetURI == "" || !k.hasHost {
		return
	}
	if at.Record != p.record || at.RecordOffset != p.offset || file != p.file {
		p.page(file, at)
	}
	if p.from == "" {
		return
	}
	to := graphHost(k.scheme, k.host)
	if to == "" {
		return
	}
	if to != p.from {
		p.add(string(kindHostLink)+p.from+"\x00"+to, add)
	}
	if p.fromDomain == "" {
		return
	}
	// The domain keysOf found for the host, when the browser's host is
	// the same (an ASCII host; an IDN host's domain is in A-labels here).
	d := k.domain
	if strings.TrimSuffix(k.host, ".") != to {
		d = uri.RegistrableDomain(to)
	}
	if d != "" && d != p.fromDomain {
		p.add(string(kindDomainLink)+p.fromDomain+"\x00"+d, add)
	}
}

func (p *pageLinks) add(key string, add func(string)) {
	if p.seen[key] {
		return
	}
	if len(p.seen) < maxPageLinks {
		p.seen[key] = true
	}
	add(key)
}

// page starts the page of the record at at: its host and domain are
// those of its WARC-Target-URI.
func (p *pageLinks) page(file string, at *document.Origin) {
	p.file, p.record, p.offset = strings.Clone(file), at.Record, at.RecordOffset
	if p.seen == nil {
		p.seen = make(map[string]bool)
	}
	clear(p.seen)
	p.from, p.fromDomain = "", ""
	// WARC/1.0 wrote the target in <> in its grammar; some tools copied it.
	target := strings.TrimSuffix(strings.TrimPrefix(at.TargetURI, "<"), ">")
	u, err := uri.Parse(target, uri.KindIRI)
	if err != nil || !u.HasAuthority {
		return
	}
	p.from = graphHost(strings.ToLower(u.Scheme), u.Host)
	p.fromDomain = registrableDomain(p.from)
}

// graphHost is the host of the graphs for the host component host of a
// URI of scheme: the one a browser connects to, without the root's dot;
// "" when the browser takes none.
func graphHost(scheme, host string) string {
	h, ok := uri.BrowserHost(scheme, host)
	if !ok {
		return ""
	}
	return strings.TrimSuffix(h.Name, ".")
}

// linkLine is one line of a link graph: {"from":F,"to":T,"count":N}.
func linkLine(key string, n int64) string {
	from, to, _ := strings.Cut(key, "\x00")
	b := append([]byte(`{"from":`), nil...)
	b = appendString(b, from)
	b = append(b, `,"to":`...)
	b = appendString(b, to)
	b = append(b, `,"count":`...)
	b = appendInt(b, n)
	return string(append(b, '}'))
}
