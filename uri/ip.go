package uri

import (
	"fmt"
	"strings"
)

// ipLiteral checks the inside of an IP-literal, s[i:end] (RFC 3986 3.2.2,
// with IPv6addrz of RFC 6874):
//
//	IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"
//	IPv6addrz  = IPv6address "%25" ZoneID
//	ZoneID     = 1*( unreserved / pct-encoded )
func (p *parser) ipLiteral(i, end int) *Error {
	s := p.s
	if i < end && (s[i] == 'v' || s[i] == 'V') {
		return p.ipvFuture(i, end)
	}
	addrEnd := end
	if pct := strings.IndexByte(s[i:end], '%'); pct >= 0 {
		addrEnd = i + pct
		if err := p.zoneID(addrEnd, end); err != nil {
			return err
		}
	}
	return p.ipv6(i, addrEnd)
}

// zoneID checks "%25" ZoneID in s[i:end] (RFC 6874 section 2).
func (p *parser) zoneID(i, end int) *Error {
	s := p.s
	if !strings.HasPrefix(s[i:end], "%25") {
		return p.fail(i, "IPv6 zone ID must be introduced by %25, not a bare '%' (RFC 6874)")
	}
	if i+3 == end {
		return p.fail(i+3, "empty IPv6 zone ID")
	}
	for j := i + 3; j < end; j++ {
		switch c := s[j]; {
		case isUnreserved(c):
		case c == '%':
			if j+2 >= end || !isHex(s[j+1]) || !isHex(s[j+2]) {
				return p.badPercent(j)
			}
			j += 2
		default:
			return p.unexpected(j, "IPv6 zone ID")
		}
	}
	return nil
}

// ipvFuture checks IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ).
func (p *parser) ipvFuture(i, end int) *Error {
	s := p.s
	j := i + 1
	for j < end && isHex(s[j]) {
		j++
	}
	if j == i+1 {
		return p.fail(j, "IPvFuture needs hex digits after 'v'")
	}
	if j == end || s[j] != '.' {
		return p.fail(j, "IPvFuture needs '.' after its version")
	}
	j++
	if j == end {
		return p.fail(j, "empty IPvFuture address")
	}
	for ; j < end; j++ {
		if s[j] == '%' { // IPvFuture has no pct-encoded (RFC 3986 3.2.2)
			return p.fail(j, "'%' is not allowed in an IPvFuture address")
		}
		if class[s[j]]&cUserinfo == 0 {
			return p.unexpected(j, "IPvFuture address")
		}
	}
	return nil
}

// ipv6 checks IPv6address (RFC 3986 3.2.2) in s[i:end]: eight 16-bit groups
// of one to four hex digits, the last two of which may be an IPv4address,
// with at most one "::" standing for one or more groups of zeros.
func (p *parser) ipv6(i, end int) *Error {
	s := p.s
	if i == end {
		return p.fail(i, "empty IPv6 address")
	}
	groups, elided := 0, false
	if strings.HasPrefix(s[i:end], "::") {
		elided = true
		i += 2
	} else if s[i] == ':' {
		return p.fail(i, "IPv6 address starts with a single ':'")
	}
	for i < end {
		j := i
		for j < end && isHex(s[j]) {
			j++
		}
		if j < end && s[j] == '.' {
			if err := p.ipv4(i, end); err != nil {
				return err
			}
			groups += 2
			break
		}
		switch {
		case j == i:
			return p.unexpected(i, "IPv6 address")
		case j-i > 4:
			return p.fail(i, "more than four hex digits in an IPv6 group")
		}
		groups++
		if j == end {
			break
		}
		if s[j] != ':' {
			return p.unexpected(j, "IPv6 address")
		}
		if j+1 < end && s[j+1] == ':' {
			if elided {
				return p.fail(j, "two '::' in IPv6 address")
			}
			elided = true
			i = j + 2
			continue
		}
		if j+1 == end {
			return p.fail(j, "IPv6 address ends with a single ':'")
		}
		i = j + 1
	}
	switch {
	case elided && groups > 7:
		return p.fail(end, fmt.Sprintf("IPv6 address with '::' has %d groups; at most 7 are allowed", groups))
	case !elided && groups != 8:
		return p.fail(end, fmt.Sprintf("IPv6 address has %d groups, not 8", groups))
	}
	return nil
}

// ipv4 checks IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
// in s[i:end], where a dec-octet is 0 to 255 without leading zeros.
func (p *parser) ipv4(i, end int) *Error {
	s := p.s
	for octet := 0; octet < 4; octet++ {
		if octet > 0 {
			if i == end || s[i] != '.' {
				return p.fail(i, "IPv4 address in IPv6 needs four numbers")
			}
			i++
		}
		j := i
		for j < end && isDigit(s[j]) && j-i < 4 {
			j++
		}
		if j == i {
			return p.fail(i, "IPv4 address in IPv6 needs a number here")
		}
		if !isDecOctet(s[i:j]) {
			return p.fail(i, fmt.Sprintf("%s is not a number from 0 to 255 without leading zeros", s[i:j]))
		}
		i = j
	}
	if i != end {
		return p.unexpected(i, "IPv4 address")
	}
	return nil
}

// isDecOctet reports whether d (all digits) is a dec-octet.
func isDecOctet(d string) bool {
	switch {
	case len(d) == 1:
		return true
	case len(d) > 3 || d[0] == '0':
		return false
	case len(d) == 3:
		return d <= "255"
	}
	return true
}
