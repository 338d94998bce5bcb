package extract

import (
	"strings"
	"testing"
)

// behaviour §3: delimiting.
func TestDelimiting(t *testing.T) {
	runMarkCases(t, []markCase{
		// <...>
		{in: "see <|http://a/b|> now"},
		{in: "see < |http://a/b| > now"},
		{in: "<URL:|http://a/b|>"},
		{in: "<URL: |http://a/b|>"},
		{in: "<url:|http://a/b|>"},
		{in: "URL:|http://a/b|"},
		{in: "<|http://a/b\n   c/d|>", want: []string{"http://a/bc/d"}},
		{in: "<|http://a/b\r\n\tc/d|>", want: []string{"http://a/bc/d"}},
		{in: "<|http://a/b\rc/d|>", want: []string{"http://a/bc/d"}},
		{in: "<\n  |http://a/b|\n>"},
		{in: "<URL:\n  |http://a/b|\n>"},
		{in: "<|http://a/b c d|>", want: []string{"http://a/bcd"}},
		{in: "<|http://a/b.|>"},
		{in: "<|http://a/b)|>"},
		// A character that cannot be in a URI makes the whole candidate
		// invalid (see TestWrappers), unless it shows that the '<' was
		// no wrapper: then the text is read as whitespace-delimited.
		{in: "<|http://a/\"b\"|>", want: []string{"!http://a/\"b\""}},
		{in: "x < |https://a.example/p| = c && c < 32 >"},
		{in: "Leon Ho < |https://a.example/p| {llch}@example.com>"},
		{in: "<|http://a/{b}|>", want: []string{"!http://a/{b}"}},
		{in: "<|ht\ntp://a/b|>", want: []string{"http://a/b"}}, // see TestAngleBreaks
		{in: "<see |http://a/b|>"},
		{in: "|http://a/b|<tail"},
		{in: "Look at <|http://a/b|\nand then.\n\nNext> ok"},
		{in: "<|http://a/b|\n\t \nc>"},
		{in: "<|http://a/b|\r\n\r\nc>"},
		{in: "<|http://a/b|\x00c>"},
		{in: "<|http://a/b| and |http://c/d|"},
		{in: "<<|http://a/b|>>"},
		{in: "<|http://a/| <|http://b/|>"[0:0] + "<|http://a/b|> <|http://c/d|>"},
		{in: "<|http://a/|\n>"},
		// "..."
		{in: `"|http://a/b|"`},
		{in: `say "|http://a/b|".`},
		{in: `"|http://a/b.|"`[0:0] + `"|http://a/b|."`},
		{in: "\"|http://a/b\nc/d|\"", want: []string{"http://a/bc/d"}},
		{in: "\"|http://a/b\r\n    c/d|\" here", want: []string{"http://a/bc/d"}},
		{in: "\"|http://a/b|\nc d\""},
		{in: "\"|http://a/b\nc/d\nx|\"", want: []string{"http://a/bc/dx"}}, // over three lines (revision 5)
		{in: "\"|http://a/b|\n\""},
		{in: "\"|http://a/b| c\""},
		{in: "\"|http://a/b|\n\n\"c\""},
		{in: "\"|http://a/b-\nc|\"", want: []string{"http://a/b-c"}},
		{in: "\"|http://a/b\nc/|.\"", want: []string{"http://a/bc/"}},
		// brackets, braces, parens
		{in: "[|http://a/| label]"},
		{in: "[|http://a/|]"},
		{in: "{|http://a/|}"},
		{in: "(|http://a/b|)"},
		{in: "(see |http://a/b|)."},
		{in: "|http://en.wikipedia.org/wiki/Foo_(bar)|"},
		{in: "(|http://en.wikipedia.org/wiki/Foo_(bar)|)"},
		{in: "see |http://en.wikipedia.org/wiki/Foo_(bar)|."},
		{in: "|http://en.wikipedia.org/wiki/Foo_(bar)_(baz)|"},
		{in: "|http://[::1]/|"},
		{in: "[|http://[::1]/|]"},
		{in: "|http://[::1]:80/a|"},
		{in: "|http://a/b|]"},
		{in: "|http://a/b|)))"},
		{in: "((|http://a/b|))"},
		{in: "[|http://a/b|\nc]"},
		// whitespace-delimited, trailing punctuation
		{in: "|http://a/b|."},
		{in: "|http://a/b|,;:!?'\"."},
		{in: "|http://a/b|...!"},
		{in: "|http://a/b?x=1&y=2#frag|"},
		{in: "|http://a/b|\nc"},
		{in: "|http://a/b|`x` |http://c/|^ |http://d/|\\e |http://f/|{g} |http://h/|\\|i"},
		{in: "|http://a/b|>"},
		{in: "|http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING|"},
		{in: "|http://a/b's|"},
		{in: "|http://a/b|'"},
		{in: "|http://a/%7Euser|"},
		{in: "|http://a/%zz|", want: []string{"!http://a/%zz"}},
		{in: "|http://a:port/|", want: []string{"!http://a:port/"}},
		{in: "|http://[::1/|", want: []string{"!http://[::1/"}},
		{in: "|http:///x|", want: []string{"!http:///x"}},
		{in: "|http://[fe80::1%25eth0]/|"},
	})
}

