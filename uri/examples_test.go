package uri

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// examplesDir holds the project's shared acceptance cases (behaviour §8).
const examplesDir = "../../shared/examples/core"

// readTSV returns the rows of a shared example file, without its header.
func readTSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(examplesDir, name))
	if err != nil {
		// The cases are the project's, in ../shared beside the
		// repository, not in it: a lone checkout has none to run.
		t.Skipf("skipped: needs the project's acceptance cases in ../shared, beside the repository: %v", err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		rows = append(rows, strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func kindOf(t *testing.T, col string) Kind {
	switch col {
	case "URI":
		return KindURI
	case "ref":
		return KindRef
	case "IRI":
		return KindIRI
	}
	t.Fatalf("unknown kind %q", col)
	return 0
}

func TestSharedValid(t *testing.T) {
	for _, row := range readTSV(t, "valid.tsv") {
		if err := Validate(row[0], kindOf(t, row[1])); err != nil {
			t.Errorf("Validate(%q, %s) = %v, want valid (%s)", row[0], row[1], err, row[2])
		}
	}
}

func TestSharedInvalid(t *testing.T) {
	for _, row := range readTSV(t, "invalid.tsv") {
		err := Validate(row[0], kindOf(t, row[1]))
		if err == nil {
			t.Errorf("Validate(%q, %s) = nil, want invalid (%s)", row[0], row[1], row[2])
			continue
		}
		t.Logf("%q: %v", row[0], err)
	}
}

func TestSharedNormalize(t *testing.T) {
	for _, row := range readTSV(t, "normalize.tsv") {
		got, err := Normalize(row[0], KindIRI)
		if err != nil || got != row[1] {
			t.Errorf("Normalize(%q) = %q, %v; want %q", row[0], got, err, row[1])
		}
	}
}

func TestSharedCompare(t *testing.T) {
	for _, row := range readTSV(t, "compare.tsv") {
		eq, err := Equivalent(row[0], row[1])
		got := map[bool]string{true: "yes", false: "no"}[eq]
		if err != nil {
			got = "invalid"
		}
		if got != row[2] {
			t.Errorf("Equivalent(%q, %q) = %v, %v; want %s (%s)", row[0], row[1], eq, err, row[2], row[3])
		}
	}
}

func TestSharedResolve(t *testing.T) {
	for _, row := range readTSV(t, "resolve.tsv") {
		got, err := Resolve(row[0], row[1])
		if err != nil || got != row[2] {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", row[0], row[1], got, err, row[2])
		}
	}
}

func TestSharedParse(t *testing.T) {
	for _, row := range readTSV(t, "parse.tsv") {
		var want map[string]*string
		if err := json.Unmarshal([]byte(row[1]), &want); err != nil {
			t.Fatalf("%s: %v", row[1], err)
		}
		u, err := Parse(row[0], KindIRIRef)
		if err != nil {
			t.Errorf("Parse(%q): %v", row[0], err)
			continue
		}
		got := map[string]*string{
			"scheme":   presentOrNil(u.Scheme, u.Scheme != ""),
			"userinfo": presentOrNil(u.Userinfo, u.HasUserinfo),
			"host":     presentOrNil(u.Host, u.HasAuthority),
			"port":     presentOrNil(u.Port, u.HasPort),
			"path":     &u.Path,
			"query":    presentOrNil(u.Query, u.HasQuery),
			"fragment": presentOrNil(u.Fragment, u.HasFragment),
		}
		for k, w := range want {
			if g := got[k]; (g == nil) != (w == nil) || g != nil && *g != *w {
				t.Errorf("Parse(%q).%s = %v, want %v", row[0], k, show(g), show(w))
			}
		}
	}
}

func presentOrNil(s string, ok bool) *string {
	if !ok {
		return nil
	}
	return &s
}

func show(p *string) string {
	if p == nil {
		return "null"
	}
	return strconv.Quote(*p)
}
