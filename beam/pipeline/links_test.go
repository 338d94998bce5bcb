package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/uri"
)

// TestPageLinks: the edges of a page, each once a page; none to its own
// host, none within its registrable domain at the domain level, none from
// a record without a target or to a URI without a host.
func TestPageLinks(t *testing.T) {
	var p pageLinks
	var got []string
	add := func(key string) { got = append(got, strings.ReplaceAll(key[1:], "\x00", ">")+" "+string(key[0])) }
	page := func(record int, target string) *document.Origin {
		return &document.Origin{Format: document.WARC, Record: record, RecordOffset: int64(record) * 100, TargetURI: target}
	}
	found := func(at *document.Origin, u string) {
		k := keysOf(u, u, true)
		p.edges("f.warc", at, k, add)
	}
	p1 := page(1, "http://WWW.A.example./p1")
	for _, u := range []string{
		"http://b.example/x", "http://b.example/y", // one edge, the page counted once
		"http://www.a.example/self",               // its own host
		"http://a.example/",                       // another host of its domain: a host edge only
		"mailto:x@c.example",                      // no host
		"http://192.0.2.1/", "http://0xc0.0.2.1/", // one host, written twice
		"https://bücher.example/", // IDN: A-labels
	} {
		found(p1, u)
	}
	found(page(2, ""), "http://d.example/")                       // no target: no page
	found(page(3, "urn:x:y"), "http://d.example/")                // a target without host
	found(page(4, "http://b.example/"), "http://b.example/other") // only a self link
	p5 := page(5, "https://www.a.example/p5")
	found(p5, "http://b.example/x") // another page of the same host: counted again
	found(&document.Origin{Format: document.Text}, "http://e.example/")

	want := []string{
		"www.a.example>b.example l", "a.example>b.example L",
		"www.a.example>a.example l",
		"www.a.example>192.0.2.1 l",
		"www.a.example>xn--bcher-kva.example l", "a.example>xn--bcher-kva.example L",
		"www.a.example>b.example l", "a.example>b.example L",
	}
	if !slices.Equal(got, want) {
		t.Errorf("edges\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := linkLine("a.example\x00b.example", 3); got != `{"from":"a.example","to":"b.example","count":3}` {
		t.Errorf("linkLine: %s", got)
	}
}

// linkWARC is a WARC file of pages (HTTP responses of HTML, whose
// relative links the engine resolves against the target, and a
// conversion record of text) that link to other hosts, to themselves, to
// hosts of their own domain, and to a host more than once, and a record
// without a target.
func linkWARC() string {
	rec := func(typ, target, block string) string {
		h := "WARC/1.0\r\nWARC-Type: " + typ + "\r\n"
		if target != "" {
			h += "WARC-Target-URI: " + target + "\r\n"
		}
		if typ == "response" {
			h += "Content-Type: application/http; msgtype=response\r\n"
		}
		return h + fmt.Sprintf("Content-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	}
	html := func(hrefs ...string) string {
		var b strings.Builder
		b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body>")
		for _, h := range hrefs {
			fmt.Fprintf(&b, `<a href="%s">link</a> `, h)
		}
		return b.String() + "</body></html>"
	}
	return rec("warcinfo", "", "see http://info.example/\r\n") +
		rec("response", "http://a.example/p1", html("http://b.example/x", "http://B.EXAMPLE:80/y", "https://c.example/",
			"http://a.example/self", "/relative", "//c.example/scheme-relative", "http://www.a.example/", "mailto:x@d.example")) +
		rec("conversion", "http://a.example/p2", "see http://b.example/z and http://192.0.2.1/ip\n") +
		rec("response", "https://www.b.example/", html("http://a.example/", "http://bücher.example/", "http://a.example/again"))
}

// TestLinkGraph runs the pipeline on a WARC file, uncompressed outputs,
// and wants the host and domain graphs the pages make.
func TestLinkGraph(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "links.warc")
	if err := os.WriteFile(in, []byte(linkWARC()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out", "res")
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, Config{Inputs: []string{in}, Output: out, Compress: None}); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	hosts := readOutput(t, out, "hostlinks", None)
	wantHosts := []string{
		`{"from":"a.example","to":"192.0.2.1","count":1}`,
		`{"from":"a.example","to":"b.example","count":2}`,
		`{"from":"a.example","to":"c.example","count":1}`,
		`{"from":"a.example","to":"www.a.example","count":1}`,
		`{"from":"www.b.example","to":"a.example","count":1}`,
		`{"from":"www.b.example","to":"xn--bcher-kva.example","count":1}`,
	}
	if !slices.Equal(hosts, wantHosts) {
		t.Errorf("host links\n%s\nwant\n%s", strings.Join(hosts, "\n"), strings.Join(wantHosts, "\n"))
	}
	domains := readOutput(t, out, "domainlinks", None)
	wantDomains := []string{
		`{"from":"a.example","to":"b.example","count":2}`,
		`{"from":"a.example","to":"c.example","count":1}`,
		`{"from":"b.example","to":"a.example","count":1}`,
		`{"from":"b.example","to":"xn--bcher-kva.example","count":1}`,
	}
	if !slices.Equal(domains, wantDomains) {
		t.Errorf("domain links\n%s\nwant\n%s", strings.Join(domains, "\n"), strings.Join(wantDomains, "\n"))
	}
	if errs := readOutput(t, out, "errors", None); len(errs) > 0 {
		t.Errorf("errors: %q", errs)
	}
	// Uncompressed: every file is .jsonl, none .gz.
	if gz, _ := filepath.Glob(out + "*.gz"); len(gz) > 0 {
		t.Errorf("compressed files with --compress none: %q", gz)
	}
}

// checkLinks computes the link graphs from the CLI's lines (each line
// says its record and the record's target, and the host the browser
// connects to) and wants the pipeline's to be them.
func checkLinks(t *testing.T, out string, cliLines []string, c Compression) {
	t.Helper()
	type page struct {
		file   string
		offset int64
	}
	hostEdges := map[page]map[[2]string]bool{}
	domainEdges := map[page]map[[2]string]bool{}
	for _, l := range cliLines {
		var r struct {
			File   string  `json:"file"`
			Offset *int64  `json:"record_offset"`
			Target string  `json:"warc_target_uri"`
			Host   *string `json:"host"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Offset == nil || r.Target == "" || r.Host == nil {
			continue
		}
		u, err := uri.Parse(r.Target, uri.KindIRI)
		if err != nil {
			continue
		}
		h, ok := uri.BrowserHost(u.Scheme, u.Host)
		if !ok {
			continue
		}
		from, to := strings.TrimSuffix(h.Name, "."), strings.TrimSuffix(*r.Host, ".")
		pg := page{r.File, *r.Offset}
		if from != to {
			if hostEdges[pg] == nil {
				hostEdges[pg] = map[[2]string]bool{}
			}
			hostEdges[pg][[2]string{from, to}] = true
		}
		fd, td := uri.RegistrableDomain(from), uri.RegistrableDomain(to)
		if fd != "" && td != "" && fd != td {
			if domainEdges[pg] == nil {
				domainEdges[pg] = map[[2]string]bool{}
			}
			domainEdges[pg][[2]string{fd, td}] = true
		}
	}
	graph := func(edges map[page]map[[2]string]bool) []string {
		n := map[[2]string]int64{}
		for _, es := range edges {
			for e := range es {
				n[e]++
			}
		}
		var lines []string
		for e, k := range n {
			lines = append(lines, linkLine(e[0]+"\x00"+e[1], k))
		}
		slices.Sort(lines)
		return lines
	}
	wantHosts, wantDomains := graph(hostEdges), graph(domainEdges)
	diffLines(t, "host links", readOutput(t, out, "hostlinks", c), wantHosts)
	diffLines(t, "domain links", readOutput(t, out, "domainlinks", c), wantDomains)
}

// TestBundleCommit: the files of the bundles a runner committed are the
// output, each line once; those of an attempt it gave up (a bundle that
// failed after writing, retried) are removed; a retried commit changes
// nothing.
func TestBundleCommit(t *testing.T) {
	ctx := context.Background()
	prefix := filepath.Join(t.TempDir(), "out", "res")
	bundle := func(lines ...string) string {
		f := newBundleFile(prefix, "hosts", Gzip)
		f.start(ctx)
		for _, l := range lines {
			if err := f.WriteLine(l); err != nil {
				t.Fatal(err)
			}
		}
		name, err := f.finish()
		if err != nil {
			t.Fatal(err)
		}
		return name
	}
	failed := bundle("a", "b") // the attempt given up
	retried := bundle("a", "b")
	other := bundle("c")
	if empty := bundle(); empty != "" {
		t.Errorf("a bundle of no lines made %s", empty)
	}
	committed := []string{other, retried}
	commit := &commitFn{Prefix: prefix, Kind: "hosts", Compress: Gzip}
	for range 2 { // the second time: a retried commit
		i := 0
		err := commit.ProcessElement(ctx, nil, func(s *string) bool {
			if i == len(committed) {
				return false
			}
			*s, i = committed[i], i+1
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := readOutput(t, prefix, "hosts", Gzip), []string{"a", "b", "c"}; !slices.Equal(got, want) {
			t.Errorf("lines %q, want %q", got, want)
		}
	}
	if _, err := os.Stat(failed); err == nil {
		t.Errorf("%s is left", failed)
	}
}

// TestSearchBundles runs the search as a runner would, over bundles of
// several files, one bundle given up after its end, then failing before
// its end, then retried, on the same DoFn, and wants the committed results to be the CLI's lines, each
// once, and the URI counts of the committed bundles to count each once.
// (prism runs each stage of the tests' pipelines as one bundle.)
func TestSearchBundles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeCollection(t, dir)
	all, _ := filepath.Glob(filepath.Join(dir, "*"))
	var files []string
	for _, f := range all {
		// The regular files that read whole (the compressed ones of the
		// collection are damaged on purpose).
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() &&
			!strings.HasSuffix(f, ".gz") && !strings.HasSuffix(f, ".zst") {
			files = append(files, f)
		}
	}
	prefix := filepath.Join(dir, "out", "res")
	fn := &searchFn{Prefix: prefix, Compress: Gzip}
	if err := fn.Setup(); err != nil {
		t.Fatal(err)
	}
	uriCounts := int64(0)
	bundle := func(files []string, fails bool) (name string, uris int64) {
		var names []string
		emitName := func(n string) { names = append(names, n) }
		emitKey := func(k string, n int64) {
			if k[0] == kindURI {
				uris += n
			}
		}
		emitMsg := func(string) {}
		fn.StartBundle(ctx, emitName, emitKey, emitMsg)
		for _, f := range files {
			if err := fn.ProcessElement(ctx, inputPath{Path: f}, emitName, emitKey, emitMsg); err != nil {
				t.Fatal(err)
			}
		}
		if fails {
			return "", 0
		}
		if err := fn.FinishBundle(ctx, emitName, emitKey, emitMsg); err != nil {
			t.Fatal(err)
		}
		if len(names) != 1 {
			t.Fatalf("bundle of %d files: %d files written", len(files), len(names))
		}
		return names[0], uris
	}
	var committed []string
	for i, part := range [][]string{files[:2], files[2:5], files[5:]} {
		if i == 1 {
			// Neither the file nor the counts of these count.
			bundle(part, false)
			bundle(part, true)
		}
		name, n := bundle(part, false)
		committed = append(committed, name)
		uriCounts += n
	}
	k := 0
	err := (&commitFn{Prefix: prefix, Compress: Gzip}).ProcessElement(ctx, nil, func(s *string) bool {
		if k == len(committed) {
			return false
		}
		*s, k = committed[k], k+1
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := runCLI(t, files)
	got := readOutput(t, prefix, "", Gzip)
	diffLines(t, "results", got, want)
	if len(got) < 100 || uriCounts != int64(len(want)) {
		t.Errorf("%d results, URI counts sum to %d, want %d", len(got), uriCounts, len(want))
	}
	if n, _ := filepath.Glob(prefix + "-*-of-00003.jsonl.gz"); len(n) != 3 {
		t.Errorf("results files %q, want 3", n)
	}
}
