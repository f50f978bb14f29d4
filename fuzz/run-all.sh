#!/usr/bin/env bash
# Builds every fuzz target and runs each for SECONDS (default 60), starting from the committed
# seeds in fuzz/seeds/TARGET; the corpus grown is kept in fuzz/corpus/TARGET (not committed).
# FUZZ_PROFILE=--dev builds without optimisation (faster to build, slower to run).
# Needs the nightly toolchain and cargo-fuzz. Stops at the first target that finds a crash
# (kept in fuzz/artifacts/TARGET).
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
# The build profile: -O (optimised, the default, for runs that count) or --dev (a faster build
# for short runs, as CI's).
profile=${FUZZ_PROFILE:--O}
# AddressSanitizer keeps freed memory in quarantine (256 MB by default) to catch use after
# free; with that, a target whose inputs allocate a few MB each (the shard reader computes the
# split of n) passes 512 MB of RSS without any input using much, and -rss_limit_mb reports a
# false out-of-memory. A 64 MB quarantine keeps the check and the limit meaningful.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=64"
# drat_differential runs VeriPB, which reads its proof from a temporary file: in memory
# (/dev/shm) where there is one, 50 times faster than a disk.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  export TMPDIR=/dev/shm
fi
# Every target of fuzz/Cargo.toml (lrat_proof: the LRAT reader and checker; drat_differential:
# the two DRAT checkers and the tests' oracle against each other; ...).
targets=$(cargo +nightly fuzz list)
cargo +nightly fuzz build "$profile"
for t in $targets; do
  mkdir -p "corpus/$t"
  echo "== $t: $secs s"
  # VeriPB's tables (malachite numbers, its propagator) take about 380 MB of RSS under
  # AddressSanitizer whatever the input: that target gets 1 GB.
  rss=512
  [ "$t" = drat_differential ] && rss=1024
  cargo +nightly fuzz run "$profile" "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$secs" -rss_limit_mb="$rss" -timeout=5 -print_final_stats=1
done
