#!/usr/bin/env python3
"""The global-reasoning experiment (docs/experiments.md): the n = 21 hard band of CSPLib prob079
(d = 17..21), a seeded sample, each instance decided by queens-sat's search engine (the
reference, checked against the published answer) and, encoded by queens-sat in each
configuration, by CaDiCaL as a process, within a CPU-time limit. Python standard library only.

usage: hardband.py QUEENS_SAT DIAG21_DIR OUT.csv --configs A,B --sample K [--from J] [--timeout S] [--seed S]
       hardband.py QUEENS_SAT --blocked OUT.csv --configs A,B [--sample K] [--from J] [--timeout S]
         DIAG21_DIR: the folder of tests/data/csplib-prob079/diag-21.tar.gz, extracted.
         The sample: the band's 5,000 (id, d) drawn in a seeded order (seed 28), the first K.
         --blocked: the blocked n = 60 hard set instead (`generate blocked 60 --p 0.85 --seed S`,
         S = 1..20, or S = J+1..K), each answer compared with the search engine's.
         A configuration is a key of CONFIGS (CaDiCaL, `cadical -q`, on `encode`'s DIMACS), of
         PB (the solver on `encode --format opb`), `search` or `propagator` (solve --engine),
         or `lib:BACKEND[:NAME=VALUE...]`: the in-process solver (`solve --backend BACKEND`, each
         NAME=VALUE a `--solver-option`), e.g. `lib:cadical`, `lib:kissat:stable=2`.
         A rerun appends only the rows missing from OUT.csv.
       hardband.py summary A.csv [B.csv ...] [--timeout S]: the table per configuration.
       hardband.py cactus OUT.svg A.csv [B.csv ...] [--timeout S]: the cactus plot.
       hardband.py sweep SWEEP.csv OUT.csv --expected B.csv: the rows of p = 0.85 of a
         `compare --family blocked --n 60` CSV (docs/results/families/blocked-60-cadical.csv)
         as rows of the blocked set (its seeds are the set's boards), each timed by compare's
         solve time, the expected answer that of B.csv, a blocked-set run of this script.
Every run is limited to S seconds of CPU time (RLIMIT_CPU) and timed by its CPU time (the
machine may be shared); answers are compared with the published ones ("wrong").
"""
import collections, csv, gzip, os, random, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import arg, open_results, timed  # noqa: E402  (the first experiment's options, results file and CPU-limited run)

CONFIGS = {
    "pairwise": [],
    "sequential": ["--amo", "sequential"],
    "commander": ["--amo", "commander"],
    "product": ["--amo", "product"],
    "binary": ["--amo", "binary"],
    "bimander": ["--amo", "bimander"],
    "ladder": ["--amo", "ladder"],
    "totalizer": ["--amo", "totalizer"],
    "mtotalizer": ["--amo", "mtotalizer"],
    "sortnet": ["--amo", "sortnet"],
    "cardnet": ["--amo", "cardnet"],
    "columns-direct": ["--model", "columns"],
    "columns-direct-support": ["--model", "columns", "--constraints", "support"],
    "columns-order": ["--model", "columns", "--domain", "order"],
    "columns-log": ["--model", "columns", "--domain", "log"],
    "columns-coupled": ["--model", "columns", "--domain", "coupled"],
    "columns-order-hall": ["--model", "columns", "--alldiff", "hall"],
    "columns-coupled-hall": ["--model", "columns", "--domain", "coupled", "--alldiff", "hall"],
    "pairwise+perm": ["--redundant", "permutation"],
    "pairwise+diag": ["--redundant", "diagonals"],
    "pairwise+perm+diag": ["--redundant", "permutation,diagonals"],
    "sequential+perm+diag": ["--amo", "sequential", "--redundant", "permutation,diagonals"],
    "pairwise+perm+diag+sums": ["--redundant", "permutation,diagonals,sums"],
    "pairwise+sums": ["--redundant", "sums"],
}
PB = {
    "minisat+ (OPB)": ["minisat+"],
    "sat4j-pb (OPB)": ["java", "-jar", "/usr/share/java/org.sat4j.pb.jar"],
}
HERE = os.path.dirname(os.path.abspath(__file__))
# Exact (PyPI package exact), run as `compare --solver exact` runs it: the toolkit's short
# Python program, with the interpreter of QUEENS_SAT_PYTHON.
with open(os.path.join(HERE, "..", "..", "..", "src", "solve", "exact_opb.py")) as _f:
    PB["exact (OPB)"] = [os.environ.get("QUEENS_SAT_PYTHON", "python3"), "-c", _f.read()]
