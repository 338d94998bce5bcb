package document

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"
)

// documentsOf lists the documents fn is given: each one's origin and
// body.
func documentsOf(t *testing.T, read func(fn func(*Document) error) error) []string {
	t.Helper()
	var out []string
	err := read(func(d *Document) error {
		body, err := io.ReadAll(d.Body)
		out = append(out, fmt.Sprintf("%+v %q", d.Origin, body))
		return err
	})
	if err != nil {
		out = append(out, "error: "+err.Error())
	}
	return out
}

// TestReadRange: the pieces between Boundaries, each read by ReadRange
// from its Boundary, give the documents Read gives, with the same
// origins, and the same error at the end.
func TestReadRange(t *testing.T) {
	var mbox, warcFile strings.Builder
	var members bytes.Buffer
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&mbox, "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: %d\n\nhttp://example.com/%d\n\n", i, i)
		block := fmt.Sprintf("page %d http://example.com/%d\n", i, i)
		rec := fmt.Sprintf("WARC/1.0\r\nWARC-Type: conversion\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
		warcFile.WriteString(rec)
		zw := gzip.NewWriter(&members)
		zw.Write([]byte(rec))
		zw.Close()
	}
	gz := members.Bytes()
	for name, data := range map[string][]byte{
		"mbox":          []byte(mbox.String()),
		"warc":          []byte(warcFile.String()),
		"warc.gz":       gz,
		"truncated.gz":  gz[:len(gz)-20],
		"single-stream": gzipOf(warcFile.String()),
	} {
		rd := NewReader(Options{})
		want := documentsOf(t, func(fn func(*Document) error) error { return rd.Read(bytes.NewReader(data), name, fn) })
		bounds := []Boundary{{}}
		rd.Boundaries(bytes.NewReader(data), name, func(b Boundary) error {
			bounds = append(bounds, b)
			return nil
		})
		var got []string
		for i, b := range bounds {
			end := int64(len(data))
			if i+1 < len(bounds) {
				end = bounds[i+1].Offset
			}
			piece := data[b.Offset:end]
			got = append(got, documentsOf(t, func(fn func(*Document) error) error {
				return rd.ReadRange(bytes.NewReader(piece), name, b, fn)
			})...)
		}
		wantBounds := 5
		if name == "single-stream" {
			wantBounds = 1
		}
		if len(bounds) != wantBounds {
			t.Errorf("%s: %d boundaries, want %d", name, len(bounds), wantBounds)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: by ranges\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func gzipOf(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}
