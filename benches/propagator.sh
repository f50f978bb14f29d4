#!/usr/bin/env bash
# The propagator engine against a baseline build on the n = 30 band's refutations
# (docs/benchmarks.md, "The propagator engine on n = 30 refutations").
#
#   benches/propagator.sh BASELINE CANDIDATE ROUNDS [CAP] [FILE...]
#
# BASELINE and CANDIDATE are queens-sat programs (a build of the commit before a change, and
# the change's). Each round runs `solve --instance FILE --engine propagator` of each program on
# each file in turn, CPU time capped at CAP seconds (default 60: a run at the cap had no
# answer). The files default to six of docs/results/frontier/n30-refutations. Prints, per
# file and program, the median user CPU time over the rounds and the answer of the last
# round (NONE at the cap), and the ratio baseline / candidate (">": the baseline reached the
# cap). Exits 1 when the two programs answer a file differently.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 3 ]; then
  echo "usage: benches/propagator.sh BASELINE CANDIDATE ROUNDS [CAP] [FILE...]" >&2
  exit 2
fi
baseline=$1 candidate=$2 rounds=$3
cap=${4:-60}
shift $(($# < 4 ? $# : 4))
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  for f in d25-seed2 d26-seed13 d27-seed3 d27-seed13 d28-seed8 d29-seed8; do
    files+=("$here/docs/results/frontier/n30-refutations/$f.txt")
  done
fi
# One run: "user-seconds answer" (answer UNSAT, SAT or NONE at the cap).
run() {
  local out t
  out=$(/usr/bin/time -o "$tmp" -f "%U" bash -c "ulimit -t $cap; \"\$0\" solve --instance \"\$1\" --engine propagator --format line 2>/dev/null" "$1" "$2" 2>/dev/null | head -c 40) || true
  t=$(tail -1 "$tmp")
  case "$out" in
    "no solution"*) echo "$t UNSAT" ;;
    [0-9]*) echo "$t SAT" ;;
    *) echo "$t NONE" ;;
  esac
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
status=0
printf '| instance | baseline (s) | answer | candidate (s) | answer | ratio |\n|---|---:|---|---:|---|---:|\n'
for f in "${files[@]}"; do
  b=() c=() ba="" ca=""
  for _ in $(seq "$rounds"); do
    read -r t a < <(run "$baseline" "$f"); b+=("$t"); ba=$a
    read -r t a < <(run "$candidate" "$f"); c+=("$t"); ca=$a
  done
  mb=$(printf '%s\n' "${b[@]}" | median)
  mc=$(printf '%s\n' "${c[@]}" | median)
  # At the cap the baseline's time is a lower bound, and so is the ratio (the candidate's
  # an upper bound); a time under 0.01 s counts as 0.01 s. Below 10x two decimals (0.20x: the
  # candidate is five times slower).
  bound=""
  [ "$ba" = NONE ] && bound=">"
  [ "$ca" = NONE ] && bound="<"
  ratio=$(awk -v b="$mb" -v c="$mc" -v p="$bound" 'BEGIN { r = (b > 0.01 ? b : 0.01) / (c > 0.01 ? c : 0.01); printf (r < 10 ? "%s%.2fx" : "%s%.0fx"), p, r }')
  printf '| %s | %s | %s | %s | %s | %s |\n' "$(basename "$f")" "$mb" "$ba" "$mc" "$ca" "$ratio"
  if [ "$ba" != NONE ] && [ "$ca" != NONE ] && [ "$ba" != "$ca" ]; then
    echo "benches/propagator.sh: $(basename "$f"): the answers differ" >&2
    status=1
  fi
done
exit $status
