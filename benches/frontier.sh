#!/usr/bin/env bash
# The Excluded Diagonals phase transition past the published n = 21, with the paper's own
# generator (docs/experiments.md, "Excluded Diagonals past n = 21"): for each n, each D and each
# seed, `generate excluded-diagonals N --min-free 4 --seed S --compatible jair --d D` (the
# first D diagonals that queens-diag-gen.py N 4 S keeps) decided by `solve --engine search`.
#
#   benches/frontier.sh [-j JOBS] [-t SECONDS] [-T THREADS] [-x SECONDS] -n "22 24" -d "0.86 0.905 0.95" -s 1..20
#
# -d takes fractions of n (D = round(f * n)) or, with a leading '=', numbers of diagonals
# ("=20 =21"). Each instance runs with `--threads THREADS` (default 1) within SECONDS of CPU
# time (default 600: `ulimit -t`, so that a loaded machine does not shorten the budget; the
# wall time is bounded by `--timeout` at 20 times that), JOBS at a time (default 1). With
# -x SECONDS, an instance the search leaves undecided goes to the Exact PB solver on its OPB
# form with the search's arguments as linear constraints (`compare --solver exact --redundant
# diagonals,sums,moments`, PyPI package exact under QUEENS_SAT_PYTHON) within SECONDS; the
# times then add both. Prints one tab-separated row per instance (n, D, seed, numdiags,
# answer SAT/UNSAT/TIMEOUT, wall s, CPU s = user + system, decided by: search, exact or -)
# to stdout, then a summary per (n, D) on stderr: instances, fraction SAT, median and maximum
# CPU and wall seconds, undecided.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
qs=${QS:-$here/target/release/queens-sat}
jobs=1 timeout=600 threads=1 sizes="" fractions="" seeds="1..20" exact=0
while getopts "j:t:T:n:d:s:x:" o; do
  case $o in
    j) jobs=$OPTARG ;; t) timeout=$OPTARG ;; T) threads=$OPTARG ;; x) exact=$OPTARG ;;
    n) sizes=$OPTARG ;; d) fractions=$OPTARG ;; s) seeds=$OPTARG ;;
    *) exit 2 ;;
  esac
done
[ -n "$sizes" ] && [ -n "$fractions" ] || { echo "benches/frontier.sh: -n and -d are needed" >&2; exit 2; }
command -v parallel >/dev/null || { echo "benches/frontier.sh: GNU parallel is needed" >&2; exit 2; }
[ -x "$qs" ] || { echo "benches/frontier.sh: build queens-sat first (cargo build --release) or set QS" >&2; exit 2; }
if [ "$exact" != 0 ]; then
  "${QUEENS_SAT_PYTHON:-python3}" -c 'import exact' 2>/dev/null || {
    echo "benches/frontier.sh: -x needs the PyPI package exact under \$QUEENS_SAT_PYTHON (${QUEENS_SAT_PYTHON:-python3}): pip install exact" >&2; exit 2; }
fi
lo=${seeds%..*} hi=${seeds#*..}
work=$(mktemp -d /tmp/qs-frontier-XXXX)
trap 'rm -rf "$work"' EXIT
one() { # n D seed
  local f="$work/e-$1-$2-$3.txt" t="$work/e-$1-$2-$3.time" answer
  "$qs" generate excluded-diagonals "$1" --min-free 4 --seed "$3" --compatible jair --d "$2" -o "$f" 2>/dev/null \
    || { printf '%s\t%s\t%s\t-\tNOINSTANCE\t0\t0\n' "$1" "$2" "$3"; return; }
  local k; k=$(sed -n 's/.*numdiags=\([0-9]*\).*/\1/p' "$f")
  if (ulimit -t "$timeout"; /usr/bin/time -f "%e %U %S" -o "$t" "$qs" solve --instance "$f" \
      --engine search --format line --threads "$threads" --timeout $((20 * timeout)) \
      > "$f.out" 2>/dev/null); then
    if grep -q '^[0-9]' "$f.out"; then answer=SAT; else answer=UNSAT; fi
  else
    answer=TIMEOUT
  fi
  local by=search
  [ "$answer" = TIMEOUT ] && by=-
  if [ "$answer" = TIMEOUT ] && [ "$exact" != 0 ]; then
    # The search's budget spent; Exact on the OPB with the redundant constraints.
    /usr/bin/time -f "%e %U %S" -o "$t.x" "$qs" compare --instance "$f" --solver exact \
      --redundant diagonals,sums,moments --amo pairwise --repeat 1 --timeout "$exact" \
      --csv "$f.csv" > /dev/null 2>&1 || true
    local status
    status=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i } NR == 2 { print $c }' "$f.csv" 2>/dev/null)
    case $status in SAT|UNSAT) answer=$status by=exact ;; esac
    # The last lines (a killed search's file starts with "Command terminated by signal").
    echo "$(tail -1 "$t") $(tail -1 "$t.x")" | awk '{ print $1 + $4, $2 + $5, $3 + $6 }' > "$t.sum"
    mv "$t.sum" "$t"
  fi
  awk -v n="$1" -v d="$2" -v s="$3" -v k="$k" -v a="$answer" -v by="$by" \
    'END { printf "%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\n", n, d, s, k, a, $1, $2 + $3, by }' "$t"
}
export -f one
export qs work timeout threads exact
for n in $sizes; do
  for f in $fractions; do
    case $f in
      =*) d=${f#=} ;;
      *) d=$(awk -v n="$n" -v f="$f" 'BEGIN { printf "%d", f * n + 0.5 }') ;;
    esac
    for s in $(seq "$lo" "$hi"); do echo "$n $d $s"; done
  done
done | parallel -j "$jobs" --colsep ' ' --keep-order one {1} {2} {3} | tee "$work/rows.tsv"
# shellcheck source=benches/timing.sh
. "$here/benches/timing.sh"    # median
{
  printf 'n\tD\tinstances\tSAT\tUNSAT\tundecided\tfraction SAT\tmedian CPU s\tmax CPU s\tmedian wall s\tmax wall s\n'
  cut -f1,2 "$work/rows.tsv" | sort -u -k1,1n -k2,2n | while read -r n d; do
    awk -F'\t' -v n="$n" -v d="$d" '$1 == n && $2 == d' "$work/rows.tsv" > "$work/point"
    awk -F'\t' -v cm="$(cut -f7 "$work/point" | median)" -v wm="$(cut -f6 "$work/point" | median)" '
      { k++; if ($5 == "SAT") s++; else if ($5 == "UNSAT") u++; else x++
        if ($7 > mc) mc = $7; if ($6 > mw) mw = $6; n = $1; d = $2 }
      END { printf "%s\t%s\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", n, d, k, s, u, x, s / k, cm, mc, wm, mw }' "$work/point"
  done
} >&2
