#!/bin/bash
# adversarial.sh: the worst-case inputs of issue #17, one pattern repeated
# over ADV_MB MiB (default 10; ADV_MB=100 gives the issue's 100 MB), one
# line or many, timed with urix -c -j 1 --email --www beside ordinary text
# (the corpus slice text-32m.txt): least of 3 of the wall time, the CPU
# time (user + sys) of that run, MB/s of the wall time and its ratio to the
# MB/s of ordinary text, which the issue wants at 0.1 or more. On a machine
# shared with other jobs the CPU time is the steadier figure; "cpu ratio"
# is the ratio of the CPU MB/s.
# URIX names the binary. Files go to $TMPDIR/urix-adv.* and are removed at
# the end.
U=${URIX:-urix}
MB=${ADV_MB:-10}
W=$(mktemp -d "${TMPDIR:-/tmp}/urix-adv.XXXXXX"); trap 'rm -rf "$W"' EXIT
C=${URIX_CORPUS:-/tmp/urix-corpus}
TIMEFORMAT='%R %U %S'

# best FILE: "wall_ms cpu_ms" of the run with the least wall time of 3.
best() {
	local bw=-1 bc=0 r u s w c
	for _ in 1 2 3; do
		read -r r u s < <({ time "$U" -c -j1 --email --www "$1" >/dev/null 2>&1; } 2>&1)
		w=$(awk -v r="$r" 'BEGIN { printf "%d", r * 1000 }')
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')
		if [ "$bw" -lt 0 ] || [ "$w" -lt "$bw" ]; then bw=$w bc=$c; fi
	done
	echo "$bw $bc"
}

# row NAME BYTES WALL_MS CPU_MS: one line of the table.
row() {
	N="$1" awk -v b="$2" -v w="$3" -v c="$4" -v bw="$base_w" -v bc="$base_c" 'BEGIN {
		# (the name comes through the environment: -v would read its \n)
		w = w < 1 ? 1 : w; c = c < 1 ? 1 : c
		mbs = b / 1e3 / w; cmbs = b / 1e3 / c
		printf "%-48s %7d %7d %8.0f %6.2f %6.2f\n", ENVIRON["N"], w, c, mbs, mbs / bw, cmbs / bc
	}'
}

printf '%-48s %7s %7s %8s %6s %6s\n' input "wall ms" "cpu ms" MB/s ratio "cpu ratio"
size=$(stat -c %s "$C/text-32m.txt")
read -r w c < <(best "$C/text-32m.txt")
base_w=$(awk -v b="$size" -v w="$w" 'BEGIN { print b / 1e3 / (w < 1 ? 1 : w) }')
base_c=$(awk -v b="$size" -v c="$c" 'BEGIN { print b / 1e3 / (c < 1 ? 1 : c) }')
row "ordinary text (text-32m.txt)" "$size" "$w" "$c"

# Each pattern is a Python expression; \n in a name is a line break.
patterns=(
	"'<http://'" "'\"http://'" "'http://'" "'a@'" "'@'" "'www.'"
	"'<http://a/b-\n'" "'> > > > > see <http://example.com/a/\n'"
	"'>' * 1000 + ' see <http://example.com/a/\n'"
	"'a:'" "':'" "'<'" "'('" "'%'" "'['" "'a-\n'" "'-\n'" "'<URL:'"
	# Beyond the issue's list: valid URIs packed as tight as they go, each
	# one validated, normalized and counted.
	"'http://a/b '" "'<http://a/b>'" "'www.a.com '" "'a@b.com '"
)
for p in "${patterns[@]}"; do
	python3 -c "
import sys
p = ($p).encode()
n = $MB * 1024 * 1024 // len(p)
sys.stdout.buffer.write(p * n)" > "$W/f.txt"
	name=$(python3 -c "import sys; p = ($p); print(repr(p) if len(p) < 46 else repr(p[:20]) + '...' + repr(p[-20:]))")
	read -r w c < <(best "$W/f.txt")
	row "$name" "$(stat -c %s "$W/f.txt")" "$w" "$c"
done
