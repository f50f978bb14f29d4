#!/usr/bin/env bash
# Builds the CaDiCaL and Kissat programs from the very sources the library embeds (the vendored
# copies in the pindakaas-cadical and pindakaas-kissat crates that Cargo has downloaded), so
# that the hard-set benchmark can run the same solver in-process and as a process:
#
#   cargo build --release                          # fetches the crates
#   benches/build_solver_programs.sh OUT_DIR       # writes OUT_DIR/cadical and OUT_DIR/kissat
#
# The flags are the crates' release flags: CaDiCaL with NDEBUG, NBUILD, NTRACING, NUNLOCKED and
# NCLOSEFROM (but not QUIET, so that the program prints its answer), Kissat with NDEBUG; -O3.
# Needs a C and a C++ compiler (gcc, g++).
set -euo pipefail
out=${1:?usage: build_solver_programs.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
crate_dir() {
  local d
  d=$(ls -d "$registry"/*/"$1" 2>/dev/null | head -1)
  [ -n "$d" ] || { echo "build_solver_programs.sh: $1 not found under $registry (run cargo build first)" >&2; exit 2; }
  echo "$d"
}
cadical=$(crate_dir pindakaas-cadical-0.4.2)/vendor/cadical
kissat_crate=$(crate_dir pindakaas-kissat-0.2.4)
kissat=$kissat_crate/vendor/kissat
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# CaDiCaL: every source but the model-based tester (mobical.cpp has its own main).
flags=(-O3 -DNDEBUG -DNBUILD -DNTRACING -DNUNLOCKED -DNCLOSEFROM -I"$cadical/src")
for f in "$cadical"/src/*.cpp "$cadical"/src/*.c; do
  case $(basename "$f") in mobical.cpp) continue ;; esac
  case $f in
    *.c) gcc "${flags[@]}" -c "$f" -o "$work/cadical-$(basename "$f").o" ;;
    *) g++ -std=c++11 "${flags[@]}" -c "$f" -o "$work/cadical-$(basename "$f").o" ;;
  esac
done
g++ -o "$out/cadical" "$work"/cadical-*.o

# Kissat: the crate's empty build.h stands in for the one its configure script writes.
for f in "$kissat"/src/*.c; do
  gcc -std=c99 -O3 -DNDEBUG '-DVERSION="'"$(cat "$kissat/VERSION" 2>/dev/null || echo 4)"'"' \
    '-DCOMPILER="gcc"' '-DID="vendored"' '-DBUILD="benches/build_solver_programs.sh"' \
    -I"$kissat_crate/src" -I"$kissat/src" -c "$f" -o "$work/kissat-$(basename "$f").o"
done
gcc -o "$out/kissat" "$work"/kissat-*.o -lm

echo "$out/cadical: $("$out/cadical" --version)"
echo "$out/kissat: $("$out/kissat" --version)"
