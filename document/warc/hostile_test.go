package warc

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// event describes what one call to Next gave: "record TYPE at OFFSET: BODY"
// (the body read whole, and its error) or "error: MESSAGE".
func events(r io.Reader) []string {
	wr := NewReader(r)
	var out []string
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, "error: "+err.Error())
			var fe *FormatError
			if !errors.As(err, &fe) {
				return out
			}
			continue
		}
		body, err := io.ReadAll(rec.Body)
		e := ""
		if err != nil {
			e = " (" + err.Error() + ")"
		}
		out = append(out, fmt.Sprintf("record %s at %d: %q%s", rec.Type, rec.Offset, body, e))
	}
}

// malformed are bad records of every kind the reader resynchronises after.
var malformed = []string{
	"WARC/1.0\r\nWARC-Type: response\r\n\r\nno length\r\n\r\n",
	"WARC/1.0\r\nContent-Length: 12x\r\n\r\nbody\r\n\r\n",
	"WARC/1.0\r\nContent-Length: -5\r\n\r\n",
	"WARC/1.0\r\nWARC-Type response\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n",
	"WARC/1.0\r\nWARC-Type: response\r\n", // cut short: the next record starts at once
	"garbage line\r\n\x00\x01 binary\xff\r\n",
	"WARC/1.x\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
	"WARC/1.0\r\nContent-Length: 2\r\n\r\nabcdef\r\n\r\n",
	"WARC/1.0\r\n continuation first\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
	"WARC/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
}

func good(i int) string {
	return rec("WARC/1.0", []string{"WARC-Type: conversion", fmt.Sprintf("WARC-Record-ID: <urn:uuid:good-%d>", i)},
		fmt.Sprintf("see https://example.com/%d\n", i))
}

// Thousands of malformed records do not stop the reading: every good
// record around them is read, in work and memory linear in the input.
func TestManyMalformedRecords(t *testing.T) {
	build := func(bad int) (string, []string) {
		var b strings.Builder
		var want []string
		for i := range bad {
			b.WriteString(malformed[i%len(malformed)])
			if i%1000 == 999 { // a good record now and then
				want = append(want, fmt.Sprintf("<urn:uuid:good-%d>", i))
				b.WriteString(good(i))
			}
		}
		for i := range 10 {
			want = append(want, fmt.Sprintf("<urn:uuid:good-end-%d>", i))
			b.WriteString(strings.Replace(good(i), "good-", "good-end-", 1))
		}
		return b.String(), want
	}
	read := func(in string) (ids []string, bad int, allocated uint64) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		wr := NewReader(strings.NewReader(in))
		for calls := 0; ; calls++ {
			if calls > strings.Count(in, "\n")+2 {
				t.Fatalf("%d calls to Next on %d lines", calls, strings.Count(in, "\n")+1)
			}
			rec, err := wr.Next()
			if err == io.EOF {
				break
			}
			var fe *FormatError
			if errors.As(err, &fe) {
				bad++
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(rec.Body)
			if !strings.Contains(rec.RecordID, "good") {
				continue // the record of a Content-Length too short
			}
			if err != nil || !strings.HasPrefix(string(body), "see https://example.com/") {
				t.Fatalf("record %s: body %q, %v", rec.RecordID, body, err)
			}
			ids = append(ids, rec.RecordID)
		}
		runtime.ReadMemStats(&after)
		return ids, bad, after.TotalAlloc - before.TotalAlloc
	}
	in, want := build(5000)
	ids, bad, alloc5000 := read(in)
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("good records read:\n%v\nwant\n%v", ids, want)
	}
	// Each of the 4500 that start with "WARC/1." is reported; the garbage
	// lines go in the resynchronisation after the record before them.
	if bad != 4500 {
		t.Errorf("%d errors for 5000 malformed records", bad)
	}
	// Linear: five times the bad records, about five times the work
	// (allocation stands for it: the reader allocates per line and record).
	in1000, _ := build(1000)
	_, _, alloc1000 := read(in1000)
	t.Logf("%d bytes, %d errors; allocated %d KiB (1000 bad records: %d KiB)", len(in), bad, alloc5000>>10, alloc1000>>10)
	if alloc5000 > 7*alloc1000 || alloc5000 > 16*uint64(len(in)) {
		t.Errorf("allocated %d KiB for 5000 bad records, %d KiB for 1000", alloc5000>>10, alloc1000>>10)
	}
}

