package cli

import (
	"strings"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/engine"
	"github.com/urix-dev/urix/extract"
)

var pipelineFlags = []string{"www", "hyphen", "scheme", "max-length", "max-window", "format", "invalid", "normalize", "json"}

// TestParseOptions: flags given as words map to the options the command
// line gives them, and the command line's errors say what is wrong.
func TestParseOptions(t *testing.T) {
	o, err := ParseOptions([]string{"--www", "--hyphen=both", "--scheme", "http, https", "--scheme=mailto",
		"--max-length=300", "--max-window", "1M", "--format=warc", "--json"}, pipelineFlags)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.DefaultOptions()
	if !o.Extract.WWW || o.Extract.Hyphen != extract.HyphenBoth || strings.Join(o.Extract.Schemes, " ") != "http https mailto" ||
		o.Extract.MaxLength != 300 || o.MaxWindow != 1<<20 || o.Format != document.WARC || !o.Output.JSON ||
		o.Jobs != want.Jobs || o.MaxCount != -1 || o.Output.LineBuffered {
		t.Errorf("options %+v", o)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--hyphen=maybe"}, `--hyphen "maybe"`},
		{[]string{"--max-length=0"}, "--max-length 0: want a positive number of bytes"},
		{[]string{"--max-window=lots"}, `--max-window "lots"`},
		{[]string{"--format=pdf"}, `--format "pdf"`},
		{[]string{"--invalid", "--normalize"}, "--invalid and --normalize cannot go together"},
		{[]string{"--count"}, "--count: not taken here"},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"file.txt"}, `"file.txt": want flags only`},
	} {
		if _, err := ParseOptions(tt.args, pipelineFlags); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseOptions(%q): %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestFlagDocs(t *testing.T) {
	docs := FlagDocs([]string{"hyphen", "www", "nonesuch", "max-length"})
	if len(docs) != 3 {
		t.Fatalf("%+v", docs)
	}
	if d := docs[0]; d.Name != "hyphen" || !d.TakesValue || d.Default != "keep" || !strings.Contains(d.Usage, "`MODE`") {
		t.Errorf("%+v", d)
	}
	if d := docs[1]; d.Name != "www" || d.TakesValue || d.Default != "" {
		t.Errorf("%+v", d)
	}
	if d := docs[2]; d.Default != "65536" {
		t.Errorf("%+v", d)
	}
}
