package uri

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/net/idna"
)

// MixedScript reports whether a label of host mixes scripts that the
// "highly restrictive" profile of Unicode's UTS #39 (5.2) does not allow
// together: a label is fine when its characters, Common and Inherited ones
// (digits, hyphen, marks) aside, are of one script, or are covered by one
// of Latin + Han + Hiragana + Katakana (Japanese), Latin + Han + Bopomofo
// (Chinese) and Latin + Han + Hangul (Korean). An A-label is read as its
// Unicode label, so that xn--pypal-4ve.com (pаypal.com with a Cyrillic а)
// is caught as well. The scripts are those of the standard unicode
// package's Script tables.
func MixedScript(host string) bool {
	for label := range strings.SplitSeq(host, ".") {
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			u, err := idna.Punycode.ToUnicode(strings.ToLower(label))
			if err != nil {
				continue
			}
			label = u
		}
		if isASCII(label) {
			continue // Latin and Common only
		}
		if mixedLabel(label) {
			return true
		}
	}
	return false
}

// The script sets UTS #39 "highly restrictive" allows beside the single
// scripts (5.2).
var allowedScriptSets = [][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

func mixedLabel(label string) bool {
	var scripts []string
	for _, r := range label {
		s := scriptOf(r)
		if s == "" || slices.Contains(scripts, s) {
			continue
		}
		scripts = append(scripts, s)
	}
	if len(scripts) <= 1 {
		return false
	}
	for _, set := range allowedScriptSets {
		covered := true
		for _, s := range scripts {
			if !slices.Contains(set, s) {
				covered = false
				break
			}
		}
		if covered {
			return false
		}
	}
	return true
}

// scriptTable is a script of the unicode package's Scripts.
type scriptTable struct {
	name  string
	table *unicode.RangeTable
}

// scriptTables lists unicode.Scripts with the scripts of most hosts first
// (a lookup tries them in turn), Common and Inherited left out.
var scriptTables = sync.OnceValue(func() []scriptTable {
	first := []string{"Latin", "Han", "Hiragana", "Katakana", "Hangul", "Cyrillic", "Greek", "Arabic", "Hebrew", "Thai", "Bopomofo"}
	var ts []scriptTable
	for _, name := range first {
		ts = append(ts, scriptTable{name, unicode.Scripts[name]})
	}
	var rest []string
	for name := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && !slices.Contains(first, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	for _, name := range rest {
		ts = append(ts, scriptTable{name, unicode.Scripts[name]})
	}
	return ts
})

// scriptOf returns the Script property of r, "" for Common, Inherited and
// unassigned code points (which UTS #39 ignores when it resolves a
// label's scripts).
func scriptOf(r rune) string {
	if r < 0x80 {
		if 'a' <= r|0x20 && r|0x20 <= 'z' {
			return "Latin"
		}
		return ""
	}
	if unicode.Is(unicode.Common, r) || unicode.Is(unicode.Inherited, r) {
		return ""
	}
	for _, t := range scriptTables() {
		if unicode.Is(t.table, r) {
			return t.name
		}
	}
	return ""
}
