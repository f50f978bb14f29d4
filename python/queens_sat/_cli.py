"""``queens-sat-python sat [--backend NAME] FILE``: a DIMACS file solved by an embedded
solver, the answer in SAT-competition style (exit 10 SAT, 20 UNSAT). ``compare`` runs it as
its embedded solvers ``varisat`` and ``cadical-lib``, each run a process of its own."""

import sys

from ._queens_sat import sat_main


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: queens-sat-python sat [--backend varisat|cadical] FILE"
    if not args or args[0] != "sat":
        print(usage, file=sys.stderr)
        return 2
    args = args[1:]
    backend = "varisat"
    if len(args) == 3 and args[0] == "--backend":
        backend, args = args[1], args[2:]
    if len(args) != 1:
        print(usage, file=sys.stderr)
        return 2
    sys.stdout.flush()
    return sat_main(args[0], backend)


if __name__ == "__main__":
    sys.exit(main())
