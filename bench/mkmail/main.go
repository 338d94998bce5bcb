// Command mkmail builds, from one text file (the corpus's text.txt), an mbox
// and a WARC/WET file that hold the same text, for the mail and WARC
// benchmarks (bench/mkmail.sh runs it; bench/README.md, "mail and WARC").
//
//	mkmail -n 20000 [-html mail.html] text.txt mail.mbox text.wet
//
// The text is cut at line ends into n pieces of about the same size, in
// order; piece i becomes message i and record i. Messages take turns:
// text/plain 8bit, text/plain quoted-printable, and multipart/alternative
// with a short text/plain part (the piece's first lines) and the whole
// piece as HTML (escaped, paragraphs in <p>, http(s) URIs as <a href>)
// in base64. One message in five is in ISO-8859-1 (characters beyond it
// written '?'). Body lines starting "From " are written ">From " (mboxrd).
// The WET file is a warcinfo record and one conversion record per piece;
// with -wetgz, also gzipped a member a record, as Common Crawl's are.
// Everything is deterministic: the same text gives the same files.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"flag"
	"fmt"
	"html"
	"log"
	"mime"
	"mime/quotedprintable"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

func main() {
	n := flag.Int("n", 20000, "number of messages (and WARC records)")
	htmlOut := flag.String("html", "", "also write to this file the HTML of the first 400 HTML parts of the mbox, decoded, one after the other")
	wetGzip := flag.String("wetgz", "", "also write to this file the WET file gzipped a member a record")
	flag.Parse()
	if flag.NArg() != 3 {
		log.Fatal("usage: mkmail [-n N] [-html FILE] TEXT MBOX WET")
	}
	text, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	pieces := split(text, *n)
	if err := write(flag.Arg(1), func(w *bufio.Writer) { writeMbox(w, pieces) }); err != nil {
		log.Fatal(err)
	}
	if err := write(flag.Arg(2), func(w *bufio.Writer) { writeWET(w, pieces) }); err != nil {
		log.Fatal(err)
	}
	if *wetGzip != "" {
		if err := write(*wetGzip, func(w *bufio.Writer) { writeWETGzip(w, pieces) }); err != nil {
			log.Fatal(err)
		}
	}
	if *htmlOut != "" {
		if err := write(*htmlOut, func(w *bufio.Writer) { writeHTML(w, pieces, 400) }); err != nil {
			log.Fatal(err)
		}
	}
}

// writeHTML writes the HTML of the first max HTML parts of the mbox
// (messages 2, 5, 8...), as their base64 decodes to, UTF-8 ones only:
// the input of bench's BenchmarkWalkHTML, one HTML part of mail as the
// mail reader's HTML tokenizer sees it.
func writeHTML(w *bufio.Writer, pieces [][]byte, max int) {
	for i := 2; i < len(pieces) && max > 0; i += 3 {
		if i%5 == 4 {
			continue // ISO-8859-1
		}
		w.Write(toHTML(pieces[i]))
		max--
	}
}

func write(name string, f func(*bufio.Writer)) error {
	out, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	f(w)
	if err := w.Flush(); err != nil {
		return err
	}
	return out.Close()
}

