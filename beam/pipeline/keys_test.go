package pipeline

import (
	"strings"
	"testing"
)

func TestKeysOf(t *testing.T) {
	tests := []struct {
		found, normalized string
		valid             bool
		want              keys
	}{
		{"HTTP://Example.COM:80/a", "http://example.com/a", true,
			keys{uri: "http://example.com/a", scheme: "http", host: "example.com", hasHost: true, domain: "example.com"}},
		{"https://www.bbc.co.uk/news", "https://www.bbc.co.uk/news", true,
			keys{uri: "https://www.bbc.co.uk/news", scheme: "https", host: "www.bbc.co.uk", hasHost: true, domain: "bbc.co.uk"}},
		{"mailto:a@example.net", "mailto:a@example.net", true,
			keys{uri: "mailto:a@example.net", scheme: "mailto"}},
		{"file:///etc/hosts", "file:///etc/hosts", true,
			keys{uri: "file:///etc/hosts", scheme: "file", hasHost: true}},
		{"http://[2001:db8::1]:8080/x", "http://[2001:db8::1]:8080/x", true,
			keys{uri: "http://[2001:db8::1]:8080/x", scheme: "http", host: "[2001:db8::1]", hasHost: true}},
		// An invalid URI (--invalid) is counted as found, by its scheme.
		{"HTTP://a/%zz", "", false, keys{uri: "HTTP://a/%zz", scheme: "http"}},
	}
	for _, tt := range tests {
		if got := keysOf(tt.found, tt.normalized, tt.valid); got != tt.want {
			t.Errorf("keysOf(%q, %q, %v) = %+v, want %+v", tt.found, tt.normalized, tt.valid, got, tt.want)
		}
	}
}

func TestRegistrableDomain(t *testing.T) {
	tests := []struct{ host, want string }{
		{"example.com", "example.com"},
		{"www.example.com", "example.com"},
		{"a.b.example.co.uk", "example.co.uk"},
		{"example.com.", "example.com"},          // the root's dot
		{"foo.blogspot.com", "foo.blogspot.com"}, // a private suffix of the list
		{"co.uk", ""},                            // a public suffix itself
		{"com", ""},
		{"192.168.0.1", ""},
		{"[2001:db8::1]", ""},
		{"", ""},
		{"例え.テスト", "例え.テスト"},
		{"www.bücher.example", "bücher.example"},
		{"localhost", ""},
	}
	for _, tt := range tests {
		if got := registrableDomain(tt.host); got != tt.want {
			t.Errorf("registrableDomain(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestCountLine(t *testing.T) {
	tests := []struct {
		key, value string
		null       bool
		domain     string
		n          int64
		want       string
	}{
		{"scheme", "https", false, "", 3, `{"scheme":"https","count":3}`},
		{"host", "www.example.com", false, "example.com", 2, `{"host":"www.example.com","domain":"example.com","count":2}`},
		{"host", "192.0.2.1", false, "", 1, `{"host":"192.0.2.1","domain":null,"count":1}`},
		{"host", "", true, "", 5, `{"host":null,"domain":null,"count":5}`},
		{"domain", "", true, "", 5, `{"domain":null,"count":5}`},
	}
	for _, tt := range tests {
		if got := countLine(tt.key, tt.value, tt.null, tt.domain, tt.n); got != tt.want {
			t.Errorf("countLine(%q, %q) = %s, want %s", tt.key, tt.value, got, tt.want)
		}
	}
}

// TestEngineOptions: the flags are the CLI's, mapped by the CLI, its
// errors in its words; the output is that of --json, one worker a file;
// the flags of the CLI's output and walk are not the pipeline's.
func TestEngineOptions(t *testing.T) {
	o, err := engineOptions([]string{"--scheme", "http, https", "--scheme=", "--scheme= mailto", "--max-window=1M"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.Extract.Schemes, "|"); got != "http|https|mailto" {
		t.Errorf("schemes %q, want http|https|mailto", got)
	}
	if o.Extract.MaxLength != 64<<10 || o.MaxWindow != 1<<20 || !o.Output.JSON || o.Jobs != 1 {
		t.Errorf("options %+v", o)
	}
	for _, bad := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--hyphen=maybe"}, `--hyphen "maybe": want keep, drop or both`},
		{[]string{"--bare-break", "maybe"}, `--bare-break "maybe": want keep, join or both`},
		{[]string{"--max-length=-1"}, "--max-length -1: want a positive number of bytes"},
		{[]string{"--format=maildir"}, `--format "maildir": want text, mail, mbox, news, warc or auto`},
		{[]string{"--invalid", "--normalize"}, "--invalid and --normalize cannot go together: an invalid URI has no normal form"},
		{[]string{"-c"}, "--count: not taken here"},
		{[]string{"--recursive"}, "--recursive: not taken here"},
	} {
		if _, err := engineOptions(bad.flags); err == nil || err.Error() != bad.want {
			t.Errorf("%q: error %v, want %s", bad.flags, err, bad.want)
		}
	}
}

func TestShardName(t *testing.T) {
	if got := ShardName("gs://b/out/res", "", 3, 16, Gzip); got != "gs://b/out/res-00003-of-00016.jsonl.gz" {
		t.Errorf("got %s", got)
	}
	if got := ShardName("/out/res", "hosts", 0, 4, None); got != "/out/res.hosts-00000-of-00004.jsonl" {
		t.Errorf("got %s", got)
	}
}
