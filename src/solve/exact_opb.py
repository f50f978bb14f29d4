"""Solves an OPB file with the Exact PB solver (PyPI package exact) and prints the answer in
the output format of the Pseudo-Boolean Competition (s and v lines): how queens-sat compare runs
Exact (python -c opb_read.py and this text, [proof-log=BASE] FILE.opb). With proof-log=BASE,
Exact logs its proof to BASE.proof (VeriPB's format 1.1) and the formula as it read it to
BASE.formula."""
import exact

options = [tuple(a.split("=", 1)) for a in sys.argv[1:-1]]
nvars, cons = read_opb(sys.argv[-1])
names = ["x%d" % v for v in range(1, nvars + 1)]
solver = exact.Exact([(k, v) for k, v in options if k == "proof-log"])
for name in names:
    solver.addVariable(name)
for terms, op, k in cons:
    solver.addConstraint(terms, True, k, op == "=", k)
try:
    state = solver.runFull(False)
except RuntimeError as e:  # Exact turns a signal (SIGINT, SIGXCPU at a CPU limit) into this
    print("c exact stopped:", e)
    print_answer(names, "UNKNOWN")
    sys.exit(0)
print("c exact state", state)
if solver.hasSolution():
    print_answer(names, solver.getLastSolutionFor(names))
elif state == "UNSAT" or state == "INCONSISTENT":
    print_answer(names, "UNSAT")
else:
    print_answer(names, "UNKNOWN")
del solver  # closes the proof log