// behaviour §3: hyphen at a line break, with each HyphenMode.
func TestHyphen(t *testing.T) {
	const one = "<|http://example.com/some-\nthing|>"
	const several = "<|http://e.com/a-\n  b-\r\n  c-  \n d|>"
	runMarkCases(t, []markCase{
		{name: "keep", in: one, want: []string{"http://example.com/some-thing"}},
		{name: "drop", in: one, want: []string{"http://example.com/something"}, opts: Options{Hyphen: HyphenDrop}},
		{name: "both", in: one, want: []string{"http://example.com/some-thing", "http://example.com/something"}, opts: Options{Hyphen: HyphenBoth}},
		{name: "several-keep", in: several, want: []string{"http://e.com/a-b-c-d"}},
		{name: "several-drop", in: several, want: []string{"http://e.com/abcd"}, opts: Options{Hyphen: HyphenDrop}},
		{name: "several-both", in: several, want: []string{"http://e.com/a-b-c-d", "http://e.com/abcd"}, opts: Options{Hyphen: HyphenBoth}},
		{name: "not-at-break", in: "<|http://e.com/a- b|>", want: []string{"http://e.com/a-b"}, opts: Options{Hyphen: HyphenBoth}},
		{name: "quoted-mail", in: "> <|http://e.com/a-\n> b|>", want: []string{"http://e.com/a-b", "http://e.com/ab"}, opts: Options{Hyphen: HyphenBoth}},
		{name: "hyphen-in-host", in: "<|http://my-\nhost.example/|>", want: []string{"http://my-host.example/"}},
	})
	ms := collectString("<http://example.com/some-\nthing>", Options{})
	if len(ms) != 1 || ms[0].Flags != Rejoined|HyphenAmbiguous || ms[0].Alt != "http://example.com/something" {
		t.Errorf("flags or alt:%s", dump(ms))
	}
	ms = collectString("<http://e.com/a-\nb>", Options{Hyphen: HyphenBoth, Unique: true})
	if len(ms) != 2 {
		t.Errorf("both with unique: two distinct forms expected:%s", dump(ms))
	}
}

// behaviour §3: mail and news quoting.
func TestMailQuote(t *testing.T) {
	runMarkCases(t, []markCase{
		{in: "> see <|http://example.com/a/\n> b/c|>", want: []string{"http://example.com/a/b/c"}},
		{in: ">> see <|http://example.com/a/\n>> b/c|>", want: []string{"http://example.com/a/b/c"}},
		{in: "> > see <|http://example.com/a/\n> > b/c|>", want: []string{"http://example.com/a/b/c"}},
		{in: ">>see <|http://example.com/a/\r\n>>\tb/\r\n>>    c|>", want: []string{"http://example.com/a/b/c"}},
		{in: "> see <|http://example.com/a/|\n>> b/c>"},
		{in: ">> see <|http://example.com/a/\n> b/c|>", want: []string{"http://example.com/a/b/c"}},
		{in: ">> see <|http://example.com/a/\nb/c|>", want: []string{"http://example.com/a/b/c"}},
		{in: "> see <|http://example.com/a/|\n>\n> b/c>"},
		{in: "> see <|http://example.com/a/|\n>  \t\n> b/c>"},
		{in: "see <|http://example.com/a/|\n> b/c>"},
		{in: "see <|http://example.com/a/\nb/c|>", want: []string{"http://example.com/a/b/c"}},
		{in: "> see <|http://example.com/a/b|>\n> next <|http://c/d|>"},
		{in: "x\n> <|http://e.com/a\n> b|>", want: []string{"http://e.com/ab"}},
		{in: "x > <|http://e.com/a|\n> b>"},
	})
}

