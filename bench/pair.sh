#!/bin/bash
# Do two CPUs slow each other? One `urix -c -j 1 FILE` alone, then two at
# once (each reading the whole file), ROUNDS times (default 8); the wall
# time of each. A pair that takes as long as one alone would mean that
# -j 2 could reach 2x but for its start-up and its chunks' joins.
#
# Usage: bench/pair.sh URIX [FILE]   (FILE: /tmp/urix-corpus/text.txt)
set -euo pipefail
B=$1
F=${2:-/tmp/urix-corpus/text.txt}
for ((r = 0; r < ${ROUNDS:-8}; r++)); do
	s=$(date +%s.%N)
	"$B" -c -j 1 "$F" >/dev/null
	e=$(date +%s.%N)
	a=$(echo "$e - $s" | bc)
	s=$(date +%s.%N)
	"$B" -c -j 1 "$F" >/dev/null &
	"$B" -c -j 1 "$F" >/dev/null
	wait
	e=$(date +%s.%N)
	echo "alone $a pair $(echo "$e - $s" | bc)"
done
