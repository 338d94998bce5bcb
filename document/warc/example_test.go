package warc_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/urix-dev/urix/document/warc"
)

func ExampleReader() {
	block := "See http://example.com/ for more.\n"
	in := "WARC/1.1\r\n" +
		"WARC-Type: conversion\r\n" +
		"WARC-Target-URI: http://site.example/page\r\n" +
		"WARC-Record-ID: <urn:uuid:1>\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n", len(block)) +
		"\r\n" + block + "\r\n\r\n"
	r := warc.NewReader(strings.NewReader(in))
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err) // a malformed record: Next goes on at the next one
			continue
		}
		body, _ := io.ReadAll(rec.Body)
		fmt.Printf("%s %s %s at %d: %q\n", rec.Type, rec.RecordID, rec.TargetURI, rec.Offset, body)
	}
	// Output: conversion <urn:uuid:1> http://site.example/page at 0: "See http://example.com/ for more.\n"
}

// The records of a WARC file already in memory, each block held where it
// lies (HoldBody) until its Release; done comes once nothing holds the
// bytes any more.
func ExampleNewReaderOf() {
	var in strings.Builder
	for i, block := range []string{"See http://example.com/a\n", "and http://example.com/b\n"} {
		fmt.Fprintf(&in, "WARC/1.1\r\nWARC-Type: conversion\r\nWARC-Record-ID: <urn:uuid:%d>\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", i, len(block), block)
	}
	r := warc.NewReaderOf([]byte(in.String()), nil, func() { fmt.Println("done with the bytes") })
	var holds []warc.Hold
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		block, hold, _ := r.HoldBody(1 << 20)
		fmt.Printf("%s: %q\n", rec.RecordID, block)
		holds = append(holds, hold)
	}
	r.Close()
	for _, h := range holds {
		h.Release()
	}
	// Output:
	// <urn:uuid:0>: "See http://example.com/a\n"
	// <urn:uuid:1>: "and http://example.com/b\n"
	// done with the bytes
}
