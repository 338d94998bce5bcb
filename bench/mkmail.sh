#!/bin/bash
# Build the mail and WARC benchmark inputs from the corpus's text.txt:
#   mail.mbox  ~N messages (default 20,000) holding text.txt in order: a third
#              text/plain 8bit, a third quoted-printable, a third
#              multipart/alternative with a base64 HTML part; one in five in
#              ISO-8859-1 (see mkmail/main.go)
#   text.wet   a WARC/WET file of the same pieces, one conversion record each
#   text.wet.gz  the same, gzipped a member a record (as Common Crawl's)
#   mail.html  the HTML of 400 of the mbox's HTML parts, decoded (for
#              BenchmarkWalkHTML)
#   maildir/   the mbox's messages as a Maildir, a file each (cur/N:2,S,
#              without the "From " line; body lines ">From " left as they
#              are), as mail clients keep them
# The corpus (CORPUS_DIR, default /tmp/urix-corpus) is built first with
# shared/bench/mkcorpus.sh when text.txt is missing (SIZE_MB=200 by default;
# a smaller SIZE_MB and another CORPUS_DIR give a quick corpus).
#
# Usage: bench/mkmail.sh        (MESSAGES=20000)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
OUT=${CORPUS_DIR:-/tmp/urix-corpus}
MESSAGES=${MESSAGES:-20000}
if [ ! -f "$OUT/text.txt" ]; then
	mk=${MKCORPUS:-$here/../../shared/bench/mkcorpus.sh}
	[ -x "$mk" ] || mk=/work/shared/bench/mkcorpus.sh
	CORPUS_DIR=$OUT "$mk"
fi
(cd "$here" && go build -o "$OUT/.mkmail" ./mkmail)
"$OUT/.mkmail" -n "$MESSAGES" -html "$OUT/mail.html.tmp" -wetgz "$OUT/text.wet.gz.tmp" "$OUT/text.txt" "$OUT/mail.mbox.tmp" "$OUT/text.wet.tmp"
mv "$OUT/mail.mbox.tmp" "$OUT/mail.mbox"
mv "$OUT/text.wet.tmp" "$OUT/text.wet"
mv "$OUT/text.wet.gz.tmp" "$OUT/text.wet.gz"
mv "$OUT/mail.html.tmp" "$OUT/mail.html"
rm -f "$OUT/.mkmail"
rm -rf "$OUT/maildir.tmp" "$OUT/maildir"
mkdir -p "$OUT/maildir.tmp/cur" "$OUT/maildir.tmp/new" "$OUT/maildir.tmp/tmp"
awk -v dir="$OUT/maildir.tmp/cur" '/^From / { if (f) close(f); f = sprintf("%s/%d:2,S", dir, ++n); next } f { print > f }' "$OUT/mail.mbox"
mv "$OUT/maildir.tmp" "$OUT/maildir"
{
	echo "mail.mbox: $(stat -c %s "$OUT/mail.mbox") bytes, $(grep -c '^From ' "$OUT/mail.mbox") 'From ' lines, from text.txt ($(stat -c %s "$OUT/text.txt") bytes) in $MESSAGES pieces"
	echo "text.wet: $(stat -c %s "$OUT/text.wet") bytes, $(grep -c '^WARC-Type: conversion' "$OUT/text.wet") conversion records"
	echo "text.wet.gz: $(stat -c %s "$OUT/text.wet.gz") bytes"
	echo "maildir: $(find "$OUT/maildir/cur" -type f | wc -l) files, $(du -sb --apparent-size "$OUT/maildir" | cut -f1) bytes"
} | tee "$OUT/MAILSTATS"
