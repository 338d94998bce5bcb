package document

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// An input that begins like a WARC file or an mbox but whose first record
// is none is read as text, with a warning (issue 32: "WARC/1.0 is a
// format. See http://..." printed nothing); one whose first record is a
// record, damaged or not, and one whose later records are damaged, are
// read as before.
func TestFirstRecordDecides(t *testing.T) {
	long := "WARC/1.0\r\nWARC-Type: resource\r\nX-Long: " + strings.Repeat("x", HeadSize) + "\r\nContent-Length: 4\r\n\r\nhttp\r\n\r\n"
	for _, tc := range []struct {
		name, in string
		want     Format
		warn     string // a part of the warning, "" for none
	}{
		{"WARC prose", "WARC/1.0 is a format. See http://example.com/warc\nmore http://b.example/\n", Text, `its first line "WARC/1.0 is a format. See http://example"... is no WARC version line`},
		{"WARC version alone", "WARC/1.1", Text, "is all there is"},
		{"WARC version bad", "WARC/1.x\r\nContent-Length: 0\r\n\r\n", Text, "no WARC version line"},
		{"WARC prose lines", "WARC/1.0\nis how a WARC file starts, see http://example.com/\n", Text, `a line "is how a WARC file starts, see http://ex"... that is no field`},
		{"WARC no length", "WARC/1.0\r\nTitle: my notes\r\n\r\nhttp://example.com/\n", Text, "no Content-Length"},
		{"WARC header cut", "WARC/1.0\r\nWARC-Type: resource\r\n", Text, "ends in the first record's header"},
		{"WARC continuation first", "WARC/1.0\r\n folded\r\n\r\n", Text, "continuation line"},
		{"WARC", testWARC, WARC, ""},
		{"WARC bad length", "WARC/1.0\r\nContent-Length: x\r\n\r\n" + testWARC, WARC, ""},
		{"WARC long header", long, WARC, ""},
		{"WARC LF and blanks", "WARC/1.0  \nWARC-Type: resource\ncontent-length : 0\n  folded\n\n", WARC, ""},
		{"mbox prose", "From here we go to http://a.example/ and on.\nhttp://b.example/\n", Text, `its first line "From here we go to http://a.example/ and"... is no mbox "From " line`},
		{"mbox one line", "From me", Text, "no mbox"},
		{"mbox", testMbox, Mbox, ""},
		{"mbox Thunderbird", "From - Mon Jan 01 00:00:00 2024\r\nSubject: x\r\n\r\nbody\r\n", Mbox, ""},
		{"mbox long first line", "From " + strings.Repeat("x", HeadSize), Mbox, ""},
	} {
		for _, split := range []bool{false, true} {
			var warns []string
			var formats []Format
			var in io.Reader = strings.NewReader(tc.in)
			if split {
				in = iotest.OneByteReader(in) // a slow stream decides as a whole one
			}
			rd := NewReader(Options{Warn: func(w Warning) { warns = append(warns, w.Message) }})
			var text bytes.Buffer
			err := rd.Read(in, "in", func(d *Document) error {
				formats = append(formats, d.Format)
				if d.Format == Text {
					text.ReadFrom(d.Body)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if len(formats) > 0 && formats[0] != tc.want {
				t.Errorf("%s: read as %v, want %v", tc.name, formats[0], tc.want)
			}
			if tc.want == Text && text.String() != tc.in {
				t.Errorf("%s: text %q", tc.name, text.String())
			}
			got := strings.Join(warns, "|")
			if tc.warn == "" && strings.Contains(got, "read as text") || tc.warn != "" && (!strings.Contains(got, tc.warn) || !strings.HasSuffix(got, "; read as text")) {
				t.Errorf("%s: warnings %q, want one with %q", tc.name, got, tc.warn)
			}
			if Detect([]byte(tc.in)) != tc.want && len(tc.in) <= HeadSize {
				t.Errorf("%s: Detect says %v", tc.name, Detect([]byte(tc.in)))
			}
		}
	}
}

// FuzzDetect: the format told of a prefix the reading stops at (a slow
// stream's, formatDecided) is the one told of all the input's head; no
// panic.
func FuzzDetect(f *testing.F) {
	f.Add([]byte("WARC/1.0 is a format. See http://example.com/\n"))
	f.Add([]byte(testWARC))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 1\r\n\r\n"))
	f.Add([]byte(testMbox))
	f.Add([]byte("From here\nSubject: x\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		head := data[:min(len(data), HeadSize)]
		whole, why := detectWhy(head)
		for k := 1; k < len(head); k++ {
			if !formatDecided(head[:k]) {
				continue
			}
			if f, w := detectWhy(head[:k]); f != whole || w != why {
				t.Fatalf("prefix of %d: %v %q, head: %v %q", k, f, w, whole, why)
			}
			break
		}
	})
}

// TestProbeHead: one look at the first bytes tells the compression, the
// format the reader would take (and why text, when it began like another),
// and whether the bytes are binary.
func TestProbeHead(t *testing.T) {
	tests := []struct {
		head   string
		want   Probe
		hasWhy bool
	}{
		{"\x1f\x8b\x08\x00rest", Probe{Compression: Gzip, Format: Text}, false},
		{"plain text, http://example.com/\n", Probe{Compression: None, Format: Text}, false},
		{"WARC/1.0 is a format. See http://example.com/\n", Probe{Compression: None, Format: Text}, true},
		{"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n", Probe{Compression: None, Format: WARC}, false},
		{"From a@example.com Mon Jan  1 00:00:00 2024\nSubject: x\n\nbody\n", Probe{Compression: None, Format: Mbox}, false},
		{"text\x00with a NUL", Probe{Compression: None, Format: Text, Binary: true}, false},
	}
	for _, tt := range tests {
		got := ProbeHead([]byte(tt.head))
		if (got.Why != "") != tt.hasWhy {
			t.Errorf("%.20q: why %q, want one: %v", tt.head, got.Why, tt.hasWhy)
		}
		got.Why = ""
		if got != tt.want {
			t.Errorf("%.20q: %+v, want %+v", tt.head, got, tt.want)
		}
	}
}
