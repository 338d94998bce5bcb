package extract

import (
	"bytes"
	"os"
	"strconv"
	"testing"
)

// flagsFormat prints each URI with its offset and flags.
type flagsFormat struct{ lineFormat }

func (f flagsFormat) AppendMatch(b []byte, m *Match) ([]byte, int) {
	b = strconv.AppendInt(b, m.Offset, 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, uint64(m.Flags), 16)
	b = append(b, ':')
	b = append(b, m.URI...)
	return append(b, '\n'), -1
}

// TestSplitJoinsCandidatesReadAlike: a chunk that starts at offset 21038
// of testdata/textranges/urlprefix.txt, after "URL:\r\n" that ends a
// line of 7,000 bytes, has a scanner that starts inside that line; it
// reads the next URI at the offsets the whole reading gives, but with a
// url_prefix flag the whole reading does not give it (behaviour §7.4).
// A join on the offsets alone took the chunk's reading: Split's output
// (the flags, in --json) differed from one scanner's (found by
// TextRanges' random texts).
func TestSplitJoinsCandidatesReadAlike(t *testing.T) {
	data, err := os.ReadFile("testdata/textranges/urlprefix.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	opts := Options{WWW: true, Email: true, Hyphen: HyphenBoth, BareBreak: BareBreakBoth}
	f := flagsFormat{}
	var want string
	{
		s := NewScanner(bytes.NewReader(data), opts)
		var b []byte
		for s.Scan() {
			b, _ = f.AppendMatch(b, s.Match())
		}
		want = string(b)
	}
	file := textFile(t, text)
	for _, size := range []int64{21038, 21038 / 2, 21000, 20000} {
		got, _, err := splitFrom(file, int64(len(text)), Split{Workers: 2, ChunkSize: size, Format: f, Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("chunks of %d bytes: output differs from one scanner's", size)
		}
	}
}
