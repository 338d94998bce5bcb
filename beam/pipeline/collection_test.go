package pipeline

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// uris are the URIs of the generated collection, in the forms people
// write them: equal normal forms written differently, IRIs, IP hosts,
// hosts under public suffixes of two labels, schemes without authority,
// invalid ones, bare www. hosts and addresses for --www and --email.
var uris = []string{
	"http://example.com/a",
	"HTTP://Example.COM:80/a",
	"http://example.com/%7Euser/",
	"https://www.example.com/index.html?q=1#top",
	"https://例え.テスト/パス",
	"http://bücher.example/katalog",
	"http://192.168.0.1/admin",
	"http://[2001:db8::1]:8080/x",
	"ftp://ftp.example.co.uk/pub/file.txt",
	"http://www.bbc.co.uk/news",
	"https://sub.domain.example.com./trailing-dot",
	"mailto:someone@example.net",
	"urn:isbn:0451450523",
	"news:comp.lang.go",
	"file:///etc/hosts",
	"git+https://github.com/user/repo",
	"s3://bucket/key",
	"http://a/%zz",
	"http://example.com:port/",
	"https://github.com/",
	"https://github.com/user/repo/issues/18",
}

var bare = []string{"www.example.org/page", "alice@example.org", "o'brien@example.com"}

// sentence writes text around a URI in one of the contexts of behaviour
// §3: bare, in <...> (broken across lines now and then, after a hyphen
// too), quoted, in brackets, with a URL: prefix, with trailing punctuation.
func sentence(r *rand.Rand, u string) string {
	words := []string{"See", "Read", "The page", "Moved to", "Details:", "cf."}
	w := words[r.IntN(len(words))]
	switch r.IntN(9) {
	case 0:
		return fmt.Sprintf("%s %s for more.", w, u)
	case 1:
		return fmt.Sprintf("%s <%s> now.", w, u)
	case 2:
		if i := strings.LastIndexByte(u, '/'); i > len("http://") {
			return fmt.Sprintf("%s <%s\n   %s> (broken).", w, u[:i+1], u[i+1:])
		}
		return fmt.Sprintf("%s <URL:%s>", w, u)
	case 3:
		return fmt.Sprintf(`%s "%s", they said.`, w, u)
	case 4:
		return fmt.Sprintf("%s (%s).", w, u)
	case 5:
		return fmt.Sprintf("%s [%s label]", w, u)
	case 6:
		return fmt.Sprintf("%s <URL: %s>.", w, u)
	case 7:
		return fmt.Sprintf("%s <http://example.com/some-\n  thing> and %s!", w, u)
	}
	return fmt.Sprintf("%s: %s", w, u)
}

func pick(r *rand.Rand) string {
	if r.IntN(6) == 0 {
		return bare[r.IntN(len(bare))]
	}
	return uris[r.IntN(len(uris))]
}

