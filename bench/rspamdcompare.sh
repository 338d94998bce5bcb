#!/bin/bash
# urix and rspamd side by side on what a mail filter asks of every link
# (behaviour §10): bench/mkphish.py writes phishing-shaped messages (numeric
# hosts in every form, user-part tricks, encoded hosts, IDN homographs and
# IDN hosts that are fine, anchor text that shows another site or the same
# site in another form, redirector and click-tracker links), each with the
# truth of its one link; urix --json --embedded and rspamd (rspamadm lua
# with bench/rspamdurls.lua: each URL's flags) read them, and
# bench/rspamdcompare.py reports per fact how often each is right, where
# they agree, and each case only one of them gets right.
#
# Needs rspamd (Debian: apt-get install rspamd; rspamadm 3.4 here). Nothing
# in CI runs this.
#
# Usage: bench/rspamdcompare.sh [DIR]   (default: a temporary directory)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dir=${1:-$(mktemp -d)}
command -v rspamadm >/dev/null || { echo "rspamadm not found (apt-get install rspamd)" >&2; exit 2; }
python3 "$here/mkphish.py" "$dir"
(cd "$root" && go build -o "$dir/urix" .)
files=$(ls "$dir"/*.eml)
"$dir/urix" --json --embedded $files > "$dir/urix.jsonl" || true
# rspamadm lua takes its script's arguments as one -a; the files, comma-joined.
rspamadm lua -a "$(echo $files | tr ' ' ',')" "$here/rspamdurls.lua" > "$dir/rspamd.tsv" 2> "$dir/rspamd.err" || true
python3 "$here/rspamdcompare.py" "$dir" "$dir/urix.jsonl" "$dir/rspamd.tsv"
