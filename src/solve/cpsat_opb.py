"""Solves an OPB file with CP-SAT (Google OR-Tools, PyPI package ortools) and prints the answer
in the output format of the Pseudo-Boolean Competition (s and v lines): how queens-sat compare
runs CP-SAT (python -c opb_read.py and this text, FILE.opb). One worker, like the other
solvers of a sweep, with the linear relaxation kept at every node of the search
(linearization_level 2), which refutes the hard Excluded Diagonals instances where the
default level does not (docs/experiments.md)."""
from ortools.sat.python import cp_model

nvars, cons = read_opb(sys.argv[1])
names = ["x%d" % v for v in range(1, nvars + 1)]
model = cp_model.CpModel()
x = {name: model.NewBoolVar(name) for name in names}
for terms, op, k in cons:
    lhs = sum(a * x[name] for a, name in terms)
    model.Add(lhs >= k if op == ">=" else lhs == k)
solver = cp_model.CpSolver()
solver.parameters.num_workers = 1
solver.parameters.linearization_level = 2
status = solver.Solve(model)
print("c cp-sat status", solver.StatusName(status))
if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
    print_answer(names, [solver.BooleanValue(x[name]) for name in names])
elif status == cp_model.INFEASIBLE:
    print_answer(names, "UNSAT")
else:
    print_answer(names, "UNKNOWN")
