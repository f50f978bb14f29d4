#!/usr/bin/env python3
"""The propagator engine against the CNF encodings (docs/experiments.md).

    cargo build --release
    python3 benches/propagator.py [--seeds 1..5] [--n 60] [--p 0.85] [--timeout 30]

Draws `queens-sat generate blocked N --p P --seed S` for each seed and solves each instance,
interleaved instance by instance, with in-process CaDiCaL in three ways:
  * pairwise:   `queens-sat solve --instance I --solver-option stats=1 --format line`
  * sequential: the same with `--amo sequential`
  * propagator: the same with `--engine propagator` (the rows' at-least-one clauses and the
                placed/blocked cells as CNF, the at-most-one of every line propagated)
Each run is limited to --timeout seconds of CPU time (RLIMIT_CPU). Reported per run: the CPU
time (user + system), the answer, CaDiCaL's conflicts if its statistics are printed (the
embedded CaDiCaL is built with QUIET and prints none: docs/solvers.md), the clauses given to CaDiCaL before the
search (CNF: the encoded formula's, from `queens-sat encode`; propagator: the CNF it keeps) and
the clauses added during the search (propagator: the reason clauses CaDiCaL asked for and the
clauses added on complete models). PAR-2: the mean CPU time, twice the limit for an unsolved
run. QUEENS_SAT_BIN names the binary (default: the release build of CARGO_TARGET_DIR).
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("QUEENS_SAT_BIN") or os.path.join(
    os.environ.get("CARGO_TARGET_DIR", os.path.join(HERE, "..", "target")), "release", "queens-sat"
)

CONFIGS = [
    ("pairwise", []),
    ("sequential", ["--amo", "sequential"]),
    ("propagator", ["--engine", "propagator"]),
]


def run(cmd, limit):
    """CPU time, exit code (None when stopped), stdout and stderr of cmd under a CPU limit."""

    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit), int(limit) + 1))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=20 * limit, preexec_fn=cap)
        code, out, err = p.returncode, p.stdout, p.stderr
        if code < 0:
            code = None
    except subprocess.TimeoutExpired:
        code, out, err = None, "", ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, code, out, err


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if ".." in part:
            a, b = part.split("..")
            seeds.extend(range(int(a), int(b) + 1))
        else:
            seeds.append(int(part))
    return seeds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--p", default="0.85")
    ap.add_argument("--seeds", default="1..5")
    ap.add_argument("--timeout", type=float, default=30.0, help="CPU seconds per run")
    args = ap.parse_args()
    limit = args.timeout
    tmp = tempfile.mkdtemp()
    rows = []
    for seed in parse_seeds(args.seeds):
        inst = os.path.join(tmp, f"blocked-{args.n}-{args.p}-{seed}.txt")
        subprocess.run(
            [BIN, "generate", "blocked", str(args.n), "--p", args.p, "--seed", str(seed), "-o", inst],
            check=True,
        )
        row = {"seed": seed}
        for name, extra in CONFIGS:
            cmd = [BIN, "solve", "--instance", inst, "--solver-option", "stats=1", "--format", "line"] + extra
            cpu, code, out, err = run(cmd, limit)
            answer = None
            if code == 0 and cpu <= limit:
                answer = "UNSAT" if "no solution" in out else "SAT"
            m = re.search(r"^c conflicts:\s+(\d+)", out, re.M)
            conflicts = int(m.group(1)) if m and answer else None
            if name == "propagator":
                m = re.search(r"(\d+) reason clauses.*\((\d+) clauses on complete models\); CNF: (\d+) clauses", err)
                added = int(m.group(1)) + int(m.group(2)) if m and answer else None
                given = int(m.group(3)) if m else None
            else:
                head = subprocess.run(
                    [BIN, "encode", "--instance", inst] + extra, capture_output=True, text=True
                ).stdout
                m = re.search(r"^p cnf \d+ (\d+)", head, re.M)
                given = int(m.group(1)) if m else None
                added = 0
            row[name] = (cpu, answer, conflicts, given, added)
        rows.append(row)
        print(f"seed {seed}: " + ", ".join(f"{k} {row[k][0]:.1f} s {row[k][1]} {row[k][2]}" for k, _ in CONFIGS),
              file=sys.stderr, flush=True)
    fmt = lambda v: "-" if v is None else f"{v:,}"
    print("| seed | " + " | ".join(f"{k}: CPU, conflicts" for k, _ in CONFIGS) + " |")
    print("|---" * (len(CONFIGS) + 1) + "|")
    for r in rows:
        cells = []
        for k, _ in CONFIGS:
            cpu, ans, conf, _, _ = r[k]
            cells.append(f"{cpu:.1f} s {ans}, {fmt(conf)}" if ans else f"timeout, -")
        print(f"| {r['seed']} | " + " | ".join(cells) + " |")
    print()
    print("| engine | solved | PAR-2 (CPU) | median conflicts (solved) | clauses given (median) | clauses added in search (median, solved) |")
    print("|---|---|---|---|---|---|")
    for k, _ in CONFIGS:
        solved = [r[k] for r in rows if r[k][1]]
        par2 = statistics.mean(min(r[k][0], limit) if r[k][1] else 2 * limit for r in rows)
        conf = [s[2] for s in solved if s[2] is not None]
        given = [r[k][3] for r in rows if r[k][3] is not None]
        added = [s[4] for s in solved if s[4] is not None]
        med = lambda xs: fmt(int(statistics.median(xs))) if xs else "-"
        print(f"| {k} | {len(solved)} of {len(rows)} | {par2:.1f} s | {med(conf)} | {med(given)} | {med(added)} |")
    answers = [{r[k][1] for k, _ in CONFIGS} - {None} for r in rows]
    print()
    print("answers agree" if all(len(a) <= 1 for a in answers) else "ANSWERS DISAGREE")


if __name__ == "__main__":
    main()
