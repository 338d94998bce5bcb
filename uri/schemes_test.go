package uri

import (
	"bytes"
	"os"
	"testing"

	"github.com/urix-dev/urix/uri/internal/schemegen"
)

// TestSchemesGenUpToDate regenerates schemes_gen.go in memory from the
// committed CSV and wants the committed file to match (run go generate).
func TestSchemesGenUpToDate(t *testing.T) {
	csv, err := os.ReadFile("testdata/uri-schemes-1.csv")
	if err != nil {
		t.Fatal(err)
	}
	want, err := schemegen.Generate(csv)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("schemes_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("schemes_gen.go is out of date: run go generate ./uri/")
	}
}

// TestSchemesCSVMatchesShared checks the committed registry copy against the
// project's shared one, when that is at hand.
func TestSchemesCSVMatchesShared(t *testing.T) {
	const sharedCSV = "../../shared/data/uri-schemes-1.csv"
	shared, err := os.ReadFile(sharedCSV)
	if err != nil {
		// The project's copy is in ../shared beside the repository,
		// not in it: a lone checkout has only its own.
		t.Skipf("skipped: needs the project's scheme registry in ../shared, beside the repository, to compare testdata/uri-schemes-1.csv with: %v", err)
	}
	ours, err := os.ReadFile("testdata/uri-schemes-1.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shared, ours) {
		t.Error("testdata/uri-schemes-1.csv differs from shared/data/uri-schemes-1.csv")
	}
}