RESULTS = os.path.join(HERE, "..", "..", "..", "tests", "data", "csplib-prob079",
                       "run-diags-shiftqueens-processed.txt.gz")


# The columns of a results file.
COLUMNS = ["instance", "d", "config", "vars", "clauses", "answer", "cpu_s", "expected", "recorded_s", "stats"]


def blocked_name(seed):
    """The name of the blocked n = 60 board of a seed, in the results files."""
    return f"blocked-60-0.85-s{seed}"


def band(seed):
    rows = []
    with gzip.open(RESULTS, "rt") as f:
        for line in f:
            p = line.split()
            if p[0] == "21" and 17 <= int(p[1]) <= 21:
                rows.append((int(p[3]), int(p[1]), int(p[5]), float(p[11])))
    rows.sort()
    random.Random(seed).shuffle(rows)
    return rows


def solve_answer(code, stdout):
    """The answer of a finished `queens-sat solve --format line`: SAT, UNSAT (exit code 1, or
    0 with "no solution exists", as an empty placement reads), or ERROR and the exit code."""
    if code == 0 and "no solution exists" in stdout.lower():
        return "UNSAT"
    return {0: "SAT", 1: "UNSAT"}.get(code, f"ERROR{code}")


def instances(qs, folder, tmp, seed, first, k):
    """(name, d, instance arguments, expected answer, recorded seconds) of the set, from the
    first-th (0-based) to before the k-th: the band in its seeded order, or (folder
    "--blocked") the blocked n = 60 boards of seeds first + 1 .. k (at most 20), whose
    expected answer is the search engine's (run here, its time not counted)."""
    if folder != "--blocked":
        for (i, d, sols, rec) in band(seed)[first:k]:
            inst = ["--instance", os.path.join(folder, f"diag-21-4-{i}.param"), "--diagonals", str(d)]
            yield f"diag-21-4-{i}:d={d}", d, inst, "SAT" if sols else "UNSAT", rec
        return
    for s in range(first + 1, min(k, 20) + 1):
        path = os.path.join(tmp, f"{blocked_name(s)}.txt")
        subprocess.run([qs, "generate", "blocked", "60", "--p", "0.85", "--seed", str(s), "-o", path],
                       check=True)
        p = subprocess.run([qs, "solve", "--engine", "search", "--instance", path, "--format", "line"],
                           capture_output=True, text=True)
        expected = solve_answer(p.returncode, p.stdout)
        assert expected in ("SAT", "UNSAT"), f"the search failed on seed {s}: {p.stderr}"
        yield blocked_name(s), "", ["--instance", path], expected, ""


