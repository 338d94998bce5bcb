#!/usr/bin/env bash
# dense.sh: peak memory and time of split reading (one large file read by
# several workers) on a text dense with URIs, the worst case for the output
# it holds (issue #17, item 2).
#
#   bench/dense.sh [URIX]    URIX: a urix binary (default: built from this tree)
#
# The file (50 MB of lines of 2 or 3 URIs each, 1.14 million URIs) is
# written to $TMPDIR and removed at the end. For each of -j 1, 2 and 8,
# with and without --json, it prints the wall and cpu time and the peak RSS
# (/usr/bin/time -v), least of RUNS (default 3) for times, largest for RSS.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/urix-dense.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
URIX=${1:-}
if [ -z "$URIX" ]; then
	URIX=$WORK/urix
	(cd "$HERE/.." && go build -o "$URIX" .)
fi
RUNS=${RUNS:-3}
awk 'BEGIN {
	while (n < 50000000) {
		i++
		if (i % 3 == 0)
			l = sprintf("mail <mailto:user%d@example.com> or http://x.example/%d, then.\n", i, i)
		else
			l = sprintf("see http://host%d.example.org/path/%d/index.html?q=%d and <https://www.example.com/a/b/%d> (ftp://ftp.example.net/pub/%d).\n", i % 997, i, i * 7, i, i)
		printf "%s", l
		n += length(l)
	}
}' >"$WORK/dense.txt"
printf '| command | wall s | cpu s | peak RSS MiB |\n|---|--:|--:|--:|\n'
for json in "" --json; do
	for j in 1 2 8; do
		best_wall= best_cpu= rss=0
		for _ in $(seq "$RUNS"); do
			/usr/bin/time -v -o "$WORK/time" "$URIX" -j $j $json "$WORK/dense.txt" >/dev/null
			wall=$(awk -F': ' '/Elapsed/ {n = split($2, t, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + t[k]; print s}' "$WORK/time")
			cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$WORK/time")
			r=$(awk -F': ' '/Maximum resident/ {print $2}' "$WORK/time")
			best_wall=$(awk -v a="$wall" -v b="${best_wall:-1e9}" 'BEGIN {print (a < b) ? a : b}')
			best_cpu=$(awk -v a="$cpu" -v b="${best_cpu:-1e9}" 'BEGIN {print (a < b) ? a : b}')
			[ "$r" -gt "$rss" ] && rss=$r
		done
		printf '| urix -j %d %s dense.txt | %.2f | %.2f | %.1f |\n' "$j" "$json" "$best_wall" "$best_cpu" "$(awk -v r="$rss" 'BEGIN {print r / 1024}')"
	done
done
