#!/bin/bash
# Side by side, in one run: urix reading the corpus's text.txt as text, and
# the same text as an mbox (mail.mbox), as a WARC/WET file (text.wet) and,
# when it is there, as a Maildir of a file a message (-r maildir), made by
# bench/mkmail.sh. Each command is run N times (default 7), the
# commands interleaved round by round so that all meet the same load; the
# least wall and the least cpu (user+sys) time of each are printed, with
# MB/s of text.txt's size (the same text) and the ratio to text.txt, and
# MB/s of each file's own size with the ratio of those (the issue's first
# figures were MB/s of the mbox). Check first that the files are in the
# page cache (fincore): on hosts whose cache holds ~3 GB, others evict them.
#
# The state of the files' pages moves the ratios (session 14): text.txt,
# read in chunks from a mapping, runs 0.031 s when its pages were read back
# from disk by readahead (large folios) and 0.036-0.042 s when just written
# or long resident, while the mbox's time hardly moves. STATE=readback
# (root: sync, drop the page cache, read the files back) or STATE=written
# (copy each file over itself) puts all of them in one state first; the
# default leaves them as they are.
#
# Usage: bench/mailcompare.sh [URIX_BINARY...]   (default: urix built from ..)
#        N=11 FLAGS=-c CORPUS_DIR=/tmp/urix-corpus STATE=readback bench/mailcompare.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
C=${CORPUS_DIR:-/tmp/urix-corpus}
N=${N:-7}
FLAGS=${FLAGS:--c}
[ -f "$C/mail.mbox" ] && [ -f "$C/text.wet" ] || CORPUS_DIR=$C "$here/mkmail.sh"
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
	(cd "$here/.." && go build -o /tmp/urix-mailcompare .)
	bins=(/tmp/urix-mailcompare)
fi
size=$(stat -c %s "$C/text.txt")
# All three files must stay in the page cache for the whole run: a few
# megabytes of text.txt read back from disk made it 15 % slower (and the
# mbox look faster against it) in session 12. They are read once first,
# and checked before and after (fincore, util-linux); a file not whole in
# the cache at the end makes the run's figures suspect.
resident() {
	command -v fincore >/dev/null || return 0
	local f res total ok=0
	for f in text.txt mail.mbox text.wet maildir; do
		[ -e "$C/$f" ] || continue
		read -r res total < <(find "$C/$f" -type f -exec fincore -b -n -o RES,SIZE {} + | awk '{r += $1; t += $2} END {print r, t}')
		if [ "$res" -lt "$total" ]; then
			echo "# WARNING: $1: $f is not all in the page cache ($res of $total bytes)" >&2
			ok=1
		fi
	done
	return $ok
}
case ${STATE:-} in
readback)
	sync
	echo 3 >/proc/sys/vm/drop_caches || { echo "STATE=readback: cannot drop the page cache (not root?)" >&2; exit 2; }
	;;
written)
	for f in text.txt mail.mbox text.wet; do
		cp "$C/$f" "$C/$f.tmp" && mv "$C/$f.tmp" "$C/$f"
	done
	;;
"") ;;
*)
	echo "STATE: readback, written, or unset" >&2
	exit 2
	;;
esac
cat "$C/text.txt" "$C/mail.mbox" "$C/text.wet" >/dev/null
inputs=("text.txt" "--format text mail.mbox" "mail.mbox" "text.wet")
if [ -d "$C/maildir" ]; then
	# The mbox's messages as a Maildir, a file each (bench/mkmail.sh).
	inputs+=("-r maildir")
	find "$C/maildir" -type f -exec cat {} + >/dev/null
fi
resident "before the run" || true
declare -A wall cpu
TIMEFORMAT='%3R %3U %3S'
for ((r = 0; r < N; r++)); do
	for b in "${bins[@]}"; do
		for in in "${inputs[@]}"; do
			set -- $in
			args=("${@:1:$#-1}")
			t=$( { time "$b" $FLAGS "${args[@]}" "$C/${!#}" >/dev/null 2>&1; } 2>&1 )
			read -r w u s <<<"$t"
			c=$(echo "$u + $s" | bc)
			k="$b|$in"
			if [ -z "${wall[$k]:-}" ] || (($(echo "$w < ${wall[$k]}" | bc))); then wall[$k]=$w; fi
			if [ -z "${cpu[$k]:-}" ] || (($(echo "$c < ${cpu[$k]}" | bc))); then cpu[$k]=$c; fi
		done
	done
done
cached="files resident throughout (fincore)"
resident "after the run" || cached="NOT all resident at the end (fincore): figures suspect"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); urix $FLAGS; least of $N, interleaved; $cached; pages: ${STATE:-as they were}"
echo "# MB/s = text.txt's $size bytes (the text all three hold) over the time; own MB/s = the file's own bytes over the time"
printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' binary input "wall s" "MB/s wall" "× text (wall)" "cpu s" "× text (cpu)" "own MB/s" "× text (own bytes)"
printf '|---|---|--:|--:|--:|--:|--:|--:|--:|\n'
for b in "${bins[@]}"; do
	tw=${wall["$b|text.txt"]}
	tc=${cpu["$b|text.txt"]}
	for in in "${inputs[@]}"; do
		k="$b|$in"
		own=$(du -sb --apparent-size "$C/${in##* }" | cut -f1)
		printf '| %s | %s | %.3f | %.0f | %.3f | %.3f | %.3f | %.0f | %.3f |\n' "$(basename "$b")" "$in" "${wall[$k]}" \
			"$(echo "$size / ${wall[$k]} / 1000000" | bc -l)" "$(echo "$tw / ${wall[$k]}" | bc -l)" \
			"${cpu[$k]}" "$(echo "$tc / ${cpu[$k]}" | bc -l)" \
			"$(echo "$own / ${wall[$k]} / 1000000" | bc -l)" "$(echo "$own / $size * $tw / ${wall[$k]}" | bc -l)"
	done
done