// split cuts text into n pieces at line ends, each about len(text)/n bytes.
func split(text []byte, n int) [][]byte {
	size := max(len(text)/n, 1)
	var out [][]byte
	for len(text) > 0 {
		end := min(size, len(text))
		if i := bytes.IndexByte(text[end-1:], '\n'); i >= 0 {
			end += i
		} else {
			end = len(text)
		}
		out = append(out, text[:end])
		text = text[end:]
	}
	return out
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

var subjects = []string{
	"Re: [urix-users] release notes", "Weekly digest", "Café au lait: notes from the meeting",
	"Your documentation request", "[announce] new packages", "Fwd: copyright question",
}

func writeMbox(w *bufio.Writer, pieces [][]byte) {
	for i, p := range pieces {
		t := epoch.Add(time.Duration(i) * 37 * time.Second)
		latin1 := i%5 == 4
		cs := "utf-8"
		if latin1 {
			cs = "iso-8859-1"
			p = toLatin1(p)
		}
		fmt.Fprintf(w, "From list-%d@lists.example.org %s\n", i%97, t.Format("Mon Jan _2 15:04:05 2006"))
		var h strings.Builder
		fmt.Fprintf(&h, "Return-Path: <list-%d@lists.example.org>\n", i%97)
		fmt.Fprintf(&h, "Received: from mx%d.example.net (mx%d.example.net [192.0.2.%d])\n\tby mail.example.org with ESMTPS id %08x\n\tfor <reader@example.org>; %s\n", i%7, i%7, i%250+1, i*7919, t.Format(time.RFC1123Z))
		fmt.Fprintf(&h, "Received: from localhost (localhost [127.0.0.1])\n\tby mx%d.example.net with LMTP id %08x; %s\n", i%7, i*104729, t.Format(time.RFC1123Z))
		fmt.Fprintf(&h, "From: Reader %d <reader%d@example.com>\n", i%311, i%311)
		fmt.Fprintf(&h, "To: urix-users@lists.example.org\n")
		fmt.Fprintf(&h, "Subject: %s\n", mime.QEncoding.Encode("utf-8", fmt.Sprintf("%s #%d", subjects[i%len(subjects)], i)))
		fmt.Fprintf(&h, "Date: %s\n", t.Format(time.RFC1123Z))
		fmt.Fprintf(&h, "Message-ID: <%d.%08x@mail.example.org>\n", i, i*2654435761%(1<<32))
		if i > 0 {
			fmt.Fprintf(&h, "In-Reply-To: <%d.%08x@mail.example.org>\n", i-1, (i-1)*2654435761%(1<<32))
		}
		fmt.Fprintf(&h, "List-Id: urix users <urix-users.lists.example.org>\n")
		fmt.Fprintf(&h, "List-Unsubscribe: <https://lists.example.org/unsubscribe/urix-users>,\n <mailto:urix-users-leave@lists.example.org>\n")
		fmt.Fprintf(&h, "List-Archive: <https://lists.example.org/archive/urix-users/%d>\n", i)
		fmt.Fprintf(&h, "MIME-Version: 1.0\n")
		w.WriteString(h.String())
		switch i % 3 {
		case 0:
			fmt.Fprintf(w, "Content-Type: text/plain; charset=%s\nContent-Transfer-Encoding: 8bit\n\n", cs)
			body(w, p)
		case 1:
			fmt.Fprintf(w, "Content-Type: text/plain; charset=%s\nContent-Transfer-Encoding: quoted-printable\n\n", cs)
			body(w, qp(p))
		case 2:
			bd := fmt.Sprintf("=_alt_%08x", i*40503)
			fmt.Fprintf(w, "Content-Type: multipart/alternative;\n boundary=\"%s\"\n\n", bd)
			fmt.Fprintf(w, "This is a multi-part message in MIME format.\n\n--%s\n", bd)
			fmt.Fprintf(w, "Content-Type: text/plain; charset=%s\nContent-Transfer-Encoding: 8bit\n\n", cs)
			body(w, firstLines(p, 3))
			fmt.Fprintf(w, "\n--%s\n", bd)
			fmt.Fprintf(w, "Content-Type: text/html; charset=%s\nContent-Transfer-Encoding: base64\n\n", cs)
			w.Write(b64(toHTML(p)))
			fmt.Fprintf(w, "\n--%s--\n", bd)
		}
		w.WriteString("\n")
	}
}

// body writes p as a message body: ">From " for "From " at a line start
// (mboxrd), a final line end.
func body(w *bufio.Writer, p []byte) {
	for len(p) > 0 {
		line := p
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			line = p[:i+1]
		}
		p = p[len(line):]
		l := line
		for len(l) > 0 && l[0] == '>' {
			l = l[1:]
		}
		if bytes.HasPrefix(l, []byte("From ")) {
			w.WriteByte('>')
		}
		w.Write(line)
	}
	w.WriteString("\n")
}

