package mail

import "bytes"

// Where URLs hide in HTML besides the attributes that are one
// (behaviour §9): url(...) of CSS, and the URL of <meta http-equiv=refresh>.

// cssURLs returns the URLs of the url(...) tokens of CSS text (a style
// attribute or sheet), as CSS Syntax Level 3 reads them (4.3.6): after
// "url(" and whitespace, a quoted string to its quote, or an unquoted run
// to ")" with the whitespace before it trimmed. Escapes are left as they
// stand; "url" matches in any case. Empty URLs are left out.
func cssURLs(css []byte) []string {
	var out []string
	for i := 0; i+4 <= len(css); {
		j := indexFoldURL(css[i:])
		if j < 0 {
			break
		}
		i += j + 4
		for i < len(css) && isCSSSpace(css[i]) {
			i++
		}
		if i == len(css) {
			break
		}
		var u []byte
		if q := css[i]; q == '"' || q == '\'' {
			i++
			k := bytes.IndexByte(css[i:], q)
			if k < 0 {
				k = len(css) - i // an unclosed string runs to the end (EOF)
			}
			u = css[i : i+k]
			i += k
		} else {
			k := bytes.IndexByte(css[i:], ')')
			if k < 0 {
				k = len(css) - i
			}
			u = bytes.TrimRightFunc(css[i:i+k], func(r rune) bool { return r < 0x80 && isCSSSpace(byte(r)) })
			i += k
		}
		if len(u) > 0 {
			out = append(out, string(u))
		}
	}
	return out
}

// indexFoldURL is the index of the first "url(" in b, "url" in any case.
func indexFoldURL(b []byte) int {
	for i := 0; i+4 <= len(b); i++ {
		k := bytes.IndexByte(b[i:], '(')
		if k < 0 {
			return -1
		}
		i += k
		if i >= 3 && b[i-3]|0x20 == 'u' && b[i-2]|0x20 == 'r' && b[i-1]|0x20 == 'l' {
			return i - 3
		}
	}
	return -1
}

func isCSSSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// refreshURL returns the URL of the content of <meta http-equiv=refresh>
// by the HTML standard's shared declarative refresh steps (4.2.5.3):
// the time (digits and dots), then ";" or "," and whitespace, then an
// optional "url" and "=", then the URL, to its quote when it starts with
// one. ok is false when content gives no URL ("5": reload the page).
func refreshURL(content []byte) (string, bool) {
	s := content
	skip := func() {
		for len(s) > 0 && isCSSSpace(s[0]) {
			s = s[1:]
		}
	}
	skip()
	n := 0
	for n < len(s) && ('0' <= s[n] && s[n] <= '9' || s[n] == '.') {
		n++
	}
	if n == 0 {
		return "", false // no time: not a refresh
	}
	s = s[n:]
	skip()
	if len(s) > 0 && (s[0] == ';' || s[0] == ',') {
		s = s[1:]
	} else if len(s) > 0 {
		return "", false // "5x": the time must end so
	}
	skip()
	if len(s) >= 3 && s[0]|0x20 == 'u' && s[1]|0x20 == 'r' && s[2]|0x20 == 'l' {
		t := s[3:]
		for len(t) > 0 && isCSSSpace(t[0]) {
			t = t[1:]
		}
		if len(t) > 0 && t[0] == '=' {
			s = t[1:]
			skip()
		}
	}
	if len(s) > 0 && (s[0] == '"' || s[0] == '\'') {
		q := s[0]
		s = s[1:]
		if k := bytes.IndexByte(s, q); k >= 0 {
			s = s[:k]
		}
	}
	if len(s) == 0 {
		return "", false
	}
	return string(s), true
}

// containsFoldASCII reports whether b holds s (lower case ASCII) in any
// case.
func containsFoldASCII(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if b[i]|0x20 == s[0] && equalFoldASCII(b[i:i+len(s)], s) {
			return true
		}
	}
	return false
}
