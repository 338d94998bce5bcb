package main

import (
	"bytes"
	"os"
	"os/exec"

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
//   - gzip-garbage: a gzip member a record, 8 bytes of garbage between
//     two members;
//   - gzip-truncated: a gzip member a record, the file cut short;
//   - zstd: one zstd stream, a byte flipped;
//   - bzip2: one bzip2 stream (made by bzip2(1), level 1: blocks of
//     100 kB), a byte flipped.
func cmdDamage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: damage gzip-member|gzip-garbage|gzip-truncated|zstd|bzip2 SRC DST")
	}
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	var out []byte
	switch args[0] {
	case "gzip-member", "gzip-garbage", "gzip-truncated":
		members := gzipRecords(ts, data)
		bad := len(members) * 2 / 3
		var b bytes.Buffer
		for i, m := range members {
			switch {
			case i == bad && args[0] == "gzip-member":
				m[len(m)/2] ^= 0x55
			case i == bad && args[0] == "gzip-garbage":
				b.WriteString("GARBAGE!")
			}
			b.Write(m)
		}
		out = b.Bytes()
		if args[0] == "gzip-truncated" {
			out = out[:len(out)*2/3]
		}
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
	for len(data) > 0 {
		end := bytes.Index(data[1:], []byte("WARC/1.0\r\n")) + 1
		if end == 0 {
			end = len(data)
		}
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		_, err := w.Write(data[:end])
		ts.Check(err)
		ts.Check(w.Close())
		members = append(members, b.Bytes())
		data = data[end:]
	}
	return members
}