def main():
    qs, folder, out = sys.argv[1], sys.argv[2], sys.argv[3]
    timeout, k, seed = arg("--timeout", 60.0), arg("--sample", 100), arg("--seed", 28)
    # --from J: start at the J-th instance of the order (0-based), so that parts of one sample
    # run side by side into files of their own.
    first = arg("--from", 0)
    configs = [c for c in arg("--configs", "pairwise").split(",") if c]
    f, w, done = open_results(out, COLUMNS)
    with tempfile.TemporaryDirectory() as tmp:
        for (name, d, inst, expected, rec) in instances(qs, folder, tmp, seed, first, k):
            for config in configs:
                if (name, config) in done:
                    continue
                if config in ("search", "propagator") or config.startswith("lib:"):
                    if config.startswith("lib:"):
                        backend, *opts = config[4:].split(":")
                        how = ["--backend", backend] + [a for o in opts for a in ("--solver-option", o)]
                    else:
                        how = ["--engine", config, "--threads", "1"]
                    res, t = timed([qs, "solve", "--format", "line"] + how + inst, timeout)
                    answer = "TIMEOUT" if res is None else solve_answer(res[1], res[0])
                    # the propagator engine's own counts (its last stderr line), when it finished
                    stats = ""
                    if res is not None and config == "propagator":
                        stats = next((l for l in reversed(res[2].splitlines()) if l.startswith("propagator:")), "")
                    w.writerow([name, d, config, "", "", answer, f"{t:.3f}", expected, rec, stats])
                elif config in PB:
                    opb = os.path.join(tmp, "f.opb")
                    subprocess.run([qs, "encode", "--format", "opb", "--force", "-o", opb] + inst, check=True)
                    with open(opb) as g:
                        header = g.readline().split()
                    res, t = timed(PB[config] + [opb], timeout)
                    answer = "TIMEOUT"
                    if res is not None:
                        st = [l for l in res[0].splitlines() if l.startswith("s ")]
                        answer = {"s SATISFIABLE": "SAT", "s UNSATISFIABLE": "UNSAT"}.get(
                            st[0].strip() if st else "", "TIMEOUT" if st and "UNKNOWN" in st[0] else "ERROR")
                    w.writerow([name, d, config, header[2], header[4], answer, f"{t:.3f}", expected, rec, ""])
                else:
                    cnf = os.path.join(tmp, "f.cnf")
                    subprocess.run([qs, "encode", "--force", "-o", cnf] + inst + CONFIGS[config], check=True)
                    with open(cnf) as g:
                        header = next(l for l in g if l.startswith("p cnf")).split()
                    res, t = timed(["cadical", "-q", cnf], timeout)
                    answer = "TIMEOUT" if res is None else {10: "SAT", 20: "UNSAT"}.get(res[1], "ERROR")
                    w.writerow([name, d, config, header[2], header[3], answer, f"{t:.3f}", expected, rec, ""])
                f.flush()
                print(name, config, answer, f"{t:.2f}", flush=True)


