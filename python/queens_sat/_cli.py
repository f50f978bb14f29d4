"""``queens-sat-python``: what ``compare`` runs from Python as child processes, each a process
of its own, printing what ``queens-sat`` prints for the same arguments.

``queens-sat-python sat [--backend NAME] [--solver-option=NAME=VALUE]... FILE``: a DIMACS file
solved by an embedded solver, the answer in SAT-competition style (exit 10 SAT, 20 UNSAT); the
solvers ``varisat`` and ``cadical-lib``.

``queens-sat-python solve (N | --instance FILE) --engine search|propagator --format line
[--threads K] [--solver-option=NAME=VALUE]...``: the board solved by an engine, the solution's
one-line form (``4 1 5 2 6 3``) or a line starting ``no solution`` (exit 0); the solvers
``search`` and ``propagator``.

A bad argument: one line on standard error, exit 2."""

import sys

from ._queens_sat import sat_main, solve_main

SAT_USAGE = ("usage: queens-sat-python sat [--backend varisat|cadical] "
             "[--solver-option=NAME=VALUE]... FILE")


def _sat(args) -> int:
    backend = "varisat"
    options = []
    files = []
    rest = iter(args)
    for a in rest:
        if a == "--backend":
            backend = next(rest, None)
            if backend is None:
                return _usage("--backend needs a value")
        elif a.startswith("--backend="):
            backend = a.split("=", 1)[1]
        elif a == "--solver-option":
            o = next(rest, None)
            if o is None:
                return _usage("--solver-option needs a value")
            options.append(o)
        elif a.startswith("--solver-option="):
            options.append(a.split("=", 1)[1])
        elif a.startswith("--"):
            return _usage(f"unknown option '{a}'")
        else:
            files.append(a)
    if len(files) != 1:
        return _usage("give one DIMACS file")
    return sat_main(files[0], backend, options)


def _usage(message: str, usage: str = SAT_USAGE) -> int:
    print(f"error: {message}; {usage}" if usage else f"error: {message}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else None
    if command not in ("sat", "solve"):
        return _usage("give a command: `sat FILE` (an embedded solver on a DIMACS file) or "
                      "`solve N --engine E --format line` (an engine on a board)", "")
    sys.stdout.flush()
    try:
        if command == "sat":
            code = _sat(args[1:])
        else:
            code = solve_main(args[1:])
    except KeyboardInterrupt:
        return 130
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
