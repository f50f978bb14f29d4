#!/usr/bin/env python3
"""The global-reasoning experiment of docs/experiments.md ("Encodings that reason
globally"): a seeded sample of the n = 21 hard band of CSPLib prob079 (d = 17..21) and a few
blocked n = 60 boards, each encoded by queens-sat in several ways and given to CaDiCaL with a
time limit, and written as OPB (`encode --format opb`) for the pseudo-Boolean solvers
minisat+, sat4j's PB solver and Exact (PB_CONFIGS; a solver that is not installed is left out);
the toolkit's own counter as the reference. Python standard library only (Exact runs under the
interpreter of $QUEENS_SAT_PYTHON, default python3, which must have the package exact).

usage: run.py QUEENS_SAT DIAG21_DIR OUT.csv [--timeout S] [--sample K] [--seed S] [--blocked B]
  DIAG21_DIR: the folder of tests/data/csplib-prob079/diag-21.tar.gz, extracted.
A rerun appends only the rows missing from OUT.csv.
       run.py summary OUT.csv [--timeout S]: the table of docs/experiments.md.
"""
import csv, gzip, os, random, resource, subprocess, sys, tempfile

CONFIGS = {
    "cells-pairwise": [],
    "columns-order-hall": ["--model", "columns", "--alldiff", "hall"],
    "cells-pairwise+redundant": ["--redundant", "permutation,diagonals"],
    "columns-order-hall+redundant": ["--model", "columns", "--alldiff", "hall",
                                     "--redundant", "permutation,diagonals"],
    "cells-pairwise+sums": ["--redundant", "sums"],
    "cells-pairwise+redundant+sums": ["--redundant", "permutation,diagonals,sums"],
    "columns-order-hall+redundant+sums": ["--model", "columns", "--alldiff", "hall",
                                          "--redundant", "permutation,diagonals,sums"],
}
SAT4J_PB = "/usr/share/java/org.sat4j.pb.jar"
EXACT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src",
                     "solve", "exact_opb.py")
# The OPB form (the board's linear constraints, with the redundant ones written natively) and
# a pseudo-Boolean solver: (encode options, solver command before the file).
PB_CONFIGS = {
    "opb+redundant+sums/minisat+": (["--redundant", "permutation,diagonals,sums"], ["minisat+"]),
    "opb+redundant+sums/sat4j-pb": (["--redundant", "permutation,diagonals,sums"],
                                    ["java", "-jar", SAT4J_PB]),
    "opb+redundant+sums/exact": (["--redundant", "permutation,diagonals,sums"],
                                 [os.environ.get("QUEENS_SAT_PYTHON", "python3"), EXACT]),
}


def pb_available(cmd):
    """True when the PB solver's program (and for Exact, the Python package) is there."""
    import shutil
    if shutil.which(cmd[0]) is None and not os.path.exists(cmd[0]):
        return False
    if cmd[0] == "java":
        return os.path.exists(SAT4J_PB)
    if cmd[-1] == EXACT:
        return subprocess.run([cmd[0], "-c", "import exact"], capture_output=True).returncode == 0
    return True
HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "..", "..", "tests", "data", "csplib-prob079",
                       "run-diags-shiftqueens-processed.txt.gz")


def open_results(out, header):
    """The CSV file `out` opened for appending (with `header` written when it is new), its
    writer, and the (instance, config) pairs it already holds, so that a run resumes."""
    done = set()
    if os.path.exists(out):
        with open(out) as f:
            done = {(r["instance"], r["config"]) for r in csv.DictReader(f)}
    new = not os.path.exists(out)
    f = open(out, "a", newline="")
    w = csv.writer(f)
    if new:
        w.writerow(header)
    return f, w, done


def arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def sample(k, seed):
    """k (id, d, published answer) of the n = 21 hard band, drawn with the seed, plus the
    issue's instance (id 119, d = 18)."""
    rows = []
    with gzip.open(RESULTS, "rt") as f:
        for line in f:
            p = line.split()
            if p[0] == "21" and 17 <= int(p[1]) <= 21:
                sols = int(p[5])  # p[4] ends in "Solutions:"
                rows.append((int(p[3]), int(p[1]), sols))
    rows.sort()
    picked = random.Random(seed).sample(rows, k)
    extra = [r for r in rows if r[0] == 119 and r[1] == 18]
    return sorted(set(picked + extra))


def timed(cmd, timeout):
    """Runs cmd with a limit of `timeout` seconds of CPU time (RLIMIT_CPU; the machine is
    shared, so CPU time is what is measured and limited). Returns ((stdout, exit code,
    stderr) or None past the limit, CPU seconds)."""
    limit = int(timeout)

    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, preexec_fn=cap)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
        if p.returncode < 0 or cpu >= limit:
            return None, float(timeout)
        out.seek(0)
        err.seek(0)
        return (out.read().decode(), p.returncode, err.read().decode(errors="replace")), cpu


