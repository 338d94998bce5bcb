package output

import "strings"

// Colors are the SGR sequences that colour the parts of a plain line, as
// grep colours them on a terminal (grep's manual, GREP_COLORS): the file
// name, the line, column and byte numbers, the ':' separators, and the
// URI as the match. An empty one leaves its part as it is.
type Colors struct {
	FileName, LineNumber, ByteOffset, Separator, Match string
	// NoEraseLine leaves out the Erase in Line (\33[K) after each
	// sequence (GREP_COLORS "ne").
	NoEraseLine bool
}

// DefaultColors are grep's: GREP_COLORS='ms=01;31:mc=01;31:sl=:cx=:fn=35:ln=32:bn=32:se=36'.
var DefaultColors = Colors{FileName: "35", LineNumber: "32", ByteOffset: "32", Separator: "36", Match: "01;31"}

// ParseGrepColors returns DefaultColors changed by a GREP_COLORS value:
// fn, ln, bn, se, ms and mt (the match; mc has no use here: urix prints
// no context) and ne; others (sl, cx, rv) are grep's alone, and an entry
// whose value is not digits and ';' is ignored, as a bad capability.
func ParseGrepColors(s string) Colors {
	c := DefaultColors
	for _, entry := range strings.Split(s, ":") {
		name, value, hasValue := strings.Cut(entry, "=")
		if !hasValue {
			if name == "ne" {
				c.NoEraseLine = true
			}
			continue
		}
		if strings.Trim(value, "0123456789;") != "" {
			continue
		}
		switch name {
		case "fn":
			c.FileName = value
		case "ln":
			c.LineNumber = value
		case "bn":
			c.ByteOffset = value
		case "se":
			c.Separator = value
		case "ms", "mt":
			c.Match = value
		}
	}
	return c
}

// start and end put a part in the colour sgr, as grep writes it:
// "\33[" sgr "m\33[K" before, "\33[m\33[K" after; nothing when sgr is
// empty.
func (c *Colors) start(b []byte, sgr string) []byte {
	if sgr == "" {
		return b
	}
	b = append(b, "\x1b["...)
	b = append(b, sgr...)
	b = append(b, 'm')
	if !c.NoEraseLine {
		b = append(b, "\x1b[K"...)
	}
	return b
}

func (c *Colors) end(b []byte, sgr string) []byte {
	if sgr == "" {
		return b
	}
	b = append(b, "\x1b[m"...)
	if !c.NoEraseLine {
		b = append(b, "\x1b[K"...)
	}
	return b
}
