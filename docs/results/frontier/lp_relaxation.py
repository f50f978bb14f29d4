#!/usr/bin/env python3
"""The linear relaxation of a pseudo-Boolean (OPB) formula: is it feasible?

    python3 lp_relaxation.py FILE.opb [FILE.opb ...]

Reads each file as `queens-sat encode --format opb` writes it (one linear constraint a line:
`+1 x3 -1 x7 ... >= K ;` or `= K ;`, comments starting with `*`), relaxes every variable to
the interval [0, 1] and asks HiGHS (through SciPy) whether the constraints have a solution.
Prints one tab-separated line per file: the file, `feasible` or `infeasible`, the seconds
taken (reading the file and solving the LP). An infeasible relaxation refutes the formula at
once (no 0/1 solution either); a feasible one says that every argument made of linear
combinations of the constraints (the counting, the sums and the second moments of the search
among them) fails at this node.

Needs SciPy (`pip install scipy`); docs/experiments.md ("Excluded Diagonals past n = 21") has
the measurements made with it.
"""
import re
import sys
import time

try:
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix
except ImportError:
    sys.exit("lp_relaxation.py needs SciPy (pip install scipy, in a virtual environment)")

TERM = re.compile(r"([+-]?\d+)\s+x(\d+)")


def read_opb(path):
    """The constraints of an OPB file as (terms, op, rhs), terms a list of (coef, var)."""
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("*"):
                continue
            m = re.fullmatch(r"(.*?)\s*(>=|=)\s*([+-]?\d+)\s*;", line)
            if not m:
                sys.exit(f"{path}:{number}: not a linear constraint of OPB: {line[:60]}")
            terms = [(int(c), int(v)) for c, v in TERM.findall(m.group(1))]
            out.append((terms, m.group(2), int(m.group(3))))
    return out


def feasible(constraints):
    """Whether the constraints have a solution with every variable in [0, 1]."""
    nvars = max((v for terms, _, _ in constraints for _, v in terms), default=0)
    rows = {"=": ([], [], [], []), ">=": ([], [], [], [])}
    for terms, op, rhs in constraints:
        r, c, d, b = rows[op]
        k = len(b)
        for coef, var in terms:
            r.append(k)
            c.append(var - 1)
            # linprog takes A_ub x <= b_ub: a >= constraint is negated.
            d.append(coef if op == "=" else -coef)
        b.append(rhs if op == "=" else -rhs)

    def matrix(op):
        r, c, d, b = rows[op]
        if not b:
            return None, None
        return coo_matrix((d, (r, c)), shape=(len(b), nvars)).tocsr(), b

    a_eq, b_eq = matrix("=")
    a_ub, b_ub = matrix(">=")
    res = linprog(
        [0] * nvars, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=(0, 1), method="highs"
    )
    if res.status not in (0, 2):
        sys.exit(f"the LP solver stopped without an answer: {res.message}")
    return res.status == 0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    for path in sys.argv[1:]:
        start = time.perf_counter()
        try:
            constraints = read_opb(path)
        except (OSError, UnicodeDecodeError) as e:
            sys.exit(f"{path}: cannot read: {e}")
        ok = feasible(constraints)
        print(f"{path}\t{'feasible' if ok else 'infeasible'}\t{time.perf_counter() - start:.3f}")


if __name__ == "__main__":
    main()
