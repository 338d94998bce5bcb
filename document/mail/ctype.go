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
func parseContentType(v string) (mediaType string, params map[string]string, ok bool) {
	head, rest, _ := strings.Cut(v, ";")
	mediaType, ok = mediaTypeOf(head)
	if !ok {
		mediaType = ""
	}
	if strings.TrimSpace(rest) == "" {
		return mediaType, map[string]string{}, ok
	}
	if p, fast := simpleParams(rest); fast {
		return mediaType, p, ok
	}
	if _, p, err := mime.ParseMediaType("x/x;" + rest); err == nil {
		return mediaType, p, ok
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
		return mediaType, map[string]string{}, ok
	}
	if _, p, err := mime.ParseMediaType("x/x;" + strings.Join(good, ";")); err == nil {
		return mediaType, p, ok
	}
	// The good pieces clash together (a parameter twice, a broken
	// continuation): each alone, the first of a name winning.
	params = map[string]string{}
	for _, piece := range good {
		_, p, _ := mime.ParseMediaType("x/x;" + piece)
		for k, val := range p {
			if _, dup := params[k]; !dup {
				params[k] = val
			}
		}
	}
	return mediaType, params, ok
}

// mediaTypeOf returns the lower-case "type/subtype" that s (the text
// before the first ";") holds, blanks and a trailing comment or other
// words after it ignored; ok is false when s holds none.
func mediaTypeOf(s string) (string, bool) {
	s = strings.TrimLeft(s, " \t\r\n")
	i := 0
	for i < len(s) && isTokenByte(s[i]) {
		i++
	}
	typ := s[:i]
	s = strings.TrimLeft(s[i:], " \t\r\n")
	if typ == "" || !strings.HasPrefix(s, "/") {
		return "", false
	}
	s = strings.TrimLeft(s[1:], " \t\r\n")
	j := 0
	for j < len(s) && isTokenByte(s[j]) {
		j++
	}
	if j == 0 {
		return "", false
	}
	return strings.ToLower(typ + "/" + s[:j]), true
}

// isTokenByte reports whether c may stand in an RFC 2045 token.
func isTokenByte(c byte) bool {
	if c <= ' ' || c >= 0x7F {
		return false
	}
	return !strings.ContainsRune("()<>@,;:\\\"/[]?=", rune(c))
}

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
func simpleParams(s string) (params map[string]string, fast bool) {
	params = make(map[string]string, 2)
	for {
		s = strings.TrimLeft(s, " \t")
		i := 0
		for i < len(s) && isTokenByte(s[i]) && s[i] != '*' {
			i++
		}
		name := s[:i]
		s = strings.TrimLeft(s[i:], " \t")
		if name == "" || !strings.HasPrefix(s, "=") {
			return nil, false
		}
		s = strings.TrimLeft(s[1:], " \t")
		var value string
		if strings.HasPrefix(s, "\"") {
			j := 1
			for j < len(s) && s[j] != '"' {
				if c := s[j]; c == '\\' || c < ' ' || c >= 0x7F {
					return nil, false
				}
				j++
			}
			if j == len(s) {
				return nil, false
			}
			value, s = s[1:j], s[j+1:]
		} else {
			j := 0
			for j < len(s) && isTokenByte(s[j]) {
				j++
			}
			if j == 0 {
				return nil, false
			}
			value, s = s[:j], s[j:]
		}
		key := strings.ToLower(name)
		if _, dup := params[key]; dup {
			return nil, false
		}
		params[key] = value
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return params, true
		}
		if s[0] != ';' {
			return nil, false
		}
		s = s[1:]
		if strings.TrimLeft(s, " \t") == "" {
			return nil, false // a trailing ';': as ParseMediaType takes it
		}
	}
}
