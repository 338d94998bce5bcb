package extract

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/urix-dev/urix/uri"
)

// behaviour §2, optional anchors: --www and --email.
func TestWWWAndEmail(t *testing.T) {
	runMarkCases(t, []markCase{
		{in: "see www.example.com now", opts: Options{}},
		{in: "see |www.example.com/a|.", want: []string{"http://www.example.com/a"}, opts: Options{WWW: true}},
		{in: "(|WWW.Example.com|)", want: []string{"http://WWW.Example.com"}, opts: Options{WWW: true}},
		{in: "<|www.example.com/a\n b|>", want: []string{"http://www.example.com/ab"}, opts: Options{WWW: true}},
		{in: "www.example www. awww.example.com x/www.example.com |http://www.example.com/|", opts: Options{WWW: true}},
		{in: "mail |user@example.com|.", want: []string{"mailto:user@example.com"}, opts: Options{Email: true}},
		{in: "<|first.last+tag@sub.example.org|>", want: []string{"mailto:first.last+tag@sub.example.org"}, opts: Options{Email: true}},
		{in: "user@example.c user@example user@1.2.3.4 @example.com user.@example.com", opts: Options{Email: true}},
		{in: "user@example.com", opts: Options{}},
		{in: "|mailto:user@example.com| |http://u@example.com/|", opts: Options{Email: true}},
		{in: "|a@b.example| and |c@d.example|", want: []string{"mailto:a@b.example", "mailto:c@d.example"}, opts: Options{Email: true}},
	})
}

// behaviour §5: validity and its reason; behaviour §6: normal form; behaviour §4: --ascii.
func TestValidityAndForms(t *testing.T) {
	ms := collectString("http://a/%zz http://a:x/ http://[::1/ https:///p http://[fe80::1%25eth0]/ HTTP://A.example:80/%7e/./b/../c", Options{})
	if len(ms) != 6 {
		t.Fatalf("got%s", dump(ms))
	}
	for i, m := range ms[:4] {
		if m.Valid || m.Reason == "" || m.Norm != "" {
			t.Errorf("%d: want invalid with a reason: %v", i, m)
		}
		if !strings.Contains(m.Reason, "byte") {
			t.Errorf("%d: reason %q names no byte position", i, m.Reason)
		}
	}
	if !ms[4].Valid || !ms[5].Valid {
		t.Errorf("want valid:%s", dump(ms[4:]))
	}
	if ms[5].Norm != "http://a.example/~/c" {
		t.Errorf("normal form %q", ms[5].Norm)
	}
	// Every reason is an error from package uri, valid or not by Validate too.
	for _, m := range ms {
		if err := uri.Validate(m.URI, uri.KindIRI); (err == nil) != m.Valid {
			t.Errorf("%q: Validate says %v, Match.Valid %v", m.URI, err, m.Valid)
		}
	}

	// IRIs stay IRIs; ASCII gives the URI form, normalized included.
	in := "see http://例え.テスト/パス。"
	ms = collectString(in, Options{})
	if len(ms) != 1 || ms[0].URI != "http://例え.テスト/パス" || ms[0].Flags&IRI == 0 || ms[0].Norm != "http://例え.テスト/パス" {
		t.Fatalf("iri:%s", dump(ms))
	}
	ms = collectString(in, Options{ASCII: true})
	want := "http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9"
	if len(ms) != 1 || ms[0].URI != want || ms[0].Norm != want || ms[0].Flags&IRI == 0 || ms[0].Raw != "http://例え.テスト/パス" {
		t.Fatalf("ascii:%s", dump(ms))
	}
	// A host that IDNA cannot convert makes the URI invalid under ASCII.
	ms = collectString("http://a\u00ad\u0300b.例/ x", Options{ASCII: true})
	if len(ms) != 1 || ms[0].Valid {
		t.Logf("note: ascii with an odd host:%s", dump(ms))
	}
}

// behaviour §6: -u keeps the first occurrence of each normal form, as found.
func TestUnique(t *testing.T) {
	in := "http://A.example/%7e http://a.example/~ HTTP://a.example:80/~ http://b/ http://a/%zz http://a/%zz http://b/"
	ms := collectString(in, Options{Unique: true})
	var uris []string
	for _, m := range ms {
		uris = append(uris, m.URI)
	}
	want := []string{"http://A.example/%7e", "http://b/", "http://a/%zz"}
	if !slices.Equal(uris, want) {
		t.Errorf("unique: got %q want %q", uris, want)
	}
	checkSplits(t, []byte(in), Options{Unique: true}, true)
}

