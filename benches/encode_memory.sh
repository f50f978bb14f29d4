#!/usr/bin/env bash
# Peak memory (max RSS) of `queens-sat encode N -o FILE` for growing N: the writer streams, so
# it should stay flat whatever the clause count. Baseline in the same run: `cat` of the file.
# Usage: benches/encode_memory.sh [N...]   (default 100 200 300)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
bin="${CARGO_TARGET_DIR:-target}/release/queens-sat"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| n | clauses | file size | max RSS encode | max RSS cat |\n|---|---|---|---|---|\n'
for n in "${@:-100 200 300}"; do
  for m in $n; do
    /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" encode "$m" -o "$tmp/q.cnf"
    rss=$(cat "$tmp/rss")
    /usr/bin/time -f '%M' -o "$tmp/rss_cat" cat "$tmp/q.cnf" >/dev/null
    clauses=$(grep -m1 '^p cnf' "$tmp/q.cnf" | awk '{print $4}')
    size=$(du -m "$tmp/q.cnf" | cut -f1)
    printf '| %s | %s | %s MB | %s KB | %s KB |\n' "$m" "$clauses" "$size" "$rss" "$(cat "$tmp/rss_cat")"
  done
done
