package mail

import (
	"mime"
	"strings"
)

// parseContentType reads a Content-Type field value the lenient way
// (behaviour §9): the media type is the text before the first ";",
// whatever follows it, so "text/html;;;;" is HTML and
// "application/octet-stream; name=\"a b" is not text. ok is false when
// that text is no type/subtype (RFC 2045 5.2 then says text/plain). The
// parameters are those that parse: when the whole list does not, each
// piece between semicolons is tried alone and the good ones kept
// (together, so that RFC 2231 continuations still join). Names are lower
// case.
func parseContentType(v string) (mediaType string, params mediaParams, ok bool) {
	head, rest, _ := strings.Cut(v, ";")
	mediaType, ok = mediaTypeOf(head)
	if !ok {
		mediaType = ""
	}
	if strings.TrimSpace(rest) == "" {
		return mediaType, mediaParams{}, ok
	}
	if p, fast := simpleParams(rest); fast {
		return mediaType, p, ok
	}
	if _, p, err := mime.ParseMediaType("x/x;" + rest); err == nil {
		return mediaType, mediaParams{m: p}, ok
	}
	var good []string
	for _, piece := range splitParams(rest) {
		if strings.TrimSpace(piece) == "" {
			continue
		}
		if _, _, err := mime.ParseMediaType("x/x;" + piece); err == nil {
			good = append(good, piece)
		}
	}
	if len(good) == 0 {
		return mediaType, mediaParams{}, ok
	}
	if _, p, err := mime.ParseMediaType("x/x;" + strings.Join(good, ";")); err == nil {
		return mediaType, mediaParams{m: p}, ok
	}
	// The good pieces clash together (a parameter twice, a broken
	// continuation): each alone, the first of a name winning.
	m := map[string]string{}
	for _, piece := range good {
		_, p, _ := mime.ParseMediaType("x/x;" + piece)
		for k, val := range p {
			if _, dup := m[k]; !dup {
				m[k] = val
			}
		}
	}
	params = mediaParams{m: m}
	return mediaType, params, ok
}

// mediaTypeOf returns the lower-case "type/subtype" that s (the text
// before the first ";") holds, blanks and a trailing comment or other
// words after it ignored; ok is false when s holds none.
func mediaTypeOf(s string) (string, bool) {
	s = skipLWS(s)
	i := 0
	for i < len(s) && isTokenByte(s[i]) {
		i++
	}
	typ, rest := s[:i], skipLWS(s[i:])
	if typ == "" || !strings.HasPrefix(rest, "/") {
		return "", false
	}
	rest = skipLWS(rest[1:])
	j := 0
	for j < len(rest) && isTokenByte(rest[j]) {
		j++
	}
	if j == 0 {
		return "", false
	}
	if len(rest) == len(s)-i-1 {
		// No blanks around the "/": "type/subtype" is a piece of s,
		// taken without a copy (ToLower copies only when there is an
		// upper-case letter).
		return strings.ToLower(s[:i+1+j]), true
	}
	return strings.ToLower(typ + "/" + rest[:j]), true
}

// isTokenByte reports whether c may stand in an RFC 2045 token.
func isTokenByte(c byte) bool { return tokenBytes[c] }

var tokenBytes = func() (t [256]bool) {
	for c := '!'; c < 0x7F; c++ {
		t[c] = !strings.ContainsRune("()<>@,;:\\\"/[]?=", c)
	}
	return t
}()

