#!/usr/bin/env bash
# Sharded counts on a single-node Slurm cluster against one unsharded run (docs/benchmarks.md).
#
#   benches/shards.sh [N...]          (default: 18 19; needs root, slurm-wlm, munge)
#
# For each n: `count N --threads 1` once, then K = 8 and K = 32 shards as a Slurm job array
# (one task at a time: --cpus-per-task equals the node's CPUs, so shards do not share a core),
# each shard timed by /usr/bin/time; the shards are merged and the merge must print what the
# unsharded run printed. Prints a Markdown table: CPU seconds (user + system) of the unsharded
# run and of all shards, their ratio, and the slowest and fastest shard.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
qs=${QS:-$here/target/release/queens-sat}
export PATH="$PATH:/usr/sbin:/sbin"
sizes=("${@:-18}")
[ $# -eq 0 ] && sizes=(18 19)
work=$(mktemp -d /tmp/qs-shards-XXXX)
cluster=$(mktemp -d /tmp/qs-slurm-XXXX)
trap '"$here/tests/cluster/slurm.sh" stop "$cluster" >/dev/null 2>&1 || true; rm -rf "$cluster"' EXIT
eval "$("$here/tests/cluster/slurm.sh" start "$cluster")"
cpus=$(nproc)
cpu_of() { awk '{print $2 + $3}' "$1"; }
echo "| n | K | unsharded CPU (s) | shards' CPU (s) | ratio | slowest shard (s) | fastest shard (s) | slowest / fastest | merged = unsharded |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for n in "${sizes[@]}"; do
  /usr/bin/time -f "%e %U %S" -o "$work/whole-$n.time" "$qs" count "$n" --threads 1 > "$work/whole-$n.txt"
  whole=$(cpu_of "$work/whole-$n.time")
  for k in 8 32; do
    dir="$work/n$n-k$k"
    mkdir -p "$dir"
    cat > "$dir/task.sh" <<TASK
#!/bin/sh
set -eu
/usr/bin/time -f "%e %U %S" -o time-\$SLURM_ARRAY_TASK_ID.txt \
  "$qs" count $n --threads 1 --shard \$SLURM_ARRAY_TASK_ID/$k -o part-\$SLURM_ARRAY_TASK_ID.txt > /dev/null
TASK
    sbatch --quiet --wait --array=1-"$k" --cpus-per-task="$cpus" --chdir "$dir" \
      --output=slurm-%a.out "$dir/task.sh"
    "$qs" count --merge "$dir"/part-*.txt > "$dir/merged.txt" 2>/dev/null
    same=no
    cmp -s "$dir/merged.txt" "$work/whole-$n.txt" && same=yes
    shards=$(for t in "$dir"/time-*.txt; do cpu_of "$t"; done | sort -g)
    sum=$(echo "$shards" | awk '{s += $1} END {printf "%.2f", s}')
    lo=$(echo "$shards" | head -1)
    hi=$(echo "$shards" | tail -1)
    echo "| $n | $k | $whole | $sum | $(awk -v a="$sum" -v b="$whole" 'BEGIN {printf "%.3f", a / b}') | $hi | $lo | $(awk -v a="$hi" -v b="$lo" 'BEGIN {printf "%.2f", a / b}') | $same |"
  done
done
