package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/urix-dev/urix/document"
	"github.com/urix-dev/urix/extract"
)

// FuzzRanges checks the invariant of ranges on any input, read as its
// first bytes say, as an mbox, as a WARC file and as text (ranges of
// lines, joined by a scan ahead): the outputs of the ranges, in order,
// and their messages put together are Run's.
func FuzzRanges(f *testing.F) {
	f.Add(genMbox(6, 1), uint16(1), uint8(0))
	f.Add(genMbox(6, 2), uint16(200), uint8(1))
	f.Add(bytes.Join(genWARC(8, 3), nil), uint16(1), uint8(0))
	f.Add(gzipMembers(genWARC(8, 4)), uint16(1), uint8(0))
	f.Add(gzipMembers(genWARC(8, 5))[:900], uint16(30), uint8(2))
	f.Add([]byte("From a b 10:00\n\nFrom x\nhttp://a.example/\n\nFrom b c 11:00\n<http://b.example/\n"), uint16(1), uint8(1))
	for _, text := range hostileTexts {
		f.Add([]byte(text), uint16(1), uint8(3))
		f.Add([]byte(text), uint16(20), uint8(4))
	}
	f.Add(genText(60, 2), uint16(700), uint8(3))
	f.Add(genText(60, 3), uint16(4100), uint8(5))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, target uint16, format uint8) {
		file := filepath.Join(dir, "input")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		o := DefaultOptions()
		o.Output.JSON, o.Warnings = true, true
		// Text twice over: with lines, columns and the forms that give
		// two URIs for one candidate, and with a short --max-length.
		o.Format = []document.Format{document.Auto, document.Mbox, document.WARC, document.Text, document.Text, document.Auto}[format%6]
		switch format % 6 {
		case 4:
			o.Output.JSON, o.Output.Line, o.Output.Column = false, true, true
			o.Extract.Hyphen, o.Extract.BareBreak, o.Extract.WWW, o.Extract.Email = extract.HyphenBoth, extract.BareBreakBoth, true, true
		case 5:
			o.Extract.MaxLength = 100
		}
		wantOut, wantErr, wantStatus := runWhole(file, o)
		// At most a few hundred ranges: each costs a run's setup, and a
		// text range a scan of up to 8 KiB before it.
		size := max(int64(target), int64(len(data)/256))
		gotOut, gotErr, gotStatus, _ := runRanges(t, file, o, size)
		if gotOut != wantOut || gotErr != wantErr || gotStatus != wantStatus {
			t.Errorf("ranges of %d bytes differ from the whole file:\nstdout %s\nstderr %q\n  want %q\nstatus %d, want %d",
				size, firstDiff(gotOut, wantOut), gotErr, wantErr, gotStatus, wantStatus)
		}
	})
}
