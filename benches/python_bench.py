#!/usr/bin/env python3
"""Benchmarks of the Python package (docs/benchmarks.md, "From Python").

1. The clauses of n = 200 pairwise (40,000 variables, 13.3 million clauses) into a PySAT
   formula: queens_sat (`Instance(200).to_pysat()`) against PySAT building the same formula
   with its own cardinality encodings (`CardEnc.atmost(..., encoding=EncType.pairwise)` for
   every row, column and diagonal, `CardEnc.atleast` for the rows); also the flat NumPy
   array (`clauses_array()`), which PySAT cannot take but NumPy code can. Each method runs
   in a fresh process: wall time of the building alone, and the growth of the process's
   peak resident memory (ru_maxrss) over what it had after the imports.
2. Enumerating all solutions of n = 12: `Instance(12).solutions()` and `Instance(12).count()`
   from Python against `queens-sat solve 12 --all --format line` and `--count`, whole
   processes, wall time.

    python benches/python_bench.py --cli target/release/queens-sat --reps 5

Needs queens_sat and python-sat installed in the running interpreter.
"""

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time

BUILD = {
    "queens_sat to_pysat()": """
import queens_sat as qs
base = rss()
t = time.perf_counter()
cnf = qs.Instance(N).to_pysat()
elapsed = time.perf_counter() - t
clauses = len(cnf.clauses)
""",
    "queens_sat clauses_array() (NumPy)": """
import queens_sat as qs, numpy
base = rss()
t = time.perf_counter()
a = qs.Instance(N).clauses_array()
elapsed = time.perf_counter() - t
clauses = int((a == 0).sum())
""",
    "PySAT CardEnc (pairwise) into CNF": """
from pysat.card import CardEnc, EncType
from pysat.formula import CNF
base = rss()
t = time.perf_counter()
var = lambda r, c: r * N + c + 1
lines = [[var(r, c) for c in range(N)] for r in range(N)]
lines += [[var(r, c) for r in range(N)] for c in range(N)]
for s in range(2 * N - 1):
    lines.append([var(r, s - r) for r in range(N) if 0 <= s - r < N])
for d in range(-(N - 1), N):
    lines.append([var(r, r - d) for r in range(N) if 0 <= r - d < N])
cnf = CNF()
for row in range(N):
    cnf.extend(CardEnc.atleast(lines[row], bound=1, encoding=EncType.pairwise).clauses)
for line in lines:
    if len(line) > 1:
        cnf.extend(CardEnc.atmost(line, bound=1, encoding=EncType.pairwise).clauses)
cnf.nv = N * N
elapsed = time.perf_counter() - t
clauses = len(cnf.clauses)
""",
}

PRELUDE = """
import resource, sys, time, json
N = {n}
def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
"""

POSTLUDE = """
print(json.dumps({"seconds": elapsed, "peak_bytes": rss() - base, "clauses": clauses}))
"""


def build_once(n, code):
    out = subprocess.run(
        [sys.executable, "-c", PRELUDE.format(n=n) + code + POSTLUDE],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def timed(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return time.perf_counter() - t, r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--enum-n", type=int, default=12)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cli", default="target/release/queens-sat")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--skip-enum", action="store_true")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.processor() or ''} "
          f"Python {platform.python_version()}")
    if not args.skip_build:
        print(f"\n## n = {args.n} pairwise into PySAT ({args.reps} runs each, interleaved)\n")
        runs = {k: [] for k in BUILD}
        for _ in range(args.reps):
            for k, code in BUILD.items():
                runs[k].append(build_once(args.n, code))
        counts = {r["clauses"] for rs in runs.values() for r in rs}
        assert len(counts) == 1, f"the methods built different formulas: {counts}"
        ref = statistics.median(r["seconds"] for r in runs["PySAT CardEnc (pairwise) into CNF"])
        ref_mem = statistics.median(
            r["peak_bytes"] for r in runs["PySAT CardEnc (pairwise) into CNF"])
        print("| method | median time | vs CardEnc | median peak memory growth | vs CardEnc |")
        print("|---|---|---|---|---|")
        for k, rs in runs.items():
            s = statistics.median(r["seconds"] for r in rs)
            m = statistics.median(r["peak_bytes"] for r in rs)
            print(f"| {k} | {s:.2f} s | {s / ref:.2f}x | {m / 2**20:,.0f} MiB | {m / ref_mem:.2f}x |")
        print(f"\n{counts.pop():,} clauses each")
    if not args.skip_enum:
        n = args.enum_n
        print(f"\n## Enumerating n = {n} ({args.reps} runs each, interleaved, whole processes)\n")
        methods = {
            "queens-sat solve N --all --format line": [args.cli, "solve", str(n), "--all",
                                                       "--format", "line"],
            "Python: list(Instance(N).solutions())": [
                sys.executable, "-c",
                f"import queens_sat as qs\nfor b in qs.Instance({n}).solutions():\n"
                "    print(' '.join(map(str, b)))"],
            "queens-sat solve N --count": [args.cli, "solve", str(n), "--count"],
            "Python: Instance(N).count()": [
                sys.executable, "-c", f"import queens_sat as qs; print(qs.Instance({n}).count())"],
        }
        times = {k: [] for k in methods}
        outputs = {}
        for _ in range(args.reps):
            for k, cmd in methods.items():
                t, out = timed(cmd)
                times[k].append(t)
                outputs[k] = out
        a = outputs["queens-sat solve N --all --format line"].split("\n")
        b = outputs["Python: list(Instance(N).solutions())"].split("\n")
        assert a == b, "the CLI and Python listed different solutions"
        print("| method | median wall | runs |")
        print("|---|---|---|")
        for k, ts in times.items():
            print(f"| {k} | {statistics.median(ts):.3f} s | {' '.join(f'{t:.3f}' for t in ts)} |")


if __name__ == "__main__":
    main()