func firstLines(p []byte, n int) []byte {
	end := 0
	for ; n > 0 && end < len(p); n-- {
		i := bytes.IndexByte(p[end:], '\n')
		if i < 0 {
			return p
		}
		end += i + 1
	}
	return p[:end]
}

func toLatin1(p []byte) []byte {
	out := make([]byte, 0, len(p))
	for len(p) > 0 {
		r, n := utf8.DecodeRune(p)
		p = p[n:]
		if r > 0xFF {
			r = '?'
		}
		out = append(out, byte(r))
	}
	return out
}

func qp(p []byte) []byte {
	var b bytes.Buffer
	q := quotedprintable.NewWriter(&b)
	q.Write(p)
	q.Close()
	return b.Bytes()
}

func b64(p []byte) []byte {
	enc := base64.StdEncoding
	raw := make([]byte, enc.EncodedLen(len(p)))
	enc.Encode(raw, p)
	out := make([]byte, 0, len(raw)+len(raw)/76+1)
	for len(raw) > 76 {
		out = append(out, raw[:76]...)
		out = append(out, '\n')
		raw = raw[76:]
	}
	return append(out, raw...)
}

var uriRE = regexp.MustCompile(`https?://[^\s<>"]+[^\s<>".,;:!?)']`)

// toHTML makes an HTML document of text: escaped, blank-line separated
// paragraphs in <p>, line breaks as <br>, http(s) URIs as links.
func toHTML(p []byte) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html\">\n<style>p { margin: 0 0 1em }</style></head>\n<body>\n<p>")
	for _, line := range strings.SplitAfter(string(p), "\n") {
		l := strings.TrimRight(line, "\n")
		if l == "" {
			if line != "" {
				b.WriteString("</p>\n<p>")
			}
			continue
		}
		last := 0
		for _, m := range uriRE.FindAllStringIndex(l, -1) {
			b.WriteString(html.EscapeString(l[last:m[0]]))
			u := html.EscapeString(l[m[0]:m[1]])
			fmt.Fprintf(&b, "<a href=\"%s\">%s</a>", u, u)
			last = m[1]
		}
		b.WriteString(html.EscapeString(l[last:]))
		b.WriteString("<br>\n")
	}
	b.WriteString("</p>\n</body></html>\n")
	return b.Bytes()
}

func writeWET(w *bufio.Writer, pieces [][]byte) {
	wetRecords(pieces, func(rec []byte) { w.Write(rec) })
}

// writeWETGzip writes the WET file gzipped a member a record, as Common
// Crawl publishes its WARC and WET files (gzip's default level).
func writeWETGzip(w *bufio.Writer, pieces [][]byte) {
	zw := gzip.NewWriter(w)
	wetRecords(pieces, func(rec []byte) {
		zw.Reset(w)
		zw.Write(rec)
		zw.Close()
	})
}

// wetRecords makes the records of the WET file, each whole, in order.
func wetRecords(pieces [][]byte, emit func(rec []byte)) {
	var b bytes.Buffer
	info := "Software-Info: urix bench/mkmail\nFormat: WARC File Format 1.0\n"
	fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Date: %s\r\nWARC-Filename: text.wet\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\nContent-Type: application/warc-fields\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		epoch.Format(time.RFC3339), len(info), info)
	emit(b.Bytes())
	for i, p := range pieces {
		b.Reset()
		t := epoch.Add(time.Duration(i) * 37 * time.Second)
		fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: https://docs.example.org/page/%d\r\nWARC-Date: %s\r\nWARC-Record-ID: <urn:uuid:%08x-0000-4000-8000-%012x>\r\nWARC-Refers-To: <urn:uuid:%08x-0000-4000-8000-%012x>\r\nWARC-Block-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n",
			i, t.Format(time.RFC3339), i, i, i+1<<20, i, len(p))
		b.Write(p)
		b.WriteString("\r\n\r\n")
		emit(b.Bytes())
	}
}
