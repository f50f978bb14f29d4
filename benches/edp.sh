#!/usr/bin/env bash
# The published Excluded Diagonals benchmark (CSPLib problem 079) decided by the search engine,
# in K shards run side by side by GNU parallel (docs/benchmarks.md, "The search engine").
#
#   benches/edp.sh [-j JOBS] [-k SHARDS] [-o DIR] [-- OPTIONS OF benches/edp.rs]
#
#   benches/edp.sh -j 2 -k 2 -- --n 21              # all 42,000 recorded answers of n = 21
#   benches/edp.sh -j 2 -k 8 -- --n 10..21 --every 50   # a sample of every n
#
# Builds the bench program once (`cargo bench --bench edp --no-run`), runs shard I/K of the
# selection in each job (one search thread each), writes DIR/shard-I.tsv and DIR/shard-I.log,
# and prints the merged summary: instances, agreement with the recorded answers, the sum of
# the per-instance times, the wall time of the whole run, and the recorded solver's total on
# the same instances. Exits 1 when an answer disagrees or an instance is not decided.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
shards=""
outdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    -j) jobs=$2; shift 2 ;;
    -k) shards=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "benches/edp.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shards=${shards:-$jobs}
outdir=${outdir:-$(mktemp -d /tmp/qs-edp-XXXX)}
mkdir -p "$outdir"
command -v parallel >/dev/null || { echo "benches/edp.sh: GNU parallel is needed (apt-get install parallel)" >&2; exit 2; }
cd "$here"
bin=$(cargo bench --bench edp --no-run --message-format=json 2>/dev/null \
  | sed -n 's/.*"executable":"\([^"]*\/edp-[^"]*\)".*/\1/p' | tail -1)
[ -x "$bin" ] || { echo "benches/edp.sh: cannot build benches/edp.rs" >&2; exit 2; }
start=$(date +%s.%N)
status=0
seq 1 "$shards" | parallel -j "$jobs" --halt never \
  "$bin --shard {}/$shards $* > $outdir/shard-{}.tsv 2> $outdir/shard-{}.log" || status=$?
end=$(date +%s.%N)
rows=$(mktemp)
tail -q -n +2 "$outdir"/shard-*.tsv > "$rows"
# shellcheck source=benches/timing.sh
. "$here/benches/timing.sh"    # median
awk -F'\t' -v wall="$(echo "$end - $start" | bc)" -v jobs="$jobs" \
    -v med="$(cut -f7 "$rows" | median)" -v cmed="$(cut -f8 "$rows" | median)" '
  { k++; t += $7; cpu += $8; rt += $5
    if ($6 == $4) agree++; else if ($6 == "TIMEOUT") undecided++; else wrong++
    if ($7 > max) max = $7 }
  END {
    printf "%d instances: %d agree, %d disagree, %d undecided\n", k, agree, wrong, undecided
    printf "search: %.1f s summed over instances (%.1f s CPU), wall %.1f s with %d jobs; median %.6f s (CPU %.6f s), max %.3f s\n", t, cpu, wall, jobs, med, cmed, max
    printf "recorded solver (2017): %.1f s summed over the same instances\n", rt
  }' "$rows"
rm -f "$rows"
echo "rows: $outdir/shard-*.tsv"
exit "$status"
