package pipeline

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/klauspost/compress/flate"
	"github.com/urix-dev/urix/output"
	"github.com/urix-dev/urix/uri"
)

func init() {
	register.DoFn4x0[context.Context, string, int64, func(int, []byte)](&batchKeysFn{})
	register.Emitter2[int, []byte]()
	register.DoFn9x1[context.Context, int, func(*[]byte) bool, func(string), func(string), func(string), func(URICount), func(string), func(string), error](&sumShardFn{})
	register.Iter1[[]byte]()
	register.Emitter1[URICount]()
}

// keys are what one result is counted under.
type keys struct {
	uri     string // the normal form (behaviour §6); as found when invalid
	scheme  string // lower case
	host    string
	hasHost bool // the URI has an authority, whose host may be empty (file:///)
	domain  string
}

// keysOf tells what a result is counted under. A valid URI is counted by
// its normal form (behaviour §6: scheme and host in lower case, default
// port dropped), so that HTTP://Example.COM:80/ and http://example.com/
// are one URI of one host; an invalid one (--invalid) by its scheme only,
// as found, with no host.
func keysOf(found, normalized string, valid bool) keys {
	if !valid {
		scheme, _, _ := strings.Cut(found, ":")
		return keys{uri: found, scheme: strings.ToLower(scheme)}
	}
	k := keys{uri: normalized}
	u, err := uri.Parse(normalized, uri.KindIRI)
	if err != nil {
		scheme, _, _ := strings.Cut(normalized, ":")
		k.scheme = strings.ToLower(scheme)
		return k
	}
	k.scheme = strings.ToLower(u.Scheme)
	k.host, k.hasHost = u.Host, u.HasAuthority
	if k.hasHost {
		k.domain = registrableDomain(k.host)
	}
	return k
}

// registrableDomain is the host's registrable domain, "" for none: the
// one implementation the urix command's --json and --print domain use
// (uri.RegistrableDomain, behaviour §10), through domainCache.
func registrableDomain(host string) string {
	slot := &domainCache[fnv1a(host)%uint32(len(domainCache))]
	if e := slot.Load(); e != nil && e.host == host {
		return e.domain
	}
	h := strings.Clone(host) // host may be the engine's, reused
	e := &hostDomain{host: h, domain: uri.RegistrableDomain(h)}
	slot.Store(e)
	return e.domain
}

// domainCache holds the registrable domains of hosts lately counted, a
// slot a hash of the host: the look-up in the public suffix list, for
// every result, took 1.9 s of the 52 s of CPU time of bench's 1 GB
// collection (session 18), where its ~2,000 hosts take a slot each. Each
// slot is an atomic pointer: the sinks of the bundles a worker runs at
// once share it without a lock.
var domainCache [4096]atomic.Pointer[hostDomain]

type hostDomain struct{ host, domain string }

// The kinds of count, the first byte of a count's key. A host or domain
// that is absent is told from an empty one by the second byte.
const (
	kindScheme = 's'
	kindHost   = 'h'
	kindDomain = 'd'
	kindURI    = 'u'

	absent  = "\x00"
	present = "\x01"
)

// encode returns the keys of the four counts.
func (k keys) encode() [4]string {
	host, domain := absent, absent
	if k.hasHost {
		host = present + k.host
	}
	if k.domain != "" {
		domain = present + k.domain
	}
	return [4]string{
		string(kindScheme) + k.scheme,
		string(kindHost) + host,
		string(kindDomain) + domain,
		string(kindURI) + k.uri,
	}
}

// appendString appends s as a JSON string escaped as the results are.
func appendString(b []byte, s string) []byte { return output.AppendString(b, s) }

// URICount is a distinct URI and how many results it has, for the top N.
type URICount struct {
	URI   string
	Count int64
}

// lessURICount orders by count, then (reversed) by URI, so that the top N
// of equal counts is the same on every run: the lexically first URIs.
func lessURICount(a, b URICount) bool {
	if a.Count != b.Count {
		return a.Count < b.Count
	}
	return a.URI > b.URI
}

// countShards is the number of shards the keys are summed in (by a hash
// of the key): the sums of a shard are made on one worker, in a map of
// its keys, so that more shards spread them over more workers; fewer
// make fewer batches.
const countShards = 256

// maxBatchedKeys bounds the keys a bundle of the search holds before it
// sends them on (64 Ki keys and their sums: about 6 MB).
const maxBatchedKeys = 1 << 16

