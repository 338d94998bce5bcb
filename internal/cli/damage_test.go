package cli

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdDamage is "damage KIND SRC DST": DST is the WARC file SRC compressed
// and then damaged two thirds of the way in, as issue 32 found inputs that
// lost records at -j 2:
//
//   - gzip-member: a gzip member a record, one member in the middle
//     with a byte of its deflate data flipped;
//   - gzip-deflate: the same, the member's deflate data beginning with
//     a block of the reserved type 3 (RFC 1951 3.2.3): "corrupt input";
//   - gzip-garbage: a gzip member a record, 8 bytes of garbage between
//     two members;
//   - gzip-truncated: a gzip member a record, the file cut short;
//   - zstd: one zstd stream, a byte flipped;
//   - bzip2: one bzip2 stream (made by bzip2(1), level 1: blocks of
//     100 kB), a byte flipped;
//   - gzip-long-name: not damaged, but a gzip member a record whose
//     header has a file name (FNAME) of 1,000 bytes (the second's
//     100,000) and a comment (FCOMMENT) of 600, as gzip -dc reads and
//     the library refused.
func cmdDamage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: damage gzip-member|gzip-deflate|gzip-garbage|gzip-truncated|zstd|bzip2|gzip-long-name SRC DST")
	}
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	var out []byte
	switch args[0] {
	case "gzip-member", "gzip-deflate", "gzip-garbage", "gzip-truncated":
		members := gzipRecords(ts, data)
		bad := len(members) * 2 / 3
		var b bytes.Buffer
		for i, m := range members {
			switch {
			case i == bad && args[0] == "gzip-member":
				m[len(m)/2] ^= 0x55
			case i == bad && args[0] == "gzip-deflate":
				m[10] = 0x07 // BFINAL 1, BTYPE 11, after a header of 10 bytes
			case i == bad && args[0] == "gzip-garbage":
				b.WriteString("GARBAGE!")
			}
			b.Write(m)
		}
		out = b.Bytes()
		if args[0] == "gzip-truncated" {
			out = out[:len(out)*2/3]
		}
	case "gzip-long-name":
		var b bytes.Buffer
		for i, m := range gzipRecords(ts, data) {
			// The writer leaves the flags (byte 3) 0: FNAME and
			// FCOMMENT follow the 10 fixed bytes.
			b.Write([]byte{m[0], m[1], m[2], m[3] | 0x18, m[4], m[5], m[6], m[7], m[8], m[9]})
			name := 1000
			if i == 1 {
				name = 100000
			}
			b.WriteString(strings.Repeat("n", name) + "\x00" + strings.Repeat("c", 600) + "\x00")
			b.Write(m[10:])
		}
		out = b.Bytes()
	case "zstd":
		var b bytes.Buffer
		w, err := zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(64<<10))
		ts.Check(err)
		_, err = w.Write(data)
		ts.Check(err)
		ts.Check(w.Close())
		out = b.Bytes()
		out[len(out)*2/3] ^= 0x55
	case "bzip2":
		cmd := exec.Command("bzip2", "-1", "-c")
		cmd.Stdin = bytes.NewReader(data)
		out, err = cmd.Output()
		ts.Check(err)
		out[len(out)*2/3] ^= 0x55
	default:
		ts.Fatalf("damage: unknown kind %q", args[0])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), out, 0o644))
}

// gzipRecords compresses each WARC record of data as a gzip member of its
// own, as crawlers write WARC files.
func gzipRecords(ts *testscript.TestScript, data []byte) [][]byte {
	var members [][]byte
	// One writer, reset for each member: a new one a member was most of
	// the time of the scripts under the race detector.
	w := gzip.NewWriter(nil)
	for len(data) > 0 {
		end := bytes.Index(data[1:], []byte("WARC/1.0\r\n")) + 1
		if end == 0 {
			end = len(data)
		}
		var b bytes.Buffer
		w.Reset(&b)
		_, err := w.Write(data[:end])
		ts.Check(err)
		ts.Check(w.Close())
		members = append(members, b.Bytes())
		data = data[end:]
	}
	return members
}

// cmdRepeat is "repeat FILE N LINE": LINE and a line break are appended
// to FILE N times (a header folded over 175,000 lines, issue 32, is too
// long for a txtar archive).
func cmdRepeat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: repeat FILE N LINE")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	ts.Check(err)
	_, err = f.WriteString(strings.Repeat(args[2]+"\n", n))
	ts.Check(err)
	ts.Check(f.Close())
}
