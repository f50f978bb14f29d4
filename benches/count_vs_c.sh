#!/usr/bin/env bash
# The empty-board counter against the classic bitboard counter in C (benches/classic_counter.c,
# compiled here with the system C compiler at -O3), one thread each, side by side:
#
#   cargo build --release
#   benches/count_vs_c.sh [ROUNDS] [N...]        # default: 5 rounds, n = 16 17
#
# Each round runs, for each n, the C counter and then `queens-sat count N --threads 1` (which
# also finds the fundamental count and the classes), checks that the totals agree, and records
# the CPU time (user + system) of each process. Prints, per n, the median CPU times and their
# ratio (C / queens-sat: how many times faster the toolkit's counter is).
# QUEENS_SAT_COUNT_KERNEL (depth-first, avx2, avx512) in the environment measures that kernel
# of the counter instead of the fastest this processor runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-5}
shift || true
ns=${*:-16 17}
qs=${QUEENS_SAT_BIN:-${CARGO_TARGET_DIR:-$here/../target}/release/queens-sat}
[ -x "$qs" ] || { echo "count_vs_c.sh: no $qs (cargo build --release)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O3 -o "$tmp/classic" "$here/classic_counter.c"
echo "C compiler: $(cc --version | head -1); queens-sat: $("$qs" --version | head -1)"
# shellcheck source=benches/timing.sh
. "$here/timing.sh"    # cpu, median
for n in $ns; do
  : >"$tmp/c-$n"
  : >"$tmp/q-$n"
done
for r in $(seq 1 "$rounds"); do
  for n in $ns; do
    cpu "$tmp/classic" "$n" >>"$tmp/c-$n"
    c_total=$(cat "$tmp/out")
    cpu "$qs" count "$n" --threads 1 >>"$tmp/q-$n"
    q_total=$(awk '/^solutions:/ { print $2 }' "$tmp/out")
    [ "$c_total" = "$q_total" ] || { echo "n = $n: the C counter says $c_total, queens-sat $q_total" >&2; exit 1; }
    echo "round $r, n = $n: $c_total solutions; C $(tail -1 "$tmp/c-$n") s, queens-sat $(tail -1 "$tmp/q-$n") s" >&2
  done
done
echo "| n | C counter, median CPU (s) | queens-sat count, 1 thread, median CPU (s) | ratio |"
echo "|---|---:|---:|---:|"
for n in $ns; do
  c=$(median <"$tmp/c-$n")
  q=$(median <"$tmp/q-$n")
  echo "| $n | $c | $q | $(awk -v c="$c" -v q="$q" 'BEGIN { printf "%.2fx", c / q }') |"
done