// batchKeysFn sums the keys of a bundle of the search (fused with it:
// its input never leaves the worker) and sends the sums on a batch a
// shard: one element of a shard's keys in order with their sums
// (batchWriter) for each shard and every maxBatchedKeys keys, where one
// element a key and bundle cost prism about a kilobyte of state each (a
// GroupByKey or CombinePerKey keeps a trigger and a pane for every key:
// 8 GB of RSS for the 1.8 million keys of a 250 MB collection,
// bench/README.md session 18) and the runner's shuffle as much work a
// key. The keys come summed over a file (searchFn): they are held as
// they come, each shard's sorted and its equal keys summed when they
// are sent (a map of them cost more CPU time than the sort).
type batchKeysFn struct {
	shards [countShards][]keyCount
	held   int
	batch  batchWriter
}

type keyCount struct {
	key string
	n   int64
}

func (f *batchKeysFn) StartBundle(context.Context, func(int, []byte)) {
	for sh := range f.shards {
		clear(f.shards[sh])
		f.shards[sh] = f.shards[sh][:0]
	}
	f.held = 0
}

func (f *batchKeysFn) ProcessElement(_ context.Context, key string, n int64, emit func(int, []byte)) {
	sh := shardOf(key)
	f.shards[sh] = append(f.shards[sh], keyCount{key, n})
	if f.held++; f.held >= maxBatchedKeys {
		f.flush(emit)
	}
}

func (f *batchKeysFn) FinishBundle(_ context.Context, emit func(int, []byte)) { f.flush(emit) }

func (f *batchKeysFn) flush(emit func(int, []byte)) {
	for sh, held := range f.shards {
		if len(held) == 0 {
			continue
		}
		slices.SortFunc(held, func(a, b keyCount) int { return strings.Compare(a.key, b.key) })
		f.batch.reset()
		for i := 0; i < len(held); {
			k, n := held[i].key, held[i].n
			for i++; i < len(held) && held[i].key == k; i++ {
				n += held[i].n
			}
			f.batch.add(k, n)
		}
		emit(sh, f.batch.bytes())
		clear(held)
		f.shards[sh] = held[:0]
	}
	f.held = 0
}

// shardOf is the shard of a key: FNV-1a of its bytes, which every
// worker computes alike.
func shardOf(key string) int { return int(fnv1a(key) % countShards) }

func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// A batch is its keys in order, each with its sum, front-coded (the
// length of the prefix it shares with the key before, uvarint; the length
// of the rest, uvarint; the rest; the sum, varint), then deflated. URIs
// in order share much (scheme, host, path), and the rest deflates: the
// batches of bench's 250 MB collection took 80 MB as plain pairs, which
// prism holds, copies into a bundle's input, sends through gRPC and the
// SDK decodes, all at once (session 18).
type batchWriter struct {
	plain []byte
	last  string
	out   bytes.Buffer
	fw    *flate.Writer
}

func (w *batchWriter) reset() { w.plain, w.last = w.plain[:0], "" }

// add appends key, after the keys before it in order, and its sum.
func (w *batchWriter) add(key string, n int64) {
	shared := 0
	for shared < len(key) && shared < len(w.last) && key[shared] == w.last[shared] {
		shared++
	}
	w.plain = binary.AppendUvarint(w.plain, uint64(shared))
	w.plain = binary.AppendUvarint(w.plain, uint64(len(key)-shared))
	w.plain = append(w.plain, key[shared:]...)
	w.plain = binary.AppendVarint(w.plain, n)
	w.last = key
}

// bytes returns the batch, deflated: a new slice, the element sent.
func (w *batchWriter) bytes() []byte {
	w.out.Reset()
	if w.fw == nil {
		w.fw, _ = flate.NewWriter(&w.out, flate.BestSpeed)
	} else {
		w.fw.Reset(&w.out)
	}
	w.fw.Write(w.plain)
	w.fw.Close()
	return bytes.Clone(w.out.Bytes())
}

// batchReader adds the pairs of batches to sums.
type batchReader struct {
	fr    io.ReadCloser
	plain bytes.Buffer
	key   []byte
}

// add adds the pairs of batch b to sums.
func (r *batchReader) add(sums map[string]int64, b []byte) error {
	if r.fr == nil {
		r.fr = flate.NewReader(bytes.NewReader(b))
	} else {
		r.fr.(flate.Resetter).Reset(bytes.NewReader(b), nil)
	}
	r.plain.Reset()
	if _, err := r.plain.ReadFrom(r.fr); err != nil {
		return err
	}
	p := r.plain.Bytes()
	r.key = r.key[:0]
	for len(p) > 0 {
		shared, k1 := binary.Uvarint(p)
		if k1 <= 0 || shared > uint64(len(r.key)) {
			return errBadBatch
		}
		rest, k2 := binary.Uvarint(p[k1:])
		p = p[k1+max(k2, 0):]
		if k2 <= 0 || rest > uint64(len(p)) {
			return errBadBatch
		}
		r.key = append(r.key[:shared], p[:rest]...)
		p = p[rest:]
		n, k := binary.Varint(p)
		if k <= 0 {
			return errBadBatch
		}
		p = p[k:]
		sums[string(r.key)] += n
	}
	return nil
}