// behaviour §1 and §4: what ends a URI.
func TestUnicodeAndControls(t *testing.T) {
	runMarkCases(t, []markCase{
		{in: "|http://例え.テスト/パス|。"},
		// Inside <...> too what always ends a URI ends it, after the
		// whitespace is dropped.
		{in: "<|http://a.example/\n b/|。>", want: []string{"http://a.example/b/"}},
		{in: "<|http://a.example/\n b/|⟩>", want: []string{"http://a.example/b/"}},
		{in: "<|http://a.example/x|”y>"},
		{in: "|http://例え.テスト/パス|、次"},
		{in: "（|http://a/b|）"},
		{in: "「|http://a/b|」"},
		{in: "“|http://a/b|”"},
		{in: "‘|http://a/b|’ «|http://c/d|» 【|http://e/f|】 〈|http://g/h|〉"},
		{in: "|http://a/b|，|http://c/d|．|http://e/f|：x；|http://g/h|！|http://i/j|？"},
		{in: "|https://en.wikipedia.org/wiki/Michelson–Morley_experiment|"},
		{in: "|http://a/b|…"},
		{in: "|http://a/b|—"},
		{in: "|http://a/b・c|・"},
		{in: "|http://a/b|\u00a0c"},
		{in: "|http://a/b|\u2028c"},
		{in: "|http://a/b|\u3000c"},
		{in: "|http://a/b|\u200bc"},
		{in: "\ufeff|http://a/b|"},
		{in: "|http://a/b|\ufeff"},
		{in: "\u202e|http://a/b|\u202c"},
		{in: "|http://a/b|\u200e"},
		{in: "|http://a/b|\u2069"},
		{in: "|http://a/b|\t|http://c/d|"},
		{in: "|http://a/b|\xffc"},
		{in: "\xff|http://a/b|\xff"},
		{in: "|http://a/b|\xe3\x81"},
		{in: "|http://a/\xe3\x81|"[0:0] + "|http://a/|\xe3\x81b"},
		{in: "|http://a/b|\x00|http://c/d|"},
		{in: "\x00|http://a/b|\x00"},
		{in: "|http://a/b|\x7fc"},
		{in: "|http://a/b|\u0085c"},
		{in: "|http://a/b|\x1bc"},
		{in: "<|http://a/b\u00a0c|>", want: []string{"http://a/bc"}},
		{in: "<|http://a/b|\xffc>"},
		{in: "<|http://a/b|\u0085c>"},
		{in: "<|http://例え.テスト/パス|>"},
		{in: "|http://a/\ufdd0|"[0:0] + "|http://a/b|\ufdd0"},
		{in: "|http://a/b\U0001F600|"},
		{in: "|http://a/?q=\ue000|"},
		{in: "|http://a/\ue000|", want: []string{"!http://a/\ue000"}},
	})
}

// Positions: line, column, offset, end, raw, delimiter and flags.
func TestPositions(t *testing.T) {
	in := "first line\r\nsee <URL:http://a/b\r\n  c> and (http://d/e).\n\n\t\"http://f/\ng\" x\rhttp://h/\n> q <http://i/\n> j>\n"
	ms := collectString(in, Options{})
	want := []got{
		{URI: "http://a/bc", Raw: "http://a/b\r\n  c", Offset: 21, End: 36, Line: 2, Column: 10, Delim: DelimAngle(), Flags: Rejoined | URLPrefix},
		{URI: "http://d/e", Raw: "http://d/e", Offset: 43, End: 53, Line: 3, Column: 11, Delim: delim("paren")},
		{URI: "http://f/g", Raw: "http://f/\ng", Offset: 59, End: 70, Line: 5, Column: 3, Delim: delim("quote"), Flags: Rejoined},
		{URI: "http://h/", Raw: "http://h/", Offset: 74, End: 83, Line: 7, Column: 1 /* a CR alone ends a line too (behaviour §3) */, Delim: delim("none")},
		{URI: "http://i/j", Raw: "http://i/\n> j", Offset: 89, End: 102, Line: 8, Column: 6, Delim: DelimAngle(), Flags: Rejoined},
	}
	if len(ms) != len(want) {
		t.Fatalf("got%s", dump(ms))
	}
	for i, w := range want {
		g := ms[i]
		g.Norm, g.Valid = "", false
		if g != w {
			t.Errorf("match %d:\ngot  %v\nwant %v", i, g, w)
		}
		if in[g.Offset:g.End] != g.Raw {
			t.Errorf("match %d: raw is not the input at its offsets", i)
		}
	}
	checkSplits(t, []byte(in), Options{}, true)
	// NoLines leaves Line and Column zero and changes nothing else.
	nl := collectString(in, Options{NoLines: true})
	for i := range nl {
		if nl[i].Line != 0 || nl[i].Column != 0 {
			t.Errorf("NoLines: %v", nl[i])
		}
		nl[i].Line, nl[i].Column = ms[i].Line, ms[i].Column
		if nl[i] != ms[i] {
			t.Errorf("NoLines changes %v to %v", ms[i], nl[i])
		}
	}
}

