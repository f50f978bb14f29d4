#!/usr/bin/env bash
# What the second proof checker costs: the proofs that the 14 x 14 torus has no solution
# (CaDiCaL's DRAT, Kissat's DRAT, CaDiCaL's LRAT, written by the embedded solvers), checked
# by `verify-proof` with both checkers and with the library's checker alone:
#
#   cargo build --release
#   cargo build --release --no-default-features --features cli,cadical,kissat \
#     --target-dir target/one-checker                # the same program without VeriPB
#   benches/proof_check.sh [ROUNDS]                  # default: 3 rounds
#
# QUEENS_SAT_BIN names the program (default target/release/queens-sat) and QUEENS_SAT_ONE the
# build without VeriPB (default target/one-checker/release/queens-sat). Each round checks
# every proof in every configuration in turn and records the CPU time (user + system) and
# the peak memory of the process; every check must say `verified`. Prints the medians and
# the ratio of each configuration to the library's checker alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-3}
qs=${QUEENS_SAT_BIN:-${CARGO_TARGET_DIR:-$here/../target}/release/queens-sat}
one=${QUEENS_SAT_ONE:-$here/../target/one-checker/release/queens-sat}
for b in "$qs" "$one"; do
  [ -x "$b" ] || { echo "proof_check.sh: no $b (see the comment at the top)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
echo "queens-sat: $("$qs" --version | head -1); machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
"$qs" generate toroidal 14 -o t14.txt
"$qs" encode --instance t14.txt -o t14.cnf
"$qs" solve --instance t14.txt --backend cadical --proof cadical.drat >/dev/null
"$qs" solve --instance t14.txt --backend kissat --proof kissat.drat >/dev/null
"$qs" solve --instance t14.txt --proof-format lrat --proof cadical.lrat >/dev/null
for p in cadical.drat kissat.drat cadical.lrat; do
  echo "$p: $(wc -c <"$p") bytes" >&2
done
# A configuration: its name, then the command (the proof is appended).
configs=(
  "one|$one verify-proof t14.cnf"
  "both|$qs verify-proof t14.cnf"
  "alone|$qs verify-proof --veripb-alone t14.cnf"
)
measure() { # NAME PROOF CMD...: one check; its CPU seconds and peak RSS (MiB) appended
  local name=$1 proof=$2
  shift 2
  /usr/bin/time -f "%U %S %M" -o time "$@" "$proof" >out
  grep -q '^verified: ' out || { echo "$name $proof: not verified:" >&2; cat out >&2; exit 1; }
  awk '{ printf "%.3f %.0f\n", $1 + $2, $3 / 1024 }' time >>"res-$name-$proof"
  echo "$name $proof: $(tail -1 "res-$name-$proof")" >&2
}
for r in $(seq 1 "$rounds"); do
  for proof in cadical.drat kissat.drat cadical.lrat; do
    for c in "${configs[@]}"; do
      name=${c%%|*}
      # LRAT: the library's checker alone, or with VeriPB (--veripb); no "alone" mode.
      case "$proof:$name" in
        *.lrat:alone) continue ;;
        *.lrat:both) read -ra cmd <<<"$qs verify-proof --veripb t14.cnf" ;;
        *) read -ra cmd <<<"${c#*|}" ;;
      esac
      measure "$name" "$proof" "${cmd[@]}"
    done
  done
done
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "| proof | the library's checker alone: CPU (s), MiB | with VeriPB (hints): CPU (s), MiB, ratio | VeriPB alone (no hints): CPU (s), MiB, ratio |"
echo "|---|---:|---:|---:|"
for proof in cadical.drat kissat.drat cadical.lrat; do
  base=$(cut -d' ' -f1 "res-one-$proof" | median)
  row="| $proof | $base s, $(cut -d' ' -f2 "res-one-$proof" | median)"
  for name in both alone; do
    f="res-$name-$proof"
    if [ -f "$f" ]; then
      t=$(cut -d' ' -f1 "$f" | median)
      row="$row | $t s, $(cut -d' ' -f2 "$f" | median), $(awk -v t="$t" -v b="$base" 'BEGIN { printf "%.2fx", t / b }')"
    else
      row="$row | -"
    fi
  done
  echo "$row |"
done