var errBadBatch = errors.New("a batch of counts that does not decode")

// sumShardFn sums the batches of a shard and makes the lines of the count
// outputs of its keys (and the URI counts). Its memory is the shard's
// distinct keys.
type sumShardFn struct {
	sums   map[string]int64
	reader batchReader
}

func (f *sumShardFn) Setup() { f.sums = make(map[string]int64) }

func (f *sumShardFn) ProcessElement(ctx context.Context, shard int, batches func(*[]byte) bool,
	schemes, hosts, domains func(string), uris func(URICount), hostLinks, domainLinks func(string)) error {
	clear(f.sums)
	var b []byte
	for batches(&b) {
		if err := f.reader.add(f.sums, b); err != nil {
			return fmt.Errorf("shard %d: %w", shard, err)
		}
	}
	for k, n := range f.sums {
		countLines(k, n, schemes, hosts, domains, uris, hostLinks, domainLinks)
	}
	clear(f.sums)
	return nil
}

// countLines makes the line of the count output of a summed key (a
// URICount for a URI).
func countLines(key string, n int64,
	schemes, hosts, domains func(string), uris func(URICount), hostLinks, domainLinks func(string)) {
	v := key[1:]
	switch key[0] {
	case kindHostLink:
		hostLinks(linkLine(v, n))
	case kindDomainLink:
		domainLinks(linkLine(v, n))
	case kindScheme:
		schemes(countLine("scheme", v, false, "", n))
	case kindHost:
		if v == absent {
			hosts(countLine("host", "", true, "", n))
			return
		}
		v = v[1:]
		hosts(countLine("host", v, false, registrableDomain(v), n))
	case kindDomain:
		if v == absent {
			domains(countLine("domain", "", true, "", n))
			return
		}
		domains(countLine("domain", v[1:], false, "", n))
	case kindURI:
		uris(URICount{URI: v, Count: n})
	}
}

// countLine is one line of a count output: {"KEY":VALUE,"count":N}, the
// value null when absent (a URI without authority has no host), and for a
// host its registrable domain.
func countLine(key, value string, null bool, domain string, n int64) string {
	b := make([]byte, 0, 32+len(value)+len(domain))
	b = append(b, `{"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	if null {
		b = append(b, "null"...)
	} else {
		b = appendString(b, value)
	}
	if key == "host" {
		b = append(b, `,"domain":`...)
		if domain == "" {
			b = append(b, "null"...)
		} else {
			b = appendString(b, domain)
		}
	}
	b = append(b, `,"count":`...)
	b = appendInt(b, n)
	return string(append(b, '}'))
}

func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

func uriLine(c URICount) string {
	b := append([]byte(`{"uri":`), nil...)
	b = appendString(b, c.URI)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, c.Count, 10)
	return string(append(b, '}'))
}

// countOutputs are the lines of the count outputs, and the URI counts.
type countOutputs struct {
	schemes, hosts, domains, uris, hostLinks, domainLinks beam.PCollection
}

// counts sums the keys and splits them into the lines of the scheme,
// host, domain and link graph outputs and the URI counts. The sums are
// partial where the keys are made (searchFn sums a file's, batchKeysFn a
// bundle's), sent on in batches, one a shard of the keys (countShards),
// grouped by shard and summed there: what crosses the network is a key
// and a count per bundle, not per result, in a few thousand elements,
// not one a key.
func counts(s beam.Scope, keyed ...beam.PCollection) countOutputs {
	s = s.Scope("Counts")
	// Batched right after each search, in its stage: batched after a
	// Flatten of the searches' keys, each (key, count) was an element
	// of its own between stages, which prism held with its state (the
	// 250 MB collection: 3.4 GB of peak RSS and 22 s, against 0.25 GB
	// and 9 s).
	batches := make([]beam.PCollection, len(keyed))
	for i, k := range keyed {
		batches[i] = beam.ParDo(s, &batchKeysFn{}, k)
	}
	grouped := beam.GroupByKey(s, beam.Flatten(s, batches...))
	out := beam.ParDoN(s, &sumShardFn{}, grouped)
	return countOutputs{out[0], out[1], out[2], out[3], out[4], out[5]}
}