func delim(name string) Delimiter {
	for d := Delimiter(0); d < 10; d++ {
		if d.String() == name {
			return d
		}
	}
	panic(name)
}

func DelimAngle() Delimiter { return delim("angle") }

func TestFlagNames(t *testing.T) {
	f := Rejoined | HyphenAmbiguous | URLPrefix | IRI
	if got := strings.Join(f.Names(), ","); got != "rejoined,hyphen_ambiguous,url_prefix,iri" {
		t.Errorf("names %q", got)
	}
	if Flags(0).Names() != nil {
		t.Errorf("no flags should give no names")
	}
	ms := collectString("<URL:http://例え.テスト/a>", Options{})
	if len(ms) != 1 || ms[0].Flags != URLPrefix|IRI || ms[0].Delim.String() != "angle" {
		t.Errorf("got%s", dump(ms))
	}
}

// Behaviour §3: inside <...> a break between the scheme's ':' and "//", or
// inside the scheme when the scheme joined across it is registered, is
// rejoined; so are RFC 8792 folds. Outside <...> nothing is rejoined.
func TestAngleBreaks(t *testing.T) {
	runMarkCases(t, []markCase{
		// Between ':' and "//".
		{in: "<|http:\n  //example.com/a|>", want: []string{"http://example.com/a"}},
		{in: "Available at <|https:\r\n      //www.example.net/registry/list.xml|>.", want: []string{"https://www.example.net/registry/list.xml"}},
		{in: "<|file:\n //host/etc/hosts|>", want: []string{"file://host/etc/hosts"}},
		// Whitespace on the line is dropped as well (all whitespace after
		// the scheme's ':' is); after the "//" it is no wrap: code.
		{in: "<|http: //a/b|>", want: []string{"http://a/b"}},
		{in: "<|http:\t//a/b|>", want: []string{"http://a/b"}},
		{in: "case fs < gs: // f > 0, g < 0"},
		{in: "case t2 <= s[0] && s[0] < t3:\n\t\t// 0080-07FF two byte sequence\n\t\tif len(s) > 1 {"},
		{in: "<URL:|http:\n //a/b|>", want: []string{"http://a/b"}},
		{in: "> see <|http:\n>   //a/b|>", want: []string{"http://a/b"}},
		{in: "see http:\n  //example.com/a"},
		{in: "<http:\n\n  //example.com/a>"},
		{in: "<URL: //a/b>"},
		// Inside the scheme.
		{in: "The text is at <|ht\n   tp://www.example.org/docs/a.html|>.", want: []string{"http://www.example.org/docs/a.html"}},
		{in: "<|ht\r\n   tps://a/b|>", want: []string{"https://a/b"}},
		{in: "<|ht\rtp://a/b|>", want: []string{"http://a/b"}},
		{in: "<|http\n  ://a/b|>", want: []string{"http://a/b"}},
		{in: "<|ht\n  tp:\n  //a/b|>", want: []string{"http://a/b"}},
		{in: "<|mail\n  to:someone@example.org|>", want: []string{"mailto:someone@example.org"}},
		{in: "<URL:|ht\n tp://a/b|>", want: []string{"http://a/b"}},
		{in: "> see <|ht\n>   tp://a/b/\n>   c|>", want: []string{"http://a/b/c"}},
		{in: "<|ht\ntp://a/b|>", want: []string{"http://a/b"}, opts: Options{Schemes: []string{"http"}}},
		{in: "<ft\n|xp://a/b|>"},         // "ftxp" is not registered: "xp" is a scheme of its own
		{in: "<see\n|http://a/b|>"},      // "seehttp" is not registered either
		{in: "ht\n|tp://a/b|"},           // no angle context, no rejoining
		{in: "<ht\n\n|tp://a/b|>"},       // a blank line
		{in: "<ht\n|tp://a/b| and more"}, // no '>'
		{in: "<ht\n> |tp://a/b|>"},       // the '>' closes: no quote prefix on the opening line
		{in: "<h t\n|tp://a/b|>"},        // the space before "t" is no break
		{in: "<|ht\n  tp://a/b-\nc|>", want: []string{"http://a/b-c"}},
		// RFC 8792 folding.
		{in: "<|https://example.com/a/very/long/path/that/is/\\\n   folded/here.html|>", want: []string{"https://example.com/a/very/long/path/that/is/folded/here.html"}},
		{in: "<|https://example.com/a/\\\n   \\b/c|>", want: []string{"https://example.com/a/b/c"}},
		{in: "<|https://example.com/a/\\\r\n\\b/c|>", want: []string{"https://example.com/a/b/c"}},
		{in: "<|https://example.com/a-\\\n  b|>", want: []string{"https://example.com/a-b"}, opts: Options{Hyphen: HyphenBoth}}, // a fold is exact: no hyphen question
		{in: "> <|https://example.com/a/\\\n>   \\b|>", want: []string{"https://example.com/a/b"}},
		{in: "<|https://example.com/a/|\\\n\nb>"}, // a blank line after the fold
		{in: "<|https://example.com/a/\\b|>", want: []string{"!https://example.com/a/\\b"}},
	})
}