// behaviour §1: a candidate longer than the limit is skipped and reported; the
// URIs around it are found.
func TestMaxLength(t *testing.T) {
	long := "http://b.example/" + strings.Repeat("x", 200)
	in := "http://a.example/1 " + long + " http://c.example/3 <" + long + "> (" + long + ") http://d/"
	ms, skips, err := collect(strings.NewReader(in), Options{MaxLength: 100})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, m := range ms {
		uris = append(uris, m.URI)
	}
	if !slices.Equal(uris, []string{"http://a.example/1", "http://c.example/3", "http://d/"}) {
		t.Errorf("got %q", uris)
	}
	if len(skips) != 3 {
		t.Fatalf("skips %v", skips)
	}
	at := strings.Index(in, long)
	if skips[0].Offset != int64(at) || skips[0].End != int64(at+len(long)) || skips[0].Line != 1 || skips[0].Column != int64(at+1) {
		t.Errorf("skip 0: %+v, want offset %d end %d", skips[0], at, at+len(long))
	}
	for i, sk := range skips {
		if in[sk.Offset:sk.End] != long {
			t.Errorf("skip %d covers %q", i, in[sk.Offset:sk.End])
		}
	}
	checkSplits(t, []byte(in), Options{MaxLength: 100}, true)

	// Exactly at the limit is kept; one byte more is skipped.
	for _, n := range []int{99, 100, 101} {
		u := "http://e/" + strings.Repeat("y", n-9)
		ms, skips, _ := collect(strings.NewReader(u), Options{MaxLength: 100})
		if (len(ms) == 1) != (n <= 100) || (len(skips) == 1) != (n > 100) {
			t.Errorf("length %d: matches%s skips %v", n, dump(ms), skips)
		}
	}
	// A rejoined angle URI longer than the limit: the angle context is
	// abandoned and the text read again as whitespace-delimited.
	in = "<http://f/" + strings.Repeat("z\n", 80) + ">"
	ms, _, _ = collect(strings.NewReader(in), Options{MaxLength: 100})
	if len(ms) != 1 || ms[0].URI != "http://f/z" {
		t.Errorf("long rejoined:%s", dump(ms))
	}
	// Default limit 64 KiB.
	u := "http://g/" + strings.Repeat("w", 64<<10)
	ms, skips, _ = collect(strings.NewReader("a "+u+" http://h/"), Options{})
	if len(ms) != 1 || ms[0].URI != "http://h/" || len(skips) != 1 || skips[0].Offset != 2 {
		t.Errorf("default limit:%s %v", dump(ms), skips)
	}
}

// FoldWidth folds fullwidth forms before scanning; offsets are those of the
// folded text.
func TestFoldWidth(t *testing.T) {
	in := "見て ｈｔｔｐ：／／ｅｘａｍｐｌｅ．ｃｏｍ／ａ。"
	if ms := collectString(in, Options{}); len(ms) != 0 {
		t.Errorf("without folding:%s", dump(ms))
	}
	ms := collectString(in, Options{FoldWidth: true})
	if len(ms) != 1 || ms[0].URI != "http://example.com/a" || ms[0].Offset != int64(len("見て ")) {
		t.Errorf("folded:%s", dump(ms))
	}
}

// All gives the same matches as Scanner, and its error last.
func TestAll(t *testing.T) {
	in := "http://a/ <http://b/\nc> http://d/%zz"
	want := collectString(in, Options{})
	var got []string
	for m, err := range All(strings.NewReader(in), Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m.URI)
	}
	if len(got) != len(want) || got[1] != "http://b/c" {
		t.Errorf("All gives %q", got)
	}
	boom := errors.New("boom")
	var last error
	n := 0
	for m, err := range All(&errAfter{b: []byte("http://a/ http://b/ xx"), err: boom}, Options{}) {
		if err != nil {
			last = err
		} else {
			n++
			_ = m
		}
	}
	if last != boom || n != 2 {
		t.Errorf("All with a read error: %d matches, err %v", n, last)
	}
	for range All(strings.NewReader("http://a/ http://b/"), Options{}) {
		break // stopping early must not panic
	}
}

type errAfter struct {
	b   []byte
	err error
}

func (r *errAfter) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, r.err
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}
