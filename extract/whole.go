package extract

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/urix-dev/urix/internal/scan"

	"github.com/urix-dev/urix/uri"
)

// Whole takes value as one candidate, whole: the value of an HTML
// attribute that holds a URL, say (behaviour §3.5, §9.5). When a URI that
// opts accept starts at its first byte, the match is the whole value,
// valid or invalid as a whole: a character that cannot be in a URI (a
// space, an NBSP, a '{') makes it invalid, with the reason and its byte
// position; it is never cut to a valid prefix nor glued up around the
// character. ok is false when no URI starts there (a relative reference,
// "javascript:", a word).
//
// The match's positions are within value (Offset 0, End len(value)); Raw
// is value.
func Whole(value string, opts Options) (m Match, ok bool) {
	// The first fault: a character that can never be in a URI (an NBSP
	// is in RFC 3987's ucschar, yet ends a URI in text), or else what
	// validation finds.
	cut := len(value)
	verr := uri.Validate(value, uri.KindIRI)
	var ue *uri.Error
	if errors.As(verr, &ue) {
		cut = ue.Offset
	}
	if bad := scan.BadAt(value); bad >= 0 && bad <= cut {
		cut = bad
		r, _ := utf8.DecodeRuneInString(value[bad:])
		verr = &uri.Error{Input: value, Offset: bad, Reason: fmt.Sprintf("%U %q cannot be in a URI", r, r)}
	}
	// What the scanner makes of the value up to its first fault, wrapped
	// as the reader wraps attribute values: is a URI found from its start?
	// Whitespace stops that prefix, so it is never glued across.
	opts.OnSkip = nil
	s := NewScanner(strings.NewReader("<"+value[:cut]+">"), opts)
	if !s.Scan() {
		return Match{}, false
	}
	first := *s.Match()
	if first.Offset != 1 {
		return Match{}, false
	}
	if verr == nil && first.End == int64(1+len(value)) {
		first.Raw = []byte(value)
		first.Offset, first.End, first.Column = 0, int64(len(value)), first.Column-1
		return first, true
	}
	if verr == nil {
		// Valid as a URI by itself, yet the scanner reads it otherwise
		// (a trailing wrapper character): the value as a whole is what
		// was written, and the reader's own reading stands.
		return Match{}, false
	}
	return Match{
		URI: value, Raw: []byte(value),
		Offset: 0, End: int64(len(value)), Line: 1, Column: 1,
		Delimiter: first.Delimiter, Flags: first.Flags &^ (Rejoined | HyphenAmbiguous),
		Valid: false, Err: verr,
	}, true
}