// Behaviour §3: wrappers are whole candidates. Inside <...> and "..." a
// character that cannot be in a URI makes the candidate invalid as a
// whole; it never cuts it to a valid prefix. Where such a character shows
// that a '<' was a less-than, the text is read as whitespace-delimited.
func TestWrappers(t *testing.T) {
	runMarkCases(t, []markCase{
		{in: "<|https://launchpad.net/\\~user|>", want: []string{"!https://launchpad.net/\\~user"}},
		{in: "<|http://a/b\\|c|>", want: []string{"!http://a/b|c"}},
		{in: "<|http://a/^b`c|>", want: []string{"!http://a/^b`c"}},
		{in: "<|http://a/\n  b{c}|>", want: []string{"!http://a/b{c}"}},
		{in: "0 < |http://x| = c && c < 32"},
		{in: "if (0 < |http://x/|\\|y)\n  z = 1;\nwhile (q > 0)"}, // no '>' on the line of the '|'
		{in: "<|http://a/|{b}\nc>"},
		{in: "<|http://a/| {b}>"},
		{in: "<|http://a/|<b>"},
		{in: "<|http://a/b|\n {c}>"},
		// "..."
		{in: `font "|https://fonts.example.com/css?family=Roboto\|Open+Sans|" here`, want: []string{"!https://fonts.example.com/css?family=Roboto|Open+Sans"}},
		{in: `<a href="|http://x/{{id}}|">`, want: []string{"!http://x/{{id}}"}},
		{in: `"|http://a/<b>|"`, want: []string{"!http://a/<b>"}},
		{in: `"|http://a/b\c|".`, want: []string{"!http://a/b\\c"}},
		{in: "\"|http://a/b\\|c\n  d|\"", want: []string{"!http://a/b|cd"}},
		{in: "\"|http://a/b|\\|c\nfoo bar\""},
		{in: "\"|http://a/b|\\|c d\""},
		{in: "\"|http://a/b|{c"},
		// The escapes of a string literal end the URI: the string's, not
		// the URI's (beyond the letter of behaviour §3).
		{in: `fmt.Printf("|https://go.dev/issue/new|\n")`},
		{in: `"|http://a/b|\tc" "|http://a/b|\u00e9" "|http://a/b\~c|"`, want: []string{"http://a/b", "http://a/b", "!http://a/b\\~c"}},
		// An escaped quote wraps as a quote does; its '\' is the closer.
		{in: `{"msg": "fetch \"|http://example.com/a|\" failed"}`},
		{in: `"fetch \"|http://example.com/a\|b|\" failed"`, want: []string{"!http://example.com/a|b"}},
		{in: "\"x \\\"|http://a/b\n  c|\\\" y\"", want: []string{"http://a/bc"}},
		// A quoted break is rejoined only when the next line does not
		// start with a scheme that behaviour §2 finds there.
		{in: "<rpc xsi:schemaLocation=\"|urn:ietf:params:xml:ns:netconf:base:1.0|\n     |http://example.com/schema/netconf.xsd|\">"},
		{in: "\"|urn:ab:b|\n   |urn:cd:d|\""},
		{in: "\"|http://a/b\n  c:d|\"", want: []string{"http://a/bc:d"}},
		{in: "\"|http://a/b\n  cd:e|\"", want: []string{"http://a/bcd:e"}}, // cd: is no scheme behaviour §2 finds
		{in: "\"|http://a/b\n  c/d|\"", want: []string{"http://a/bc/d"}},
	})
}