def main():
    qs, folder, out = sys.argv[1], sys.argv[2], sys.argv[3]
    timeout, k, seed = arg("--timeout", 60.0), arg("--sample", 12), arg("--seed", 28)
    f, w, done = open_results(out, ["instance", "config", "vars", "clauses", "answer", "time_s", "expected"])
    jobs = []
    for (i, d, sols) in sample(k, seed):
        path = os.path.join(folder, f"diag-21-4-{i}.param")
        jobs.append((f"diag-21-4-{i}:d={d}", ["--instance", path, "--diagonals", str(d)],
                     "SAT" if sols else "UNSAT"))
    for s in range(1, arg("--blocked", 3) + 1):
        jobs.append((f"blocked-60-0.85-s{s}", None, s))
    with tempfile.TemporaryDirectory() as tmp:
        for name, inst, expected in jobs:
            if inst is None:
                path = os.path.join(tmp, f"b{expected}.txt")
                subprocess.run([qs, "generate", "blocked", "60", "--p", "0.85", "--seed",
                                str(expected), "-o", path], check=True)
                inst = ["--instance", path]
            if (name, "count") not in done:
                res, t = timed([qs, "count"] + inst, timeout * 10)
                sols = None if res is None else next(
                    l.split()[1] for l in res[0].splitlines() if l.startswith("solutions:"))
                answer = "TIMEOUT" if res is None else ("UNSAT" if sols == "0" else "SAT")
                if not isinstance(expected, str):
                    expected = answer
                w.writerow([name, "count", "", "", answer, f"{t:.3f}", expected]); f.flush()
            if not isinstance(expected, str):
                with open(out) as g:
                    expected = next((r["answer"] for r in csv.DictReader(g)
                                     if r["instance"] == name and r["config"] == "count"), "?")
            for config, opts in CONFIGS.items():
                if (name, config) in done:
                    continue
                if name.startswith("blocked") and "hall" in config:
                    # O(n^4): 33.6 million clauses at n = 60, past the time limit to read.
                    continue
                cnf = os.path.join(tmp, "f.cnf")
                subprocess.run([qs, "encode", "--force", "-o", cnf] + inst + opts, check=True)
                with open(cnf) as g:
                    header = next(l for l in g if l.startswith("p cnf")).split()
                res, t = timed(["cadical", "-q", cnf], timeout)
                if res is None:
                    answer = "TIMEOUT"
                else:
                    answer = {10: "SAT", 20: "UNSAT"}.get(res[1], "ERROR")
                w.writerow([name, config, header[2], header[3], answer, f"{t:.3f}", expected])
                f.flush()
                print(name, config, answer, f"{t:.2f}", flush=True)
            for config, (opts, cmd) in PB_CONFIGS.items():
                if (name, config) in done or not pb_available(cmd):
                    continue
                opb = os.path.join(tmp, "f.opb")
                subprocess.run([qs, "encode", "--format", "opb", "--force", "-o", opb] + inst
                               + opts, check=True)
                with open(opb) as g:
                    head = g.readline().split()  # * #variable= V #constraint= C
                res, t = timed(cmd + [opb], timeout)
                if res is None:
                    answer = "TIMEOUT"
                else:
                    status = next((l.split(None, 1)[1].strip() for l in res[0].splitlines()
                                   if l.startswith("s ")), "")
                    # UNKNOWN: stopped by the CPU limit's signal (Exact says so and exits).
                    answer = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT",
                              "UNKNOWN": "TIMEOUT"}.get(status, "ERROR")
                w.writerow([name, config, head[2], head[4], answer, f"{t:.3f}", expected])
                f.flush()
                print(name, config, answer, f"{t:.2f}", flush=True)


def summary(path, timeout):
    """Per configuration: decided (SAT + UNSAT), wrong answers (against the published answer
    or the counter's, where known), PAR-2 (a timeout counts twice the limit; the counter, which
    enumerates every solution, has ten times the limit) and total CPU time, over OUT.csv."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    configs = ["count"] + list(CONFIGS) + list(PB_CONFIGS)
    print("| configuration | runs | decided | SAT | UNSAT | timeouts | wrong | PAR-2 (s) | total CPU (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in configs:
        rs = [r for r in rows if r["config"] == c]
        if not rs:
            continue
        sat = sum(r["answer"] == "SAT" for r in rs)
        unsat = sum(r["answer"] == "UNSAT" for r in rs)
        tos = sum(r["answer"] == "TIMEOUT" for r in rs)
        wrong = sum(r["answer"] in ("SAT", "UNSAT") and r["expected"] in ("SAT", "UNSAT")
                    and r["answer"] != r["expected"] for r in rs)
        limit = timeout * (10 if c == "count" else 1)  # count has ten times the limit
        par2 = sum(2 * limit if r["answer"] == "TIMEOUT" else float(r["time_s"]) for r in rs) / len(rs)
        total = sum(float(r["time_s"]) for r in rs)
        print(f"| {c} | {len(rs)} | {sat + unsat} | {sat} | {unsat} | {tos} | {wrong} | {par2:.2f} | {total:.1f} |")


if __name__ == "__main__":
    if sys.argv[1] == "summary":
        summary(sys.argv[2], arg("--timeout", 60.0))
    else:
        main()
