#!/usr/bin/env python3
"""Side-by-side benchmark of embedded enumeration and solving (see docs/benchmarks.md).

    cargo build --release
    python3 benches/solve_bench.py [--n 12,14] [--reps 3] [--pysat-solver cadical195]
                                   [--plain-reps 0] [--first-reps 5] [--baseline OLD_BINARY]

For each n, runs in each repetition, interleaved so that machine load hits all alike:
  * pysat:    benches/solve_pysat.py (CaDiCaL through PySAT, one solver, blocking clauses) on
              the CNF exported by `queens-sat encode N`;
  * varisat:  `queens-sat solve N --count --backend varisat` (the default split, all cores);
  * cadical:  `queens-sat solve N --count --backend cadical`;
  * varisat1: the varisat count on one thread;
  * baseline: with --baseline, the varisat count of another build of queens-sat (an earlier
              commit), to measure a change in the same run;
  * plain:    with --plain-reps, `--split-rows 0 --threads 1` (one varisat solver, blocking
              clauses);
and the time to the first solution, `queens-sat solve M --format line`, for M = 50, 100, 200
(--first-reps runs). Wall-clock and CPU (user + system) times of whole processes; prints the
medians and the ratios to PySAT as Markdown tables. Every method must find the same count.
"""
import argparse
import os
import resource
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
    """Wall and CPU time of a child process, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="12")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--plain-reps", type=int, default=0)
    ap.add_argument("--first-reps", type=int, default=5)
    ap.add_argument("--pysat-solver", default="cadical195")
    ap.add_argument("--baseline", help="another queens-sat binary, counted with varisat")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    for n in [int(x) for x in args.n.split(",")]:
        cnf = os.path.join(tmp, f"q{n}.cnf")
        subprocess.run([BIN, "encode", str(n), "-o", cnf], check=True)
        runs = {
            "pysat": [sys.executable, os.path.join(HERE, "solve_pysat.py"), cnf, str(n), args.pysat_solver],
            "varisat": [BIN, "solve", str(n), "--count", "--backend", "varisat"],
            "cadical": [BIN, "solve", str(n), "--count", "--backend", "cadical"],
            "varisat1": [BIN, "solve", str(n), "--count", "--backend", "varisat", "--threads", "1"],
        }
        if args.baseline:
            runs["baseline"] = [args.baseline, "solve", str(n), "--count", "--backend", "varisat"]
        if args.plain_reps:
            runs["plain"] = [BIN, "solve", str(n), "--count", "--split-rows", "0", "--threads", "1"]
        wall = {k: [] for k in runs}
        cpu = {k: [] for k in runs}
        counts = {}
        for rep in range(args.reps):
            for name, cmd in runs.items():
                if name == "plain" and rep >= args.plain_reps:
                    continue
                w, c, out = timed(cmd)
                wall[name].append(w)
                cpu[name].append(c)
                counts[name] = out.split()[0]
                print(f"n {n} rep {rep + 1} {name}: {w:.2f} s wall, {c:.2f} s cpu ({counts[name]})", file=sys.stderr)
        if len(set(counts.values())) != 1:
            sys.exit(f"n = {n}: the methods disagree: {counts}")
        med_w = {k: statistics.median(v) for k, v in wall.items() if v}
        med_c = {k: statistics.median(v) for k, v in cpu.items() if v}
        labels = {
            "pysat": f"PySAT + CaDiCaL ({args.pysat_solver}), one solver, blocking clauses",
            "varisat": "`solve N --count --backend varisat` (split, 2 threads)",
            "cadical": "`solve N --count --backend cadical` (split, 2 threads)",
            "varisat1": "`solve N --count --backend varisat --threads 1`",
            "baseline": "the baseline build, `--backend varisat` (split, 2 threads)",
            "plain": "one varisat solver, blocking clauses (`--split-rows 0 --threads 1`)",
        }
        print(f"n = {n}: {counts['pysat']} solutions")
        print()
        print("| method | median wall | vs PySAT (wall) | median CPU | vs PySAT (CPU) | runs |")
        print("|---|---|---|---|---|---|")
        for k, label in labels.items():
            if k in med_w:
                print(
                    f"| {label} | {med_w[k]:.2f} s | {med_w[k] / med_w['pysat']:.2f}x "
                    f"| {med_c[k]:.2f} s | {med_c[k] / med_c['pysat']:.2f}x | {len(wall[k])} |"
                )
        print()
    if args.first_reps:
        first = {m: [] for m in (50, 100, 200)}
        for rep in range(args.first_reps):
            for m in first:
                w, _, _ = timed([BIN, "solve", str(m), "--format", "line"])
                first[m].append(w)
        print("| n | time to the first solution (median wall, whole process) |")
        print("|---|---|")
        for m, v in first.items():
            print(f"| {m} | {statistics.median(v):.3f} s |")


if __name__ == "__main__":
    main()
