// Package quote caps what urix's messages quote of their input (at most
// 80 bytes and an ellipsis), so that a 1 MB boundary is not echoed whole.
package quote

import (
	"strings"
	"unicode/utf8"
)

// quoteCap is the most of the input a message quotes: a MIME boundary of
// 1 MB was echoed whole on stderr, and so was a header field's name, a
// charset, a Content-Type, an argument of check.
const quoteCap = 80

// ellipsis ends a quote that was cut.
const ellipsis = "…"

// Quotes shortens what a message (after its file name) quotes of the
// input to quoteCap bytes and an ellipsis: each quoted part ("...", as
// %q writes it or quoted plainly) and each word outside quotes (a field
// name is not quoted). urix's own words are all shorter.
func Quotes(msg string) string {
	if len(msg) <= quoteCap {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		switch msg[i] {
		case '"':
			j := i + 1
			for j < len(msg) && msg[j] != '"' {
				if msg[j] == '\\' {
					j++ // %q's \" is no end
				}
				j++
			}
			j = min(j, len(msg))
			b.WriteByte('"')
			b.WriteString(Input(msg[i+1 : j]))
			if j < len(msg) {
				b.WriteByte('"')
				j++
			}
			i = j
		case ' ':
			b.WriteByte(' ')
			i++
		default:
			j := i
			for j < len(msg) && msg[j] != ' ' && msg[j] != '"' {
				j++
			}
			// The message's own ':' or ';' after the word stays.
			word := strings.TrimRight(msg[i:j], ":;,")
			b.WriteString(Input(word))
			b.WriteString(msg[i+len(word) : j])
			i = j
		}
	}
	return b.String()
}

// Input is s cut to quoteCap bytes and an ellipsis when longer: cut
// before a character, and before an escape of %q (\x00, \u2028) that the
// cut would split.
func Input(s string) string {
	if len(s) <= quoteCap || len(s) <= quoteCap+len(ellipsis) && strings.HasSuffix(s, ellipsis) {
		return s // short, or cut already (a worker's warning, given back)
	}
	cut := quoteCap
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	// The longest escape %q writes is \U0010ffff, ten bytes.
	if k := strings.LastIndexByte(s[:cut], '\\'); k >= 0 && cut-k < 10 {
		for k > 0 && s[k-1] == '\\' {
			k-- // \\ is one escape: cut before both
		}
		cut = k
	}
	return s[:cut] + ellipsis
}

// Message caps what the message text quotes of the input, past its
// file name prefix ("FILE: "), which is kept whole.
func Message(text, file string) string {
	if file != "" && strings.HasPrefix(text, file+": ") {
		n := len(file) + 2
		return text[:n] + Quotes(text[n:])
	}
	return Quotes(text)
}
