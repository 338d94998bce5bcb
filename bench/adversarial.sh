#!/bin/bash
# adversarial.sh: the worst-case inputs of issue #17 (10 MiB runs of one
# pattern, one line or many), urix -c -j 1 --email --www, least of 3, beside
# ordinary text (the corpus slice text-32m.txt). URIX names the binary.
# Files go to $TMPDIR/urix-adv and are removed at the end.
U=${URIX:-urix}
W=$(mktemp -d "${TMPDIR:-/tmp}/urix-adv.XXXXXX"); trap 'rm -rf "$W"' EXIT
C=${URIX_CORPUS:-/tmp/urix-corpus}
best() { local b=99; for i in 1 2 3; do s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); t=$(( (e-s)/1000000 )); [ $t -lt $b ] 2>/dev/null || [ $b = 99 ] && b=$t; done; echo $b; }
t=$(best $U -c -j1 --email --www "$C/text-32m.txt"); printf '%-44s %6s ms %6s MB/s\n' "ordinary text (text-32m.txt)" $t $(( 33554 / t ))
for p in '<http://' '"http://' 'http://' 'a@' '@' 'www.' '<http://a/b-\n' '> > > > > see <http://example.com/a/\n' 'a:' '<' '(' '%' '[' 'a-\n' '<URL:'; do
python3 -c "
import sys
p=sys.argv[1].encode().decode('unicode_escape').encode()
sys.stdout.buffer.write(p*(10*1024*1024//len(p)))" "$p" > "$W/f.txt"
t=$(best $U -c -j1 --email --www "$W/f.txt"); printf '%-44s %6s ms %6s MB/s\n' "$p" $t $(( 10485 / t ))
done
