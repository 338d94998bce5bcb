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