// A Content-Length that lies costs the record it is in, and what it
// swallows; the reading goes on or ends with an error that says so.
func TestContentLengthLies(t *testing.T) {
	head := func(cl string) string { return "WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: " + cl + "\r\n\r\n" }
	first, last := good(1), good(2)
	off := func(parts ...string) int { return len(strings.Join(parts, "")) }
	cases := []struct {
		name, in string
		want     []string
	}{{
		"too short: the rest of the body is not a record",
		first + head("4") + "body and more\r\n\r\n" + last,
		[]string{
			fmt.Sprintf("record conversion at 0: %q", "see https://example.com/1\n"),
			fmt.Sprintf("record resource at %d: %q", off(first), "body"),
			fmt.Sprintf("error: warc: malformed record at offset %d: expected a \"WARC/1.x\" line, found \" and more\"", off(first, head("4"), "body")),
			fmt.Sprintf("record conversion at %d: %q", off(first, head("4"), "body and more\r\n\r\n"), "see https://example.com/2\n"),
		},
	}, {
		"too long: the body runs on over the next record to the end",
		first + head("400") + "body\r\n\r\n" + last,
		[]string{
			fmt.Sprintf("record conversion at 0: %q", "see https://example.com/1\n"),
			fmt.Sprintf("record resource at %d: %q (warc: malformed record at offset %d: input ends after %d of the body's 400 bytes)", off(first), "body\r\n\r\n"+last, off(first), off("body\r\n\r\n", last)),
		},
	}, {
		"negative",
		first + head("-4") + "body\r\n\r\n" + last,
		[]string{
			fmt.Sprintf("record conversion at 0: %q", "see https://example.com/1\n"),
			fmt.Sprintf("error: warc: malformed record at offset %d: bad Content-Length \"-4\"", off(first)),
			fmt.Sprintf("record conversion at %d: %q", off(first, head("-4"), "body\r\n\r\n"), "see https://example.com/2\n"),
		},
	}, {
		"beyond 64 bits",
		first + head("18446744073709551616") + "body\r\n\r\n" + last,
		[]string{
			fmt.Sprintf("record conversion at 0: %q", "see https://example.com/1\n"),
			fmt.Sprintf("error: warc: malformed record at offset %d: bad Content-Length \"18446744073709551616\"", off(first)),
			fmt.Sprintf("record conversion at %d: %q", off(first, head("18446744073709551616"), "body\r\n\r\n"), "see https://example.com/2\n"),
		},
	}, {
		"huge: 2^63-1, streamed to the end, never held",
		first + head("9223372036854775807") + "body\r\n\r\n" + last,
		[]string{
			fmt.Sprintf("record conversion at 0: %q", "see https://example.com/1\n"),
			fmt.Sprintf("record resource at %d: %q (warc: malformed record at offset %d: input ends after %d of the body's 9223372036854775807 bytes)", off(first), "body\r\n\r\n"+last, off(first), off("body\r\n\r\n", last)),
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				if got := events(r); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
				}
			}
		})
	}
	// Skipped rather than read, a lying length ends the same way.
	wr := NewReader(strings.NewReader(first + head("9223372036854775807") + "body"))
	wr.Next()
	wr.Next()
	if _, err := wr.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("skipping a body cut short: %v", err)
	}
	if _, err := wr.Next(); err != io.EOF {
		t.Errorf("after it: %v, want io.EOF", err)
	}
}

// A header of many short continuation lines is read in linear time: the
// folded value is gathered, not joined again at each line.
func TestFoldedHeaderLinear(t *testing.T) {
	const lines = 60000 // 240 KiB of header, under the 1 MiB bound
	in := "WARC/1.0\r\nX-Folded: a\r\n" + strings.Repeat(" b\r\n\t\r\n", lines/2) + "Content-Length: 0\r\n\r\n\r\n\r\n" + good(1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := events(strings.NewReader(in))
	runtime.ReadMemStats(&after)
	if len(got) != 2 || !strings.HasPrefix(got[1], "record conversion") {
		t.Fatalf("%.200q", got)
	}
	wr := NewReader(strings.NewReader(in))
	rec, err := wr.Next()
	if err != nil || rec.Header.Get("X-Folded") != "a"+strings.Repeat(" b", lines/2) {
		t.Fatalf("folded value %.40q..., %v", rec.Header.Get("X-Folded"), err)
	}
	// Joined at each line, the value would be copied lines²/4 times over:
	// about 900 MiB here.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("reading a %d KiB header allocated %d MiB", len(in)>>10, grew>>20)
	}
}

// The records and errors never depend on how the input is split into reads.
func TestReadSplits(t *testing.T) {
	in := response + malformed[0] + tricky + malformed[4] + malformed[5] + wet + malformed[7] + empty + "WARC/1.0\r\nContent-Length: 50\r\n\r\nshort"
	whole := events(strings.NewReader(in))
	for k := 1; k < len(in); k++ {
		if got := events(io.MultiReader(strings.NewReader(in[:k]), strings.NewReader(in[k:]))); strings.Join(got, "\n") != strings.Join(whole, "\n") {
			t.Fatalf("cut at %d:\n%s\nwhole:\n%s", k, strings.Join(got, "\n"), strings.Join(whole, "\n"))
		}
	}
	for name, wrap := range map[string]func(io.Reader) io.Reader{"one byte": iotest.OneByteReader, "halves": iotest.HalfReader, "EOF with data": iotest.DataErrReader} {
		if got := events(wrap(strings.NewReader(in))); strings.Join(got, "\n") != strings.Join(whole, "\n") {
			t.Errorf("%s:\n%s\nwhole:\n%s", name, strings.Join(got, "\n"), strings.Join(whole, "\n"))
		}
	}
}
