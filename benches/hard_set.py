#!/usr/bin/env python3
"""The hard-set benchmark of the embedded backends (docs/benchmarks.md).

    cargo build --release
    python3 benches/hard_set.py --cadical /path/to/cadical-1.9.5 [--seeds 1..20] [--p 0.85]

Draws the fixed hard set (`queens-sat generate blocked 60 --p P --seed S` for each seed) and
solves every instance, interleaved instance by instance so that machine load hits all alike,
with a time limit of --timeout seconds (60):
  * lib:      `queens-sat solve --instance I --backend cadical` (CaDiCaL 1.9.5 in-process: the
              formula goes from the encoder into the solver, no file);
  * external: `queens-sat encode --instance I -o I.cnf`, then the CaDiCaL program given by
              --cadical (build it from the same 1.9.5 sources) on that file; the export and the
              solve are timed apart;
  * varisat:  `queens-sat solve --instance I --backend varisat`.
Every SAT answer of lib and varisat is a board the tool has checked; the external answers are
compared with them. Wall-clock times of whole processes. PAR-2: the mean over the instances of
the time, with twice the limit for an unsolved one. Prints a Markdown table per instance and a
summary with the ratios.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

CPU = []  # the CPU time of each run, in order
HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(
    os.environ.get("CARGO_TARGET_DIR", os.path.join(HERE, "..", "target")), "release", "queens-sat"
)


def run(cmd, limit):
    """Runs cmd with a wall-clock limit (a little slack over the solver's own); returns the
    time, the exit code (None when killed) and the standard output."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 5)
        code, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        code, out = None, ""
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    CPU.append(cpu)
    return wall, code, out


def verdict_embedded(code, out):
    """SAT, UNSAT or None (stopped at the limit) from `queens-sat solve --format line`: exit 0
    with a placement or with "No solution exists", exit 1 when the limit stopped the solver."""
    if code != 0:
        return None
    return "UNSAT" if "no solution" in out.lower() else "SAT"


def verdict_cadical(code):
    return {10: "SAT", 20: "UNSAT"}.get(code)


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
    ap.add_argument("--cadical", required=True, help="the CaDiCaL program (same version as the crate)")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--p", default="0.85")
    ap.add_argument("--seeds", default="1..20")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--csv", help="also write the per-instance times to this CSV file")
    args = ap.parse_args()
    limit = args.timeout
    version = subprocess.run([args.cadical, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"external CaDiCaL: {args.cadical} ({version})", file=sys.stderr)
    tmp = tempfile.mkdtemp()
    rows = []
    for seed in parse_seeds(args.seeds):
        inst = os.path.join(tmp, f"blocked-{args.n}-{args.p}-{seed}.txt")
        cnf = inst[:-4] + ".cnf"
        subprocess.run(
            [BIN, "generate", "blocked", str(args.n), "--p", args.p, "--seed", str(seed), "-o", inst],
            check=True,
        )
        row = {"seed": seed}
        t, code, out = run(
            [BIN, "solve", "--instance", inst, "--backend", "cadical", "--timeout", str(limit), "--format", "line"],
            limit,
        )
        row["lib"] = (t, verdict_embedded(code, out) if code is not None else None)
        row["lib_cpu"] = CPU[-1]
        t_exp, code, _ = run([BIN, "encode", "--instance", inst, "-o", cnf], limit)
        assert code == 0, f"encode failed for seed {seed}"
        t, code, _ = run([args.cadical, "-q", "-n", "-t", str(int(limit)), cnf], limit)
        row["export"] = t_exp
        row["external"] = (t, verdict_cadical(code))
        row["external_cpu"] = CPU[-1]
        os.remove(cnf)
        t, code, out = run(
            [BIN, "solve", "--instance", inst, "--backend", "varisat", "--timeout", str(limit), "--format", "line"],
            limit,
        )
        row["varisat"] = (t, verdict_embedded(code, out) if code is not None else None)
        row["varisat_cpu"] = CPU[-1]
        answers = {row[k][1] for k in ("lib", "external", "varisat")} - {None}
        row["agree"] = len(answers) <= 1
        rows.append(row)
        print(
            f"seed {seed}: lib {row['lib'][0]:.1f} s {row['lib'][1]}, export {t_exp:.2f} s, "
            f"external {row['external'][0]:.1f} s {row['external'][1]}, "
            f"varisat {row['varisat'][0]:.1f} s {row['varisat'][1]} "
            f"(cpu {row['lib_cpu']:.1f} / {row['external_cpu']:.1f} / {row['varisat_cpu']:.1f} s)",
            file=sys.stderr,
        )
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("seed,lib_s,lib_cpu_s,lib,export_s,external_s,external_cpu_s,external,varisat_s,varisat_cpu_s,varisat\n")
            for r in rows:
                f.write(
                    f"{r['seed']},{r['lib'][0]:.3f},{r['lib_cpu']:.3f},{r['lib'][1] or 'TIMEOUT'},{r['export']:.3f},"
                    f"{r['external'][0]:.3f},{r['external_cpu']:.3f},{r['external'][1] or 'TIMEOUT'},"
                    f"{r['varisat'][0]:.3f},{r['varisat_cpu']:.3f},{r['varisat'][1] or 'TIMEOUT'}\n"
                )

    def capped(t, v):
        return min(t, limit) if v else 2 * limit

    print("| seed | in-process CaDiCaL | export | external CaDiCaL | varisat |")
    print("|---|---|---|---|---|")
    for r in rows:
        cells = []
        for k in ("lib", "external", "varisat"):
            t, v = r[k]
            cells.append(f"{t:.1f} s {v}" if v else f"timeout ({t:.0f} s)")
        print(f"| {r['seed']} | {cells[0]} | {r['export']:.2f} s | {cells[1]} | {cells[2]} |")
    print()
    summary = {}
    for k in ("lib", "external", "varisat"):
        solved = [r for r in rows if r[k][1]]
        par2 = statistics.mean(capped(*r[k]) for r in rows)
        total = sum(min(r[k][0], limit) if r[k][1] else limit for r in rows)
        summary[k] = (len(solved), par2, total)
    ext_plus = sum(
        (min(r["external"][0], limit) if r["external"][1] else limit) + r["export"] for r in rows
    )
    print("| solver | solved (of %d) | PAR-2 | total time (limit for unsolved) | vs external |" % len(rows))
    print("|---|---|---|---|---|")
    base = summary["external"][2]
    labels = {
        "lib": "in-process CaDiCaL 1.9.5 (`--backend cadical`)",
        "external": f"CaDiCaL 1.9.5 program on the exported file ({version})",
        "varisat": "embedded varisat (`--backend varisat`)",
    }
    for k, label in labels.items():
        s, p2, tot = summary[k]
        print(f"| {label} | {s} | {p2:.1f} s | {tot:.0f} s | {tot / base:.2f}x |")
    print(f"| external with the export time added | {summary['external'][0]} | | {ext_plus:.0f} s | {ext_plus / base:.2f}x |")
    disagree = [r["seed"] for r in rows if not r["agree"]]
    print()
    print("answers agree on every instance" if not disagree else f"ANSWERS DISAGREE on seeds {disagree}")


if __name__ == "__main__":
    main()
