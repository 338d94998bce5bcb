package output

import (
	"encoding/json"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
	"github.com/urix-dev/urix/uri"
)

// Link is what a mail filter asks of each link (behaviour §10), the
// fields of a Record beside those of behaviour §7.
type Link struct {
	// Host is the host the browser connects to (uri.BrowserHost), for a
	// URI with a host.
	Host *string `json:"host,omitempty"`
	// Domain is the registrable domain of Host; written null when it has
	// none (an IP address, a one-label host, a public suffix), left out
	// with Host.
	Domain Domain `json:"domain,omitzero"`
	// Text is the visible text of the <a> or <area> the URI is the href
	// of: whitespace collapsed, trimmed, at most 256 bytes.
	Text string `json:"text,omitempty"`
	// EmbeddedIn is, for a URI found inside another one (--embedded,
	// flagged embedded), that URI.
	EmbeddedIn string `json:"embedded_in,omitempty"`
}

// Domain is the registrable domain of a URI with a host: Name, "" for
// none, which JSON writes null. The zero Domain (no host) is left out.
type Domain struct {
	Name    string
	Present bool // the URI has a host
}

// MarshalJSON writes d as a JSON string, null when it has no Name.
func (d Domain) MarshalJSON() ([]byte, error) {
	if d.Name == "" {
		return []byte("null"), nil
	}
	return json.Marshal(d.Name)
}

// UnmarshalJSON reads a JSON string or null.
func (d *Domain) UnmarshalJSON(b []byte) error {
	*d = Domain{Present: true}
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, &d.Name)
}

// The flags of behaviour §10, in the order they are written after those
// of the match.
const (
	flagDisplayMismatch = "display_mismatch"
	flagNumericHost     = "numeric_host"
	flagUserinfo        = "userinfo"
	flagEncodedHost     = "encoded_host"
	flagMixedScript     = "mixed_script"
	flagEmbedded        = "embedded"
)

// linkFacts are the facts of one URI as the JSON output writes them.
type linkFacts struct {
	uri.Facts
	mismatch   bool
	text       string
	embeddedIn string
}

// linkFactsOf computes the facts of m, a URI found at from: those of a
// valid URI as found (its normal form would have decoded an encoded host;
// valid: no need to parse it again), the display mismatch of an <a>'s
// href against from.Text.
func linkFactsOf(from *document.Origin, m *extract.Match) linkFacts {
	lf := linkFacts{embeddedIn: m.EmbeddedIn}
	if from != nil && m.EmbeddedIn == "" {
		// The text is the <a>'s, whose href m is; a URI inside that
		// href has no text of its own.
		lf.text = from.Text
	}
	if !m.Valid {
		return lf
	}
	lf.Facts = uri.FactsOfValid(m.URI)
	if lf.text != "" && lf.HasHost {
		lf.mismatch = lf.Facts.DisplayMismatch(lf.text)
	}
	return lf
}

// flagsSet returns each flag of behaviour §10 in its order, with whether
// it is set.
func (lf *linkFacts) flagsSet() [6]struct {
	set  bool
	name string
} {
	return [...]struct {
		set  bool
		name string
	}{
		{lf.mismatch, flagDisplayMismatch},
		{lf.NumericHost, flagNumericHost},
		{lf.Userinfo, flagUserinfo},
		{lf.EncodedHost, flagEncodedHost},
		{lf.MixedScript, flagMixedScript},
		{lf.embeddedIn != "", flagEmbedded},
	}
}

// addFlags appends the names of the flags set to flags.
func (lf *linkFacts) addFlags(flags []string) []string {
	for _, f := range lf.flagsSet() {
		if f.set {
			flags = append(flags, f.name)
		}
	}
	return flags
}

// appendFlags appends the flags set to a JSON list; comma says whether
// the list already holds one. It allocates nothing.
func (lf *linkFacts) appendFlags(b []byte, comma bool) []byte {
	if !lf.mismatch && !lf.NumericHost && !lf.Userinfo && !lf.EncodedHost && !lf.MixedScript && lf.embeddedIn == "" {
		return b // most links
	}
	for _, f := range lf.flagsSet() {
		if !f.set {
			continue
		}
		if comma {
			b = append(b, ',')
		}
		comma = true
		b = append(b, '"')
		b = append(b, f.name...)
		b = append(b, '"')
	}
	return b
}

// appendFields appends host, domain, text and embedded_in, each when it
// applies, as encoding/json writes Link.
func (lf *linkFacts) appendFields(b []byte) []byte {
	if lf.HasHost {
		b = append(b, `,"host":`...)
		b = appendString(b, lf.Host)
		b = append(b, `,"domain":`...)
		if lf.Domain == "" {
			b = append(b, "null"...)
		} else {
			b = appendString(b, lf.Domain)
		}
	}
	b = appendOptional(b, "text", lf.text)
	return appendOptional(b, "embedded_in", lf.embeddedIn)
}

// record returns the Link of a Record.
func (lf *linkFacts) record() Link {
	l := Link{Text: lf.text, EmbeddedIn: lf.embeddedIn}
	if lf.HasHost {
		host := lf.Host
		l.Host, l.Domain = &host, Domain{Name: lf.Domain, Present: true}
	}
	return l
}
