package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/urix-dev/urix/document"
)

// FuzzRanges checks the invariant of ranges on any input, read as its
// first bytes say, as an mbox and as a WARC file: the outputs of the
// ranges, in order, and their messages put together are Run's.
func FuzzRanges(f *testing.F) {
	f.Add(genMbox(6, 1), uint16(1), uint8(0))
	f.Add(genMbox(6, 2), uint16(200), uint8(1))
	f.Add(bytes.Join(genWARC(8, 3), nil), uint16(1), uint8(0))
	f.Add(gzipMembers(genWARC(8, 4)), uint16(1), uint8(0))
	f.Add(gzipMembers(genWARC(8, 5))[:900], uint16(30), uint8(2))
	f.Add([]byte("From a b 10:00\n\nFrom x\nhttp://a.example/\n\nFrom b c 11:00\n<http://b.example/\n"), uint16(1), uint8(1))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, target uint16, format uint8) {
		file := filepath.Join(dir, "input")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		o := DefaultOptions()
		o.Output.JSON, o.Warnings = true, true
		o.Format = []document.Format{document.Auto, document.Mbox, document.WARC}[format%3]
		wantOut, wantErr, wantStatus := runWhole(file, o)
		gotOut, gotErr, gotStatus, _ := runRanges(t, file, o, int64(target))
		if gotOut != wantOut || gotErr != wantErr || gotStatus != wantStatus {
			t.Errorf("ranges of %d bytes differ from the whole file:\nstdout %s\nstderr %q\n  want %q\nstatus %d, want %d",
				target, firstDiff(gotOut, wantOut), gotErr, wantErr, gotStatus, wantStatus)
		}
	})
}
