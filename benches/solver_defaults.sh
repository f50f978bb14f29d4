#!/usr/bin/env bash
# The embedded solvers' default options (docs/benchmarks.md, "The embedded solvers' default
# options") on the small unsatisfiable and counting workloads: each embedded solver with the
# toolkit's defaults and with the solver's own (the defaults switched back off by
# --solver-option), side by side in every round:
#
#   cargo build --release
#   benches/solver_defaults.sh [ROUNDS]          # default: 3 rounds
#
# The workloads: the toroidal 12 x 12 and 14 x 14 boards (no solution: every toroidal board of
# even n has none), each refuted with `solve --instance`, and counting all solutions of n = 11
# and 12 (`solve N --count`: an enumeration, thousands of satisfiable solves and a last
# unsatisfiable one). Each answer is checked: the toroidal ones must say "no solution", the
# counts must be the published ones (2,680 and 14,200, docs/reference). Prints the median CPU
# time (user + system) of each workload and configuration, and the ratio toolkit / own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-3}
qs=${QUEENS_SAT_BIN:-${CARGO_TARGET_DIR:-$here/../target}/release/queens-sat}
[ -x "$qs" ] || { echo "solver_defaults.sh: no $qs (cargo build --release)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "queens-sat: $("$qs" --version | tr '\n' ' ')"
for n in 12 14; do "$qs" generate toroidal "$n" -o "$tmp/t$n.txt" >/dev/null; done
declare -A own=(
  [cadical]="--solver-option stabilizeonly=0"
  [kissat]="--solver-option target=1 --solver-option restartint=1"
)
# shellcheck source=benches/timing.sh
. "$here/timing.sh"    # cpu, median
expect() { # the output must contain $1
  grep -q "$1" "$tmp/out" || { echo "solver_defaults.sh: expected '$1', got: $(head -c 200 "$tmp/out")" >&2; exit 1; }
}
workloads="torus12 torus14 count11 count12"
for r in $(seq 1 "$rounds"); do
  for w in $workloads; do
    for b in cadical kissat; do
      for how in toolkit own; do
        opts=""
        [ "$how" = own ] && opts=${own[$b]}
        # shellcheck disable=SC2086
        case $w in
          torus*) cpu "$qs" solve --instance "$tmp/t${w#torus}.txt" --backend "$b" $opts >>"$tmp/$w-$b-$how"
                  expect "no solution" ;;
          count11) cpu "$qs" solve 11 --count --backend "$b" $opts >>"$tmp/$w-$b-$how"; expect "^2680$" ;;
          count12) cpu "$qs" solve 12 --count --backend "$b" $opts >>"$tmp/$w-$b-$how"; expect "^14200$" ;;
        esac
        echo "round $r: $w $b $how defaults $(tail -1 "$tmp/$w-$b-$how") s" >&2
      done
    done
  done
done
echo "| workload | solver | toolkit's defaults (CPU, median) | solver's own defaults | ratio |"
echo "|---|---|---:|---:|---:|"
for w in $workloads; do
  for b in cadical kissat; do
    t=$(median <"$tmp/$w-$b-toolkit")
    o=$(median <"$tmp/$w-$b-own")
    echo "| $w | $b | $t s | $o s | $(awk -v t="$t" -v o="$o" 'BEGIN { printf "%.2f", (o > 0) ? t / o : 0 }') |"
  done
done
