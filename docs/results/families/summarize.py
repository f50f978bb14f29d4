#!/usr/bin/env python3
"""Summaries of a `queens-sat compare --family` CSV for docs/experiments.md (stdlib only).

    python3 docs/results/families/summarize.py FILE.csv

Prints, per encoding and solver: instances solved (SAT or UNSAT) within the time limit, PAR-2
(mean time, a timeout counting twice the limit), and the total time; per parameter value: the
fraction SAT (over the instances some run decided) and the hardest encoding/solver median; and
checks that every run that decided an instance agrees with every other on SAT or UNSAT.
"""
import csv
import statistics
import sys
from collections import defaultdict


def main(path):
    rows = list(csv.DictReader(open(path, newline="")))
    if not rows:
        sys.exit(f"{path}: no rows")
    limit_ms = float(rows[0]["timeout_s"]) * 1000
    by_config = defaultdict(list)
    answers = defaultdict(set)
    by_value = defaultdict(list)
    for r in rows:
        key = (r["encoding"], r["solver"])
        status = r["status"]
        t = float(r["solve_ms"]) if r["solve_ms"] else None
        by_config[key].append((status, t))
        inst = (r["n"], r["value"], r["seed"])
        if status in ("SAT", "UNSAT"):
            answers[inst].add(status)
        by_value[(r["n"], r["value"])].append((key, status, t))
    disagree = [i for i, a in answers.items() if len(a) > 1]
    print(f"{path}: {len(rows)} runs, {len(answers)} instances decided, "
          f"{len(disagree)} with disagreeing answers {disagree[:5]}")
    print()
    print("| encoding | solver | runs | solved | timeouts | PAR-2 (s) | total time (s) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    table = []
    for (enc, solver), runs in by_config.items():
        solved = [t for s, t in runs if s in ("SAT", "UNSAT")]
        timeouts = sum(1 for s, _ in runs if s == "TIMEOUT")
        par2 = (sum(solved) + 2 * limit_ms * (len(runs) - len(solved))) / len(runs) / 1000
        total = (sum(solved) + limit_ms * timeouts) / 1000
        table.append((-len(solved), par2, enc, solver, len(runs), len(solved), timeouts, total))
    for _, par2, enc, solver, n_runs, n_solved, timeouts, total in sorted(table):
        print(f"| {enc} | {solver} | {n_runs} | {n_solved} | {timeouts} | {par2:.2f} | {total:.1f} |")
    print()
    print("| n | value | instances | fraction SAT | hardest (encoding / solver: median ms) | easiest |")
    print("|---:|---:|---:|---:|---|---|")
    for (n, value), runs in sorted(by_value.items(), key=lambda kv: (int(kv[0][0]), float(kv[0][1]))):
        insts = {(n, value, r["seed"]) for r in rows if r["n"] == n and r["value"] == value}
        decided = [answers[i] for i in insts if answers[i]]
        frac = sum(1 for a in decided if a == {"SAT"}) / len(decided) if decided else float("nan")
        medians = {}
        for key in {k for k, _, _ in runs}:
            ts = [t if s in ("SAT", "UNSAT") else limit_ms for k, s, t in runs if k == key
                  and s in ("SAT", "UNSAT", "TIMEOUT")]
            if ts:
                medians[key] = statistics.median(ts)
        hard = max(medians, key=medians.get)
        easy = min(medians, key=medians.get)
        print(f"| {n} | {value} | {len(insts)} | {frac:.2f} | {hard[0]} / {hard[1]}: {medians[hard]:.0f} "
              f"| {easy[0]} / {easy[1]}: {medians[easy]:.0f} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