// splitParams splits a parameter list at the semicolons outside quoted
// strings.
func splitParams(s string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// simpleParams parses the parameter list of nearly every Content-Type
// (charset=utf-8, boundary="...", format=flowed: tokens and quoted
// strings without escapes, no RFC 2231 names, no repeats) as
// mime.ParseMediaType does, without its copies; fast is false for any
// other list, which ParseMediaType then reads (5 % of an mbox's time
// went there).
func simpleParams(s string) (params mediaParams, fast bool) {
	for {
		s = skipBlanks(s)
		i := 0
		for i < len(s) && isTokenByte(s[i]) && s[i] != '*' {
			i++
		}
		name := s[:i]
		s = skipBlanks(s[i:])
		if name == "" || !strings.HasPrefix(s, "=") {
			return mediaParams{}, false
		}
		s = skipBlanks(s[1:])
		var value string
		if strings.HasPrefix(s, "\"") {
			j := 1
			for j < len(s) && s[j] != '"' {
				if c := s[j]; c == '\\' || c < ' ' || c >= 0x7F {
					return mediaParams{}, false
				}
				j++
			}
			if j == len(s) {
				return mediaParams{}, false
			}
			value, s = s[1:j], s[j+1:]
		} else {
			j := 0
			for j < len(s) && isTokenByte(s[j]) {
				j++
			}
			if j == 0 {
				return mediaParams{}, false
			}
			value, s = s[:j], s[j:]
		}
		if !params.add(strings.ToLower(name), value) {
			return mediaParams{}, false // a name twice
		}
		s = skipBlanks(s)
		if s == "" {
			return params, true
		}
		if s[0] != ';' {
			return mediaParams{}, false
		}
		s = s[1:]
		if skipBlanks(s) == "" {
			return mediaParams{}, false // a trailing ';': as ParseMediaType takes it
		}
	}
}

// mediaParams are the parameters of a Content-Type, names in lower case:
// up to four in place (nearly every list: a map a list was a tenth of
// the allocations of an mbox), more, and those mime.ParseMediaType read,
// in m.
type mediaParams struct {
	n  int
	kv [4][2]string
	m  map[string]string
}

// get returns the value of the parameter named k, "" when none.
func (p *mediaParams) get(k string) string {
	if p.m != nil {
		return p.m[k]
	}
	for _, kv := range p.kv[:p.n] {
		if kv[0] == k {
			return kv[1]
		}
	}
	return ""
}

// add adds parameter k, reporting false when it is there already.
func (p *mediaParams) add(k, v string) bool {
	if p.m == nil {
		for _, kv := range p.kv[:p.n] {
			if kv[0] == k {
				return false
			}
		}
		if p.n < len(p.kv) {
			p.kv[p.n] = [2]string{k, v}
			p.n++
			return true
		}
		p.m = p.asMap()
	}
	if _, dup := p.m[k]; dup {
		return false
	}
	p.m[k] = v
	return true
}

// asMap returns the parameters as a map (a new one unless they are one).
func (p *mediaParams) asMap() map[string]string {
	if p.m != nil {
		return p.m
	}
	m := make(map[string]string, p.n)
	for _, kv := range p.kv[:p.n] {
		m[kv[0]] = kv[1]
	}
	return m
}

// skipBlanks returns s without its leading spaces and tabs, and skipLWS
// without its leading spaces, tabs, CRs and LFs: strings.TrimLeft builds
// its set of bytes on every call, which was most of its cost here (three
// to six calls a Content-Type field).
func skipBlanks(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

func skipLWS(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return s[i:]
}

// htmlFileName reports whether the file name of a part, the name
// parameter of its Content-Type (params) or the filename parameter of its
// Content-Disposition (disposition, the field's value), ends in ".htm" or
// ".html", in any case: such a part is read as HTML whatever its media
// type says (behaviour §9).
func htmlFileName(params *mediaParams, disposition string) bool {
	if isHTMLName(params.get("name")) {
		return true
	}
	if disposition == "" {
		return false
	}
	_, rest, ok := strings.Cut(disposition, ";")
	if !ok {
		return false
	}
	_, dp, _ := parseContentType("x/x;" + rest)
	return isHTMLName(dp.get("filename"))
}

func isHTMLName(name string) bool {
	name = strings.TrimSpace(name)
	n := len(name)
	return n > 4 && strings.EqualFold(name[n-4:], ".htm") || n > 5 && strings.EqualFold(name[n-5:], ".html")
}
