"""Decides Excluded Diagonals instances with CP-SAT on a board model of its own, as the
tests' independent oracle for the answers of queens-sat's engines (and, once, of the frontier
answers of docs/experiments.md, "Eighth round").

    cpsat_board.py [--limit SECONDS] [--drop counts,sums,moments] FILE.txt...

FILE is an instance file of `queens-sat generate`, read here from its board drawing (`.` free,
`Q` placed, `#` no queen), not by the program under test. The model: a Boolean per free cell,
exactly one per row and per column; each line r + c = v and r - c = v gets an occupancy u
equal to the sum of its free cells (0 or 1); then, unless dropped, n occupied lines per
direction (counts), the lines' indices summing to 0 from the middle (sums), and their squared
distances from the middle summing to sum over i of (2i - n + 1)^2 (moments). One worker,
linearization level 2. Prints `FILE<TAB>SAT|UNSAT|TIMEOUT<TAB>wall seconds`; a solution is
checked (rows, columns and both diagonals) before it is printed. Needs the PyPI package
ortools (tests/requirements.txt)."""
import argparse
import time

from ortools.sat.python import cp_model


def board(path):
    return [line[4:].split() for line in open(path) if line.startswith("#   ")]


def run(path, limit, drop):
    b = board(path)
    n = len(b)
    m = cp_model.CpModel()
    x = {(r, c): m.NewBoolVar(f"x{r}_{c}") for r in range(n) for c in range(n) if b[r][c] in ".Q"}
    for r in range(n):
        if b[r].count("Q"):
            m.Add(x[r, b[r].index("Q")] == 1)
        m.AddExactlyOne([x[r, c] for c in range(n) if (r, c) in x])
    for c in range(n):
        m.AddExactlyOne([x[r, c] for r in range(n) if (r, c) in x])
    mid = n - 1
    lines = {"/": [], "\\": []}  # (distance from the middle, occupancy)
    for a in range(2 * n - 1):
        cells = [x[r, a - r] for r in range(n) if 0 <= a - r < n and (r, a - r) in x]
        if cells:
            u = m.NewBoolVar(f"u{a}")
            m.Add(sum(cells) == u)
            lines["/"].append((a - mid, u))
    for d in range(-(n - 1), n):
        cells = [x[r, r + d] for r in range(n) if 0 <= r + d < n and (r, r + d) in x]
        if cells:
            v = m.NewBoolVar(f"v{d}")
            m.Add(sum(cells) == v)
            lines["\\"].append((d, v))
    for kind in lines.values():
        if "counts" not in drop:
            m.Add(sum(u for _, u in kind) == n)
        if "sums" not in drop:
            m.Add(sum(w * u for w, u in kind) == 0)
    if "moments" not in drop:
        total = sum((2 * i - mid) ** 2 for i in range(n))
        m.Add(sum(w * w * u for kind in lines.values() for w, u in kind) == total)
    s = cp_model.CpSolver()
    s.parameters.max_time_in_seconds = limit
    s.parameters.num_workers = 1
    s.parameters.linearization_level = 2
    start = time.time()
    status = s.Solve(m)
    answer = {cp_model.OPTIMAL: "SAT", cp_model.FEASIBLE: "SAT", cp_model.INFEASIBLE: "UNSAT"}.get(status, "TIMEOUT")
    if answer == "SAT":
        cols = [next(c for c in range(n) if (r, c) in x and s.Value(x[r, c])) for r in range(n)]
        assert len(set(cols)) == n
        assert len({c + r for r, c in enumerate(cols)}) == n
        assert len({c - r for r, c in enumerate(cols)}) == n
    print(f"{path}\t{answer}\t{time.time() - start:.1f}", flush=True)


p = argparse.ArgumentParser()
p.add_argument("--limit", type=float, default=300)
p.add_argument("--drop", default="")
p.add_argument("files", nargs="+")
args = p.parse_args()
for f in args.files:
    run(f, args.limit, set(args.drop.split(",")))