// text is a plain text of n paragraphs.
func text(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		for range 1 + r.IntN(4) {
			b.WriteString(sentence(r, pick(r)))
			b.WriteByte(' ')
		}
		if i%7 == 3 {
			b.WriteString("\n> quoted <http://quoted.example/a/\n> b/c> reply")
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// mbox is an mbox of n messages: plain, quoted-printable, base64 and
// multipart/alternative with an HTML part, list fields carrying URIs.
func mbox(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "From sender%d@example.com Mon Jan  1 00:00:%02d 2024\n", i, i%60)
		fmt.Fprintf(&b, "From: Sender <sender%d@example.com>\nTo: list@lists.example.org\n", i)
		fmt.Fprintf(&b, "Subject: message %d about %s\n", i, pick(r))
		if i%5 != 0 {
			fmt.Fprintf(&b, "Message-ID: <m%d.%s@example.com>\n", i, "x")
		}
		fmt.Fprintf(&b, "References: <http://not.searched.example/%d>\n", i)
		fmt.Fprintf(&b, "List-Archive: <http://lists.example.org/archive/%d>\n", i)
		b.WriteString("MIME-Version: 1.0\n")
		body := text(r, 1+r.IntN(3))
		switch i % 4 {
		case 0:
			b.WriteString("Content-Type: text/plain; charset=utf-8\n\n")
			b.WriteString(strings.ReplaceAll(body, "\nFrom ", "\n>From "))
		case 1:
			b.WriteString("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n")
			var qp bytes.Buffer
			w := quotedprintable.NewWriter(&qp)
			w.Write([]byte(body))
			w.Close()
			b.WriteString(strings.ReplaceAll(qp.String(), "\r\n", "\n"))
			b.WriteString("\n")
		case 2:
			b.WriteString("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n")
			enc := base64.StdEncoding.EncodeToString([]byte(body))
			for len(enc) > 76 {
				b.WriteString(enc[:76] + "\n")
				enc = enc[76:]
			}
			b.WriteString(enc + "\n")
		case 3:
			u := pick(r)
			b.WriteString("Content-Type: multipart/alternative; boundary=\"bnd\"\n\n--bnd\n")
			b.WriteString("Content-Type: text/plain; charset=utf-8\n\n")
			b.WriteString(body)
			b.WriteString("\n--bnd\nContent-Type: text/html; charset=utf-8\n\n")
			fmt.Fprintf(&b, "<html><body><p>See <a href=\" %s \">the &amp; page</a> and <img src=\"http://img.example/%d.png\"> %s</p></body></html>\n", u, i, pick(r))
			// Hrefs invalid as a whole (behaviour §9.5): a template left in,
			// an NBSP; --invalid lists each whole.
			fmt.Fprintf(&b, "<p><a href=\"http://t.example/u?id={{id%d}}\">t</a> <a href=\"http://t.example/a&nbsp;%d\">n</a></p>\n", i, i)
			b.WriteString("--bnd--\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// warcRecords are the records of a WET-like WARC file: a warcinfo record,
// then conversion records of text and response records of HTML.
func warcRecords(r *rand.Rand, n int) []string {
	rec := func(typ, target, id, block string) string {
		var h strings.Builder
		fmt.Fprintf(&h, "WARC/1.0\r\nWARC-Type: %s\r\n", typ)
		if target != "" {
			fmt.Fprintf(&h, "WARC-Target-URI: %s\r\n", target)
		}
		fmt.Fprintf(&h, "WARC-Record-ID: <urn:uuid:%s>\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", id, len(block), block)
		return h.String()
	}
	out := []string{rec("warcinfo", "", "00000000-0000-0000-0000-000000000000", "software: urix test\r\n")}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("00000000-0000-0000-0000-%012d", i)
		target := fmt.Sprintf("http://page%d.example/", i%17)
		if i%3 == 0 {
			html := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><a href=\"%s\">x</a> %s</html>", pick(r), text(r, 1))
			out = append(out, rec("response", target, id, html))
			continue
		}
		out = append(out, rec("conversion", target, id, text(r, 1+r.IntN(3))))
	}
	return out
}

func gzipMembers(t *testing.T, parts ...string) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		w := gzip.NewWriter(&b)
		w.Write([]byte(p))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func zstdOf(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeCollection writes a collection of every kind of input the CLI
// reads into dir: plain text, gzip (a WARC of one member per record, as
// Common Crawl writes them), zstd, mbox (plain and gzip), a news article,
// WARC, a text larger than any element should be, a text holding a
// candidate longer than --max-length, a malformed message and a truncated
// gzip file. Both the CLI and the pipeline read it.
func writeCollection(t *testing.T, dir string) {
	r := rand.New(rand.NewPCG(18, 2026))
	files := map[string][]byte{
		"plain.txt":        []byte(text(r, 40)),
		"notes.md":         []byte(text(r, 5)),
		"compressed.gz":    gzipMembers(t, text(r, 30)),
		"archive.zst":      zstdOf(t, text(r, 30)),
		"list.mbox":        []byte(mbox(r, 60)),
		"old-list.mbox.gz": gzipMembers(t, mbox(r, 40)),
		"article.news": []byte("Path: news.example!not-for-mail\nFrom: poster@example.com\nNewsgroups: comp.lang.go\n" +
			"Subject: links\nMessage-ID: <art1@news.example>\nArchived-At: <http://archive.example/art1>\n\n" +
			"In article <abc@host.example>, someone wrote:\n> see <http://quoted.example/x/\n> y>\n\n" + text(r, 4)),
		"crawl.warc":    []byte(strings.Join(warcRecords(r, 80), "")),
		"crawl.warc.gz": gzipMembers(t, warcRecords(r, 120)...),
		"big.txt":       []byte(text(r, 3000)),
		"long.txt":      []byte("before http://before.example/ then http://example.com/" + strings.Repeat("a", 70<<10) + " after http://after.example/\n"),
		"bad.eml":       []byte("From: x\nContent-Type: multipart/mixed; boundary=zz\n\n--zz\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n!!!not base64 http://in.bad.example/\n--zz\nContent-Type: text/plain\n\nafter http://after-bad.example/\n--zz--\n"),
		"empty.txt":     nil,
		// Binary (a NUL in its first block): read when named, skipped
		// by -r and "**" unless --text.
		"image.bin":      []byte("\x89PNG\r\n\x1a\n\x00\x00 see http://in-binary.example/ and " + text(r, 2)),
		"no-uris.txt":    []byte("Nothing here: at 10:30, std::vector, C:\\x, ratio 3:2.\n"),
		"sub/nested.txt": []byte(text(r, 3)),
	}
	truncated := gzipMembers(t, text(r, 200))
	files["truncated.txt.gz"] = truncated[:len(truncated)*2/3]
	// The hostile files of issue 34: a WARC file gzipped a member a
	// record with one member corrupt, an xz file that declares a window
	// of 4 GiB, a WARC record whose Content-Length is past any file's
	// (the records after it unread), a dangling symbolic link.
	files["corrupt-member.warc.gz"] = corruptMember(t, warcRecords(r, 30), 12)
	files["huge-window.txt.xz"] = xzStored([]byte{40}, []byte(text(r, 5)))
	// An mbox gzipped a member a message (read in ranges at its
	// members), cut in its last member: the ranges before it are read,
	// the last fails as the CLI's reading does.
	members := mboxMembers(t, mbox(r, 20))
	files["truncated-members.mbox.gz"] = members[:len(members)-40]
	files["bad-length.warc"] = []byte(strings.Join(warcRecords(r, 3), "") +
		"WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: http://bad.example/\r\nContent-Length: 99999999999999999999\r\n\r\nsee http://in-bad.example/\r\n\r\n" +
		strings.Join(warcRecords(r, 3), ""))
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling.txt")); err != nil {
		t.Fatal(err)
	}
}

// mboxMembers gzips each message of an mbox as a member of its own.
func mboxMembers(t *testing.T, mbox string) []byte {
	msgs := strings.SplitAfter(mbox, "\n\nFrom ")
	var parts []string
	for i, m := range msgs {
		if i > 0 {
			m = "From " + m
		}
		parts = append(parts, strings.TrimSuffix(m, "From "))
	}
	return gzipMembers(t, parts...)
}

// corruptMember gzips each part as a member of its own, and spoils the
// deflate data of member k (a CRC or deflate error there).
func corruptMember(t *testing.T, parts []string, k int) []byte {
	var out []byte
	for i, p := range parts {
		m := gzipMembers(t, p)
		if i == k {
			for j := len(m) / 3; j < len(m)/3+8; j++ {
				m[j] ^= 0x55
			}
		}
		out = append(out, m...)
	}
	return out
}

// xzStored makes an xz stream (check CRC32) of one block per data, each
// held in LZMA2 uncompressed chunks under a block header that declares
// the dictionary size code dicts[i] (40: 4 GiB - 1), as package
// document's hostile tests make it: the declared window costs the file
// nothing.
func xzStored(dicts []byte, blocks ...[]byte) []byte {
	le := binary.LittleEndian
	flags := []byte{0x00, 0x01} // check: CRC32
	out := []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}
	out = append(out, flags...)
	out = le.AppendUint32(out, crc32.ChecksumIEEE(flags))
	var records []byte
	for i, data := range blocks {
		start := len(out)
		h := []byte{0, 0x00, 0x21, 1, dicts[i]} // size (below), one filter: LZMA2
		for (len(h)+4)%4 != 0 {
			h = append(h, 0)
		}
		h[0] = byte((len(h)+4)/4 - 1)
		out = append(out, le.AppendUint32(h, crc32.ChecksumIEEE(h))...)
		for j := 0; j < len(data); j += 64 << 10 {
			chunk := data[j:min(len(data), j+64<<10)]
			control := byte(2) // uncompressed, no dictionary reset
			if j == 0 {
				control = 1
			}
			out = append(out, control, byte((len(chunk)-1)>>8), byte(len(chunk)-1))
			out = append(out, chunk...)
		}
		out = append(out, 0)
		unpadded := len(out) - start + 4
		for (len(out)-start)%4 != 0 {
			out = append(out, 0)
		}
		out = le.AppendUint32(out, crc32.ChecksumIEEE(data))
		records = binary.AppendUvarint(records, uint64(unpadded))
		records = binary.AppendUvarint(records, uint64(len(data)))
	}
	index := binary.AppendUvarint([]byte{0}, uint64(len(blocks)))
	index = append(index, records...)
	for len(index)%4 != 0 {
		index = append(index, 0)
	}
	index = le.AppendUint32(index, crc32.ChecksumIEEE(index))
	out = append(out, index...)
	footer := append(le.AppendUint32(nil, uint32(len(index)/4-1)), flags...)
	out = le.AppendUint32(out, crc32.ChecksumIEEE(footer))
	return append(append(out, footer...), 'Y', 'Z')
}
