#!/bin/bash
# beamcollection.sh: the collections of the pipeline's bound (issue #34,
# "Bounded"; bench/README.md, "Session 18: the pipeline on prism"): a
# directory of mail, WARC and text, dense with URIs, for
# `urix --json -r DIR` and `urix-beam --input 'DIR/**'`.
#
#   SIZE=250M OUT=/tmp/beam250 bench/beamcollection.sh
#   SIZE=1G   OUT=/tmp/beam1g  bench/beamcollection.sh
#
# 250M (about 250 MB): one 150 MB mbox, one 80 MB WARC file gzipped a
#   member a record, four text files of 5 MB.
# 1G (about 1 GB): one 547 MB mbox, 4 mboxes of 25 MB, 40 WET files
#   (conversion records, gzipped a member a record) of 4 MB, 12 WARC files
#   (response records of HTML, gzipped a member a record) of 10 MB, 10
#   text files of 8 MB.
#
# The text is the corpus's text.txt (shared/bench/mkcorpus.sh, built into
# CORPUS_DIR, default /tmp/urix-corpus, when missing), read from an offset
# of its own for each file, with after every 13th line a line of 2 or 3
# URIs of their own (distinct paths, 997 hosts, mailto: addresses), as
# bench/dense.sh writes them: about 6 results a KB of text (1.6 million on
# the 250M collection; `urix -c -r OUT` counts them). The mboxes are
# bench/mkmail's (a third 8bit, a third quoted-printable, a third HTML in
# base64) of that text; the WARC and WET records wrap pieces of about
# 10 KB of it: response records hold it as HTML (escaped, each http(s) URI
# an <a href>) under an HTTP header, conversion records as text/plain,
# each with a WARC-Target-URI on one of 500 hosts, each record its own
# gzip member (as Common Crawl's). Everything is deterministic: the same
# text.txt gives the same files.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
SIZE=${SIZE:-250M}
OUT=${OUT:?OUT=dir: where to write the collection}
CORPUS=${CORPUS_DIR:-/tmp/urix-corpus}
if [ ! -f "$CORPUS/text.txt" ]; then
	mk=/work/shared/bench/mkcorpus.sh
	CORPUS_DIR=$CORPUS "$mk"
fi
mkdir -p "$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/beamcollection.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$here" && go build -o "$work/mkmail" ./mkmail)

# dense SEED BYTES: BYTES of text.txt from an offset of SEED's, looping,
# with a line of URIs numbered from SEED*10^7 after every 13th line.
dense() {
	python3 - "$CORPUS/text.txt" "$1" "$2" <<'EOF'
import sys
src, seed, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(src, 'rb') as f:
    text = f.read()
start = (seed * 7919 * 4096) % len(text)
start = text.index(b'\n', start) + 1 if b'\n' in text[start:] else 0
out, n, i, pos, line_no = [], 0, seed * 10**7, start, 0
while n < limit:
    end = text.find(b'\n', pos)
    if end < 0:
        pos = 0
        continue
    line = text[pos:end + 1]
    pos = end + 1
    out.append(line)
    n += len(line)
    line_no += 1
    if line_no % 13 == 0:
        i += 1
        if i % 3 == 0:
            l = 'mail <mailto:user%d@example.com> or http://x.example/%d, then.\n' % (i, i)
        else:
            l = ('see http://host%d.example.org/path/%d/index.html?q=%d and '
                 '<https://www.example.com/a/b/%d> (ftp://ftp.example.net/pub/%d).\n') % (i % 997, i, i * 7, i, i)
        out.append(l.encode())
        n += len(l)
sys.stdout.buffer.write(b''.join(out))
EOF
}

