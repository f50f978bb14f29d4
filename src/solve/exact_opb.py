"""Solves an OPB file with the Exact PB solver (PyPI package exact) and prints the answer in
the output format of the Pseudo-Boolean Competition (s and v lines): how queens-sat compare runs
Exact (python -c this text FILE.opb). Reads the subset of OPB that queens-sat writes: one
linear constraint a line with >= or =, the variable count in the header."""
import sys
import exact
path = sys.argv[1]
solver = exact.Exact()
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
for v in range(1, nvars + 1):
    solver.addVariable("x%d" % v)
for terms, op, k in cons:
    solver.addConstraint(terms, True, k, op == "=", k)
try:
    state = solver.runFull(False)
except RuntimeError as e:  # Exact turns a signal (SIGINT, SIGXCPU at a CPU limit) into this
    print("c exact stopped:", e)
    print("s UNKNOWN")
    sys.exit(0)
print("c exact state", state)
if solver.hasSolution():
    names = ["x%d" % v for v in range(1, nvars + 1)]
    vals = solver.getLastSolutionFor(names)
    print("s SATISFIABLE")
    print("v " + " ".join(n if b else "-" + n for n, b in zip(names, vals)))
elif state == "UNSAT" or state == "INCONSISTENT":
    print("s UNSATISFIABLE")
else:
    print("s UNKNOWN")
