#!/usr/bin/env python3
"""The hard-set benchmark of the embedded backends (docs/benchmarks.md).

    cargo build --release
    python3 benches/hard_set.py [--backends cadical,kissat,varisat,search,propagator] \
        [--flags '--redundant permutation,diagonals,sums'] \
        [--cadical /path/to/cadical] [--kissat /path/to/kissat] [--minisat minisat] \
        [--seeds 1..20] [--p 0.85] [--timeout 60] [--csv FILE]
    python3 benches/hard_set.py --from-csv a.csv,b.csv,sums=c.csv   # tables of saved runs

Draws the fixed hard set (`queens-sat generate blocked 60 --p P --seed S` for each seed) and
solves every instance with every solver asked for, interleaved instance by instance so that
machine load hits all alike, each run limited to --timeout seconds (60) of CPU time (the
process is stopped by RLIMIT_CPU; a wall-clock limit of ten times that is only a backstop):
  * in-process: `queens-sat solve --instance I --backend B` for each B of --backends (the
    formula goes from the encoder into the solver, no file);
  * programs: `queens-sat encode --instance I -o I.cnf` (timed apart), then the CaDiCaL
    program of --cadical, the Kissat program of --kissat and the MiniSat program of --minisat
    on that file (exit codes 10 and 20 read as SAT and UNSAT).
QUEENS_SAT_BIN names the queens-sat binary (default: the release build of CARGO_TARGET_DIR).
Every SAT answer of an in-process solver is a board the tool has checked; all answers are
compared. Times are CPU times of whole processes (user + system), so that a loaded machine
slows the runs without changing them much. PAR-2: the mean over the instances of the time,
with twice the limit for an unsolved one. Prints a Markdown table per instance and a summary.
A run stopped by the limit (SIGXCPU, or SIGKILL at the hard limit a second later) is a
timeout. On an overloaded machine the limit bites early: the kernel's accounting for
RLIMIT_CPU then counts more than getrusage reports (seen here: SIGXCPU at 42 to 57 s of
getrusage time under a 60 s limit, with 5 or more busy processes on 2 cores), and the script
warns when a timeout's CPU time reads under 98 % of the limit; run it with at most one process
per core. A run that ends otherwise without an answer (another signal, an error) is no
timeout: it is marked STOPPED(signal N) or STOPPED(exit code) in the CSV, its instance is left
out of the tables with a warning, and the script exits 3, so that the seed is run again.
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
BIN = os.environ.get("QUEENS_SAT_BIN") or os.path.join(
    os.environ.get("CARGO_TARGET_DIR", os.path.join(HERE, "..", "target")), "release", "queens-sat"
)


def run(cmd, limit):
    """Runs cmd with a CPU-time limit; returns the CPU time, the wall time, the exit code
    (minus the signal's number when a signal ended it, None at the wall-clock backstop) and
    the standard output."""

    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit), int(limit) + 1))

    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=10 * limit, preexec_fn=cap)
        code, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        code, out = None, ""
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, code, out


def verdict_embedded(code, out):
    """SAT, UNSAT or None (stopped) from `queens-sat solve --format line`."""
    if code != 0:
        return None
    return "UNSAT" if "no solution" in out.lower() else "SAT"


def verdict_program(code):
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


def version(program):
    return subprocess.run([program, "--version"], capture_output=True, text=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--backends",
        default="cadical,kissat",
        help="in-process backends (cadical, kissat, varisat) and engines (search, propagator), comma-separated",
    )
    ap.add_argument(
        "--flags",
        default="",
        help="model options for solve and encode, e.g. '--redundant permutation,diagonals,sums'",
    )
    ap.add_argument("--cadical", help="a CaDiCaL program, run on the exported file")
    ap.add_argument("--kissat", help="a Kissat program, run on the exported file")
    ap.add_argument("--minisat", help="a MiniSat program, run on the exported file")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--p", default="0.85")
    ap.add_argument("--seeds", default="1..20")
    ap.add_argument("--timeout", type=float, default=60.0, help="CPU seconds per run")
    ap.add_argument("--csv", help="also write the per-instance times to this CSV file")
    ap.add_argument(
        "--from-csv",
        help="run nothing: print the tables of CSV files this script wrote, comma-separated "
        "FILE or NAME=FILE (NAME names the file's solver column: runs with other --flags side by "
        "side); a later file's cell for the same seed and column replaces an earlier one",
    )
    args = ap.parse_args()
    limit = args.timeout
    if args.from_csv:
        rows, keys = read_csv(args.from_csv.split(","))
        report(rows, keys, {}, limit)
        return
    solvers = []  # (key, label, command maker, verdict)
    flags = args.flags.split()
    for b in [b for b in args.backends.split(",") if b]:
        # The engines of `solve --engine` beside the embedded SAT solvers of `--backend`.
        how = ["--engine", b] if b in ("search", "propagator") else ["--backend", b]
        solvers.append(
            (
                f"lib-{b}",
                f"in-process {b} (`{' '.join(how + flags)}`)",
                lambda inst, cnf, how=how: [BIN, "solve", "--instance", inst, *how, *flags, "--format", "line"],
                "embedded",
            )
        )
    for key, program in (("cadical", args.cadical), ("kissat", args.kissat), ("minisat", args.minisat)):
        if program:
            v = version(program) if key != "minisat" else "2.2"
            solvers.append(
                (
                    f"prog-{key}",
                    f"{key} {v} program on the exported file",
                    lambda inst, cnf, program=program: [program, cnf],
                    "program",
                )
            )
    versions = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"queens-sat: {versions!r}", file=sys.stderr)
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
        needs_cnf = any(kind == "program" for (_, _, _, kind) in solvers)
        if needs_cnf:
            cpu, _, code, _ = run([BIN, "encode", "--instance", inst, *flags, "-o", cnf], limit)
            assert code == 0, f"encode failed for seed {seed}"
            row["export"] = cpu
        for key, _, make, kind in solvers:
            cpu, wall, code, out = run(make(inst, cnf), limit)
            v = verdict_embedded(code, out) if kind == "embedded" else verdict_program(code)
            if v is None or cpu > limit:
                v = None
                if code in LIMIT_SIGNALS:
                    if cpu < 0.98 * limit:
                        print(
                            f"warning: seed {seed}, {key}: the CPU limit stopped the run at {cpu:.1f} s "
                            "of getrusage time (an overloaded machine)",
                            file=sys.stderr,
                        )
                elif cpu < 0.98 * limit:
                    # Ended without an answer otherwise: another signal, or an error; reported
                    # apart and left out of the tables.
                    v = f"STOPPED(signal {-code})" if code is not None and code < 0 else f"STOPPED({code})"
            row[key] = (cpu, wall, v)
        if needs_cnf:
            os.remove(cnf)
        rows.append(row)
        print(
            f"seed {seed}: "
            + ", ".join(f"{k} {row[k][0]:.1f} s cpu ({row[k][1]:.0f} s wall) {row[k][2]}" for (k, _, _, _) in solvers),
            file=sys.stderr,
            flush=True,
        )
    keys = [k for (k, _, _, _) in solvers]
    labels = {key: label for (key, label, _, _) in solvers}
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("seed," + ",".join(f"{k}_cpu_s,{k}_wall_s,{k}" for k in keys) + "\n")
            for r in rows:
                f.write(
                    f"{r['seed']},"
                    + ",".join(f"{r[k][0]:.3f},{r[k][1]:.3f},{r[k][2] or 'TIMEOUT'}" for k in keys)
                    + "\n"
                )
    report(rows, keys, labels, limit)


# The exit codes of a run the CPU limit stopped: SIGXCPU at the soft limit, SIGKILL at the hard.
LIMIT_SIGNALS = (-24, -9)


def answered(v):
    return v in ("SAT", "UNSAT")


def read_csv(specs):
    """Rows and columns of CSV files this script wrote. Each spec is FILE or NAME=FILE: with a
    NAME the file's solver column is called NAME (NAME:solver when it has several), so runs of
    one solver with other flags sit side by side; a later file's cell for the same seed and
    column replaces an earlier one (a rerun)."""
    table, keys = {}, []
    for spec in specs:
        name, _, path = spec.rpartition("=")
        with open(path) as f:
            header = f.readline().strip().split(",")
            these = [h for h in header[1:] if not h.endswith("_s")]
            for line in f:
                cells = line.strip().split(",")
                row = table.setdefault(int(cells[0]), {"seed": int(cells[0])})
                for i, k in enumerate(these):
                    col = (f"{name}:{k}" if len(these) > 1 else name) if name else k
                    if col not in keys:
                        keys.append(col)
                    cpu, wall, v = cells[1 + 3 * i : 4 + 3 * i]
                    # Files of earlier versions of this script marked the limit's signals so.
                    timeout = v in ("TIMEOUT", "STOPPED(signal 24)", "STOPPED(signal 9)")
                    row[col] = (float(cpu), float(wall), None if timeout else v)
    rows = sorted(table.values(), key=lambda r: r["seed"])
    for r in rows:
        missing = [k for k in keys if k not in r]
        assert not missing, f"seed {r['seed']} has no run of {missing}"
    return rows, keys


def report(rows, keys, labels, limit):
    """Prints the per-instance table and the summary (Markdown)."""
    stopped = [(r["seed"], k) for r in rows for k in keys if r[k][2] and not answered(r[k][2])]
    if stopped:
        print(
            "WARNING: runs ended without an answer before their CPU time reached the limit "
            "(SIGXCPU early on an overloaded machine, or a failure); they are left out below, "
            f"rerun them: {stopped}",
            file=sys.stderr,
        )
        rows = [r for r in rows if all(not r[k][2] or answered(r[k][2]) for k in keys)]

    def capped(cpu, wall, v):
        return min(cpu, limit) if v else 2 * limit

    print("| seed | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for r in rows:
        cells = [f"{r[k][0]:.1f} s {r[k][2]}" if r[k][2] else "timeout" for k in keys]
        print(f"| {r['seed']} | " + " | ".join(cells) + " |")
    print()
    print(f"| solver | solved (of {len(rows)}) | PAR-2 (CPU) | total CPU (limit for unsolved) | median CPU of the solved |")
    print("|---|---|---|---|---|")
    for key in keys:
        label = labels.get(key, key)
        solved = [r[key][0] for r in rows if r[key][2]]
        par2 = statistics.mean(capped(*r[key]) for r in rows)
        total = sum(min(r[key][0], limit) if r[key][2] else limit for r in rows)
        med = f"{statistics.median(solved):.1f} s" if solved else "-"
        print(f"| {label} | {len(solved)} | {par2:.1f} s | {total:.0f} s | {med} |")
    disagree = [r["seed"] for r in rows if len({r[k][2] for k in keys if answered(r[k][2])}) > 1]
    print()
    print("answers agree on every instance" if not disagree else f"ANSWERS DISAGREE on seeds {disagree}")
    if stopped:
        sys.exit(3)


if __name__ == "__main__":
    main()
