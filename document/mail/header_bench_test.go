package mail

import "testing"

// benchHeader is a header of a list message as bench/mkmail.sh writes
// them and mail archives hold them: two Received fields, the addresses,
// the List-* fields, the MIME fields.
const benchHeader = "Return-Path: <list-0@lists.example.org>\n" +
	"Received: from mx0.example.net (mx0.example.net [192.0.2.1])\n\tby mail.example.org with ESMTPS id 00000000\n\tfor <reader@example.org>; Thu, 01 Jan 2026 00:00:00 +0000\n" +
	"Received: from localhost (localhost [127.0.0.1])\n\tby mx0.example.net with LMTP id 00000000; Thu, 01 Jan 2026 00:00:00 +0000\n" +
	"From: Reader 0 <reader0@example.com>\nTo: urix-users@lists.example.org\n" +
	"Subject: Re: [urix-users] release notes #0\nDate: Thu, 01 Jan 2026 00:00:00 +0000\n" +
	"Message-ID: <0.00000000@mail.example.org>\nList-Id: urix users <urix-users.lists.example.org>\n" +
	"List-Unsubscribe: <https://lists.example.org/unsubscribe/urix-users>,\n <mailto:urix-users-leave@lists.example.org>\n" +
	"List-Archive: <https://lists.example.org/archive/urix-users/0>\nMIME-Version: 1.0\n" +
	"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nbody\n"

// BenchmarkHeader: a held header checked and parsed (parseHeld), as
// readHeader does for each message of an mbox.
func BenchmarkHeader(b *testing.B) {
	data := []byte(benchHeader)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var a valueArena
	for b.Loop() {
		var h header
		if _, ok := h.parseHeld(data, false, &a); !ok {
			b.Fatal("no header")
		}
		if h.known[hContentType] == "" {
			b.Fatal("no Content-Type")
		}
	}
}