def rows_of(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            rows += list(csv.DictReader(f))
    return rows


def summary(paths, timeout):
    """Per configuration: runs, decided, SAT/UNSAT, timeouts, wrong answers (against the
    published ones), PAR-2 (a timeout counts twice the limit), total CPU and the median CPU
    time of the runs (a timeout at the limit)."""
    import statistics
    rows = rows_of(paths)
    configs = list(dict.fromkeys(r["config"] for r in rows))
    print("| configuration | instances | decided | SAT | UNSAT | timeouts | wrong | decided (%) | PAR-2 (s) | total CPU (s) | median CPU (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in configs:
        rs = [r for r in rows if r["config"] == c]
        sat = sum(r["answer"] == "SAT" for r in rs)
        unsat = sum(r["answer"] == "UNSAT" for r in rs)
        tos = sum(r["answer"] == "TIMEOUT" for r in rs)
        wrong = sum(r["answer"] in ("SAT", "UNSAT") and r["answer"] != r["expected"] for r in rs)
        par2 = sum(2 * timeout if r["answer"] == "TIMEOUT" else float(r["cpu_s"]) for r in rs) / len(rs)
        total = sum(float(r["cpu_s"]) for r in rs)
        print(f"| {c} | {len(rs)} | {sat + unsat} | {sat} | {unsat} | {tos} | {wrong} | "
              f"{100 * (sat + unsat) / len(rs):.0f} | {par2:.2f} | {total:.1f} | "
              f"{statistics.median(float(r['cpu_s']) for r in rs):.2f} |")


def cactus(paths, out, timeout):
    """A cactus plot (SVG): for each configuration, the instances decided (x) within a CPU time
    (y, log scale), the decided runs sorted by time."""
    import math
    rows = rows_of(paths)
    configs = list(dict.fromkeys(r["config"] for r in rows))
    series = {c: sorted(float(r["cpu_s"]) for r in rows
                        if r["config"] == c and r["answer"] in ("SAT", "UNSAT")) for c in configs}
    runs = collections.Counter(r["config"] for r in rows)
    xmax = max(runs.values())
    W, H, L, B, T, R = 800, 440, 60, 40, 20, 270
    lo, hi = 1e-2, timeout
    def X(i): return L + (W - L - R) * i / xmax
    def Y(t): return T + (H - T - B) * (1 - (math.log10(max(t, lo)) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)))
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
              "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#aa4499", "#44aa99", "#999933",
              "#882255", "#661100", "#6699cc", "#888888"]
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="black"/>',
         f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="black"/>']
    e = math.log10(lo)
    while e <= math.log10(hi) + 1e-9:
        y = Y(10 ** e)
        o.append(f'<line x1="{L - 4}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        o.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{10 ** e:g}</text>')
        e += 1
    for i in range(0, xmax + 1, max(1, xmax // 10)):
        o.append(f'<text x="{X(i):.1f}" y="{H - B + 15}" text-anchor="middle">{i}</text>')
    o.append(f'<text x="{(L + W - R) / 2}" y="{H - 5}" text-anchor="middle">instances decided</text>')
    o.append(f'<text x="14" y="{(T + H - B) / 2}" transform="rotate(-90 14 {(T + H - B) / 2})" text-anchor="middle">CPU seconds (log)</text>')
    for k, c in enumerate(configs):
        ts = series[c]
        col = colors[k % len(colors)]
        # Past the palette, the colours come again dashed.
        dash = ' stroke-dasharray="6,3"' if k >= len(colors) else ""
        pts = " ".join(f"{X(i + 1):.1f},{Y(t):.1f}" for i, t in enumerate(ts))
        if pts:
            o.append(f'<polyline fill="none" stroke="{col}" stroke-width="1.5"{dash} points="{pts}"/>')
        o.append(f'<line x1="{W - R + 10}" y1="{T + 14 * k + 6}" x2="{W - R + 30}" y2="{T + 14 * k + 6}" stroke="{col}" stroke-width="2"{dash}/>')
        o.append(f'<text x="{W - R + 35}" y="{T + 14 * k + 10}">{c} ({len(ts)}/{runs[c]})</text>')
    o.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(o) + "\n")


def sweep(path, out, expected_csv):
    """Converts the p = 0.85 rows of a blocked n = 60 `compare` sweep into this script's rows."""
    expected = {r["instance"]: r["expected"] for r in rows_of([expected_csv])}
    with open(path) as f, open(out, "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(COLUMNS)
        for r in csv.DictReader(f):
            if r["family"] != "blocked" or r["n"] != "60" or r["value"] != "0.85":
                continue
            name = blocked_name(r["seed"])
            t = float(r["timeout_s"]) if r["status"] == "TIMEOUT" else float(r["solve_ms"]) / 1000
            w.writerow([name, "", r["encoding"], r["vars"], r["clauses"], r["status"], f"{t:.3f}",
                        expected[name], "", "compare solve time"])


if __name__ == "__main__":
    if sys.argv[1] == "summary":
        summary([a for a in sys.argv[2:] if a.endswith(".csv")], arg("--timeout", 60.0))
    elif sys.argv[1] == "sweep":
        if "--expected" not in sys.argv:
            sys.exit("hardband.py sweep: --expected B.csv (a blocked-set run of this script) is required")
        sweep(sys.argv[2], sys.argv[3], arg("--expected", ""))
    elif sys.argv[1] == "cactus":
        cactus([a for a in sys.argv[3:] if a.endswith(".csv")], sys.argv[2], arg("--timeout", 60.0))
    else:
        main()
