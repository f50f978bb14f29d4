#!/usr/bin/env bash
# End-to-end timings of `queens-sat construct` for n = 10^5, 10^6, 10^7: median wall time of
# R runs each (default 11), with same-run baselines: process start-up (`construct 1`) and
# `seq N` (coreutils writing N numbers, about the same amount of text as the one-line form).
# Usage: benches/construct_cli.sh [runs]     (builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/queens-sat"

# median_ms CMD...: runs CMD $runs times (stdout to /dev/null), prints the median in ms.
median_ms() {
  local t=()
  for _ in $(seq "$runs"); do
    local s e
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s%N)
    t+=($(( (e - s) / 1000 )))
  done
  printf '%s\n' "${t[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

printf '%-10s %-44s %10s %12s\n' n command median_ms ns_per_queen
for n in 100000 1000000 10000000; do
  for cmd in "construct 1" "construct $n --check --format none" \
             "construct $n --method staircase --check --format none" \
             "construct $n" "construct $n --check" "seq $n"; do
    if [[ $cmd == seq* ]]; then
      ms=$(median_ms $cmd)
    else
      # shellcheck disable=SC2086
      ms=$(median_ms "$bin" $cmd)
    fi
    per=$(awk -v ms="$ms" -v n="$n" 'BEGIN {printf "%.2f", ms * 1e6 / n}')
    [[ $cmd == "construct 1" ]] && per="-"
    printf '%-10s %-44s %10s %12s\n' "$n" "$cmd" "$ms" "$per"
  done
done
