#!/bin/bash
# CPU time of urix binaries on one input, side by side: each binary run in
# turn, N rounds, `perf stat -e task-clock` (user+sys of all threads, in
# ms) of each run; the least and the median of each binary are printed.
# Wall time on 2 CPUs follows CPU time for mail (both CPUs are busy), and
# CPU time is the steadier figure on a shared host.
#
# Usage: BINS="/tmp/urix-old /tmp/urix-new" bench/abcpu.sh N ARGS...
#   e.g. BINS="/tmp/a /tmp/b" bench/abcpu.sh 15 -c /tmp/urix-corpus/mail.mbox
set -euo pipefail
N=$1
shift
for ((i = 0; i < N; i++)); do
	for b in $BINS; do
		perf stat -x, -e task-clock "$b" "$@" 2>&1 >/dev/null | awk -F, -v b="$b" '/task-clock/ {print b, $1}'
	done
done | python3 -c '
import sys, statistics, collections
d = collections.defaultdict(list)
for line in sys.stdin:
    b, v = line.split()
    d[b].append(float(v))
for b, v in d.items():
    print("%-24s cpu ms least %.1f median %.1f (n=%d)" % (b, min(v), statistics.median(v), len(v)))
'
