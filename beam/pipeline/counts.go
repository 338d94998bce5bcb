package pipeline

import (
	"context"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urix-dev/urix/output"
	"github.com/urix-dev/urix/uri"
)

func init() {
	register.Function2x1[int64, int64, int64](sumInt64)
	register.DoFn9x0[context.Context, string, int64, func(string), func(string), func(string), func(URICount), func(string), func(string)](&splitCountsFn{})
	register.Emitter1[URICount]()
	register.Function2x1[URICount, URICount, bool](lessURICount)
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
// (uri.RegistrableDomain, behaviour §10).
func registrableDomain(host string) string { return uri.RegistrableDomain(host) }

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

func sumInt64(a, b int64) int64 { return a + b }

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

// splitCountsFn makes the lines of the count outputs of the summed keys.
type splitCountsFn struct{}

func (splitCountsFn) ProcessElement(ctx context.Context, key string, n int64,
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
// partial where the keys are made (searchFn sums a bundle's; the runner
// lifts sumInt64 before the shuffle as a combiner), so that what crosses
// the network is a key and a count per bundle, not per result.
func counts(s beam.Scope, keyed beam.PCollection) countOutputs {
	s = s.Scope("Counts")
	summed := beam.CombinePerKey(s, sumInt64, keyed)
	out := beam.ParDoN(s, &splitCountsFn{}, summed)
	return countOutputs{out[0], out[1], out[2], out[3], out[4], out[5]}
}
