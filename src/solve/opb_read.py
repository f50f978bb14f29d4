"""Reads the subset of OPB that queens-sat writes (one linear constraint a line with >= or =,
the variable count in the header): the first part of the Python programs that run the PyPI PB
solvers on an OPB file (python -c this text followed by the solver's part, FILE.opb)."""
import sys


def read_opb(path):
    """(number of variables, [(terms [(coefficient, name)], op '>=' or '=', right side)])."""
    nvars, cons = 0, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("*"):
                if "#variable=" in line:
                    nvars = int(line.split("#variable=")[1].split()[0])
                continue
            if not line:
                continue
            body = line.rstrip(";").strip()
            op = ">=" if ">=" in body else "="
            lhs, rhs = body.split(op)
            toks = lhs.split()
            terms = [(int(toks[i]), toks[i + 1]) for i in range(0, len(toks), 2)]
            cons.append((terms, op, int(rhs)))
    return nvars, cons


def print_answer(names, values):
    """The answer in the output format of the Pseudo-Boolean Competition: `values` the truth
    of each of `names` for a solution, or the string UNSAT or UNKNOWN."""
    if values == "UNSAT":
        print("s UNSATISFIABLE")
    elif values == "UNKNOWN":
        print("s UNKNOWN")
    else:
        print("s SATISFIABLE")
        print("v " + " ".join(n if b else "-" + n for n, b in zip(names, values)))
