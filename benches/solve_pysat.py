#!/usr/bin/env python3
"""Baseline for the enumeration benchmark: all n-queens solutions with CaDiCaL through PySAT.

Reads the DIMACS exported by `queens-sat encode N` (so both sides solve the same formula),
then loops: solve, read the board from the n*n cell variables, add the blocking clause
"not all these n queens" (the n true cell literals negated). Prints the count and the time.

    python3 benches/solve_pysat.py queens12.cnf 12
"""
import sys
import time

try:
    from pysat.formula import CNF
    from pysat.solvers import Solver
except ImportError:
    sys.exit("solve_pysat.py needs PySAT: python3 -m pip install python-sat")


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    solver_name = sys.argv[3] if len(sys.argv) > 3 else "cadical153"
    start = time.perf_counter()
    cnf = CNF(from_file=path)
    count = 0
    with Solver(name=solver_name, bootstrap_with=cnf.clauses) as s:
        while s.solve():
            model = s.get_model()
            queens = [lit for lit in model[: n * n] if lit > 0]
            assert len(queens) == n, queens
            s.add_clause([-lit for lit in queens])
            count += 1
    elapsed = time.perf_counter() - start
    print(f"{count} {elapsed:.3f}")


if __name__ == "__main__":
    main()