# warc KIND SEED TEXT FILE: TEXT's pieces of about 10 KB (cut at line
# ends) as WARC records of KIND (response or conversion), each its own
# gzip member, after a warcinfo record.
warc() {
	python3 - "$@" <<'EOF'
import gzip, html, re, sys
kind, seed, src, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
uri = re.compile(rb'https?://[^\s<>()"]+[^\s<>()".,;:!?]')
with open(src, 'rb') as f:
    text = f.read()
def member(rec):
    return gzip.compress(rec, compresslevel=6, mtime=0)
with open(dst, 'wb') as out:
    info = b'Software-Info: urix bench/beamcollection.sh\r\nFormat: WARC File Format 1.1\r\n'
    out.write(member(b'WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n'
                     b'WARC-Record-ID: <urn:uuid:%08x-0000-4000-8000-000000000000>\r\n'
                     b'Content-Type: application/warc-fields\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n'
                     % (seed, len(info), info)))
    pos, r = 0, 0
    while pos < len(text):
        end = text.find(b'\n', pos + 10000)
        end = len(text) if end < 0 else end + 1
        piece = text[pos:end]
        pos, r = end, r + 1
        target = b'https://site%d.example.%s/page/%d-%d' % (r % 500, [b'com', b'org', b'net'][r % 3], seed, r)
        if kind == 'response':
            body = []
            for line in piece.split(b'\n'):
                last = 0
                for m in uri.finditer(line):
                    body.append(html.escape(line[last:m.start()].decode('utf-8', 'replace')).encode())
                    u = html.escape(m.group().decode('utf-8', 'replace')).encode()
                    body.append(b'<a href="%s">%s</a>' % (u, u))
                    last = m.end()
                body.append(html.escape(line[last:].decode('utf-8', 'replace')).encode() + b'<br>\n')
            doc = b'<!DOCTYPE html>\n<html><head><title>page</title></head><body>\n' + b''.join(body) + b'</body></html>\n'
            block = (b'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n' % len(doc)) + doc
            ctype = b'application/http; msgtype=response'
        else:
            block, ctype = piece, b'text/plain'
        out.write(member(b'WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n'
                         b'WARC-Record-ID: <urn:uuid:%08x-%04x-4000-8000-000000000000>\r\n'
                         b'Content-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n'
                         % (kind.encode(), target, seed, r % 65536, ctype, len(block), block)))
EOF
}

# mbox SEED TEXTBYTES FILE: mkmail's mbox of TEXTBYTES of dense text, a
# message per 10 KB of it.
mbox() {
	dense "$1" "$2" >"$work/text"
	"$work/mkmail" -n $(($2 / 10000)) "$work/text" "$3" "$work/wet"
	rm -f "$work/text" "$work/wet"
}

# warcfile KIND SEED TEXTBYTES FILE
warcfile() {
	dense "$2" "$3" >"$work/text"
	warc "$1" "$2" "$work/text" "$4"
	rm -f "$work/text"
}

# The text sizes are those that give the file sizes above (an mbox is
# about 1.3 times its text; a gzipped record of dense text about 0.28, of
# its HTML 0.23).
case $SIZE in
250M)
	mbox 1 108500000 "$OUT/list.mbox"
	warcfile conversion 2 234000000 "$OUT/crawl.warc.gz"
	for i in 1 2 3 4; do dense $((10 + i)) 5000000 >"$OUT/notes-$i.txt"; done
	;;
1G)
	mbox 1 398000000 "$OUT/archive.mbox"
	for i in 1 2 3 4; do mbox $((1 + i)) 19000000 "$OUT/list-$i.mbox"; done
	mkdir -p "$OUT/wet" "$OUT/warc" "$OUT/text"
	for i in $(seq 1 40); do
		warcfile conversion $((100 + i)) 13000000 "$OUT/wet/CC-$(printf %05d "$i").warc.wet.gz"
	done
	for i in $(seq 1 12); do
		warcfile response $((200 + i)) 28600000 "$OUT/warc/CC-$(printf %05d "$i").warc.gz"
	done
	for i in $(seq 1 10); do dense $((300 + i)) 8000000 >"$OUT/text/notes-$i.txt"; done
	;;
*)
	echo "SIZE=$SIZE: want 250M or 1G" >&2
	exit 2
	;;
esac
du -sb "$OUT" | awk '{printf "%s: %d bytes\n", $2, $1}'
