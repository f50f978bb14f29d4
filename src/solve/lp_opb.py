"""The linear relaxation of an OPB file, solved by HiGHS through SciPy (PyPI package scipy):
how queens-sat compare runs the solver `lp` (python -c opb_read.py and this text, FILE.opb).
Every variable is relaxed to the interval [0, 1]. An infeasible relaxation refutes the formula
(no 0/1 solution either): the answer is `s UNSATISFIABLE`. A feasible one decides nothing:
`s UNKNOWN` (the relaxation implies every argument made of linear combinations of the
constraints, so every such argument fails on this formula)."""
from scipy.optimize import linprog
from scipy.sparse import coo_matrix

nvars, cons = read_opb(sys.argv[1])
names = ["x%d" % v for v in range(1, nvars + 1)]
rows = {"=": ([], [], [], []), ">=": ([], [], [], [])}
for terms, op, k in cons:
    r, c, d, b = rows[op]
    i = len(b)
    for a, name in terms:
        r.append(i)
        c.append(int(name[1:]) - 1)
        # linprog takes A_ub x <= b_ub: a >= constraint is negated.
        d.append(a if op == "=" else -a)
    b.append(k if op == "=" else -k)


def matrix(op):
    r, c, d, b = rows[op]
    if not b:
        return None, None
    return coo_matrix((d, (r, c)), shape=(len(b), max(nvars, 1))).tocsr(), b


a_eq, b_eq = matrix("=")
a_ub, b_ub = matrix(">=")
res = linprog(
    [0] * max(nvars, 1), A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=(0, 1), method="highs"
)
print("c lp status", res.status, res.message)
if res.status == 2:
    print_answer(names, "UNSAT")
else:
    # 0: feasible (nothing decided); anything else: HiGHS stopped without an answer.
    print_answer(names, "UNKNOWN")
