"""Counts the models of DIMACS files with Ganak (pyganak), as the tests' independent oracle.

Usage: ganak_count.py [--unprojected] FILE...

For each file, one line: `count FILE TYPE PROJECTED UNPROJECTED`, where TYPE is the file's
Model Counting Competition type (`mc`, `pmc`, or `-` when it declares none), PROJECTED is the
count of the distinct assignments of the `c p show` variables that extend to a model (every
variable when the file shows none), and UNPROJECTED the count over every variable (with
`--unprojected`; `-` otherwise).
The file is read here, by this script's own parser, not by the program under test.
"""
import sys

from pyganak import Counter


def read_dimacs(path):
    kind, show, clauses, nvars, clause = "-", None, [], 0, []
    with open(path) as f:
        for line in f:
            if line.startswith("c t "):
                kind = line.split()[2]
            elif line.startswith("c p show"):
                show = (show or []) + [int(t) for t in line.split()[3:] if t != "0"]
            elif line.startswith("c") or not line.strip():
                continue
            elif line.startswith("p cnf"):
                nvars = int(line.split()[2])
            else:
                for tok in line.split():
                    lit = int(tok)
                    if lit == 0:
                        clauses.append(clause)
                        clause = []
                    else:
                        clause.append(lit)
    return kind, show, nvars, clauses


def count(nvars, clauses, show):
    c = Counter(verbose=0, seed=1)
    c.new_vars(nvars)
    c.add_clauses(clauses)
    if show is not None:
        c.set_sampling_set(show)
    return c.count()


args = sys.argv[1:]
want_unprojected = "--unprojected" in args
for path in [a for a in args if a != "--unprojected"]:
    kind, show, nvars, clauses = read_dimacs(path)
    projected = count(nvars, clauses, show)
    if show is None:
        unprojected = projected
    elif want_unprojected:
        unprojected = count(nvars, clauses, None)
    else:
        unprojected = "-"
    # Ganak itself may print `c o ...` lines on standard output; results carry a marker.
    print("count", path, kind, projected, unprojected, flush=True)
