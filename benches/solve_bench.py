#!/usr/bin/env python3
"""Side-by-side benchmark of embedded enumeration and solving (see docs/benchmarks.md).

    cargo build --release
    python3 benches/solve_bench.py [--reps 5] [--plain-reps 3] [--n 12]

Runs, interleaved in each repetition so that machine load hits all alike:
  * pysat:   benches/solve_pysat.py (CaDiCaL 1.5.3 through PySAT, blocking clauses) on the CNF
             exported by `queens-sat encode N`;
  * split:   `queens-sat solve N --count` (default split on the leading rows, all cores);
  * split1:  the same on one thread;
  * plain:   `queens-sat solve N --count --split-rows 0 --threads 1` (one varisat solver,
             blocking clauses: the method before the split);
and the time to the first solution, `queens-sat solve M --format line`, for M = 50, 100, 200.
Wall-clock times of whole processes; prints medians and ratios as a Markdown table.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(
    os.environ.get("CARGO_TARGET_DIR", os.path.join(HERE, "..", "target")), "release", "queens-sat"
)


def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--plain-reps", type=int, default=3)
    args = ap.parse_args()
    n = args.n
    tmp = tempfile.mkdtemp()
    cnf = os.path.join(tmp, f"q{n}.cnf")
    subprocess.run([BIN, "encode", str(n), "-o", cnf], check=True)
    runs = {
        "pysat": [sys.executable, os.path.join(HERE, "solve_pysat.py"), cnf, str(n)],
        "split": [BIN, "solve", str(n), "--count"],
        "split1": [BIN, "solve", str(n), "--count", "--threads", "1"],
        "plain": [BIN, "solve", str(n), "--count", "--split-rows", "0", "--threads", "1"],
    }
    times = {k: [] for k in runs}
    counts = {}
    for rep in range(args.reps):
        for name, cmd in runs.items():
            if name == "plain" and rep >= args.plain_reps:
                continue
            t, out = timed(cmd)
            times[name].append(t)
            counts[name] = out.split()[0]
            print(f"rep {rep + 1} {name}: {t:.2f} s ({counts[name]} solutions)", file=sys.stderr)
    first = {m: [] for m in (50, 100, 200)}
    for rep in range(args.reps):
        for m in first:
            t, _ = timed([BIN, "solve", str(m), "--format", "line"])
            first[m].append(t)
    med = {k: statistics.median(v) for k, v in times.items() if v}
    base = med["pysat"]
    print(f"| method (n = {n}, all solutions) | solutions | median wall time | runs | vs PySAT + CaDiCaL |")
    print("|---|---|---|---|---|")
    labels = {
        "pysat": "PySAT + CaDiCaL, blocking clauses",
        "split": "queens-sat, split on leading rows, 2 threads",
        "split1": "queens-sat, split on leading rows, 1 thread",
        "plain": "queens-sat, one varisat solver, blocking clauses",
    }
    for k, label in labels.items():
        if k in med:
            print(f"| {label} | {counts[k]} | {med[k]:.2f} s | {len(times[k])} | {med[k] / base:.2f}x |")
    print()
    print("| n | time to first solution (median wall, whole process) |")
    print("|---|---|")
    for m, v in first.items():
        print(f"| {m} | {statistics.median(v):.3f} s |")


if __name__ == "__main__":
    main()
