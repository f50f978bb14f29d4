"""queens-sat from Python: SAT encodings of the n-queens problem.

The instance and its encodings come from the same Rust library as the ``queens-sat`` command
line: ``Instance(8, amo="sequential")`` gives the clauses (``instance.clauses``, or a NumPy
array without copying), the variables' names, the projection, a PySAT ``CNF``
(``to_pysat()``), a DIMACS file (``to_dimacs(path)``), and decodes models into boards. It
solves, enumerates and counts in-process with the GIL released; Ctrl-C raises
``KeyboardInterrupt``. The counter (``count``, ``fundamental``, ``counts``), the constructor
(``construct``), the solution check (``check``), grading of DIMACS files (``grade``) and the
experiments (``compare``) are functions of the package.

Cells and columns are 1-based everywhere, as in the command line; a board is a list of the
columns of the rows' queens. Bad arguments raise ``ValueError`` with the library's message
(negative and huge integers too), unreadable files ``OSError``, time limits ``TimeoutError``.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

from ._queens_sat import (
    ClauseBuffer,
    Instance,
    Solutions,
    amo_encodings,
    backends,
    catalogue_models,
    check,
    construct,
    counts,
    grade,
    library_version,
)
from . import _queens_sat

__all__ = [
    "Instance",
    "ClauseBuffer",
    "Solutions",
    "amo_encodings",
    "backends",
    "catalogue_models",
    "check",
    "compare",
    "construct",
    "count",
    "counts",
    "fundamental",
    "generate",
    "grade",
    "library_version",
    "PUBLISHED_COUNTS",
]

__version__ = "0.1.0"

#: The number of solutions of n-queens for n = 1..10 (OEIS A000170), as published.
PUBLISHED_COUNTS = (1, 0, 0, 2, 10, 4, 40, 92, 352, 724)


def count(n: int, threads: Optional[int] = None) -> int:
    """The number of solutions of n-queens (1 <= n <= 32), by the counter: a bitboard search
    over the symmetry classes, no SAT solver. Ctrl-C raises KeyboardInterrupt."""
    return counts(n, threads)["total"]


def fundamental(n: int, threads: Optional[int] = None) -> int:
    """The number of fundamental solutions of n-queens: classes under the 8 symmetries of the
    square (OEIS A002562), by the counter."""
    return counts(n, threads)["fundamental"]


def generate(family: str, n: int, seed: int = 1, params: Optional[dict] = None,
             model: str = "cells", **options: Any) -> Instance:
    """An instance drawn from a family with a seed: ``Instance.generate`` (see there)."""
    return Instance.generate(family, n, seed, params, model, **options)


#: The solvers of ``compare`` that run as processes of the ``queens-sat-python`` script: the
#: embedded SAT solvers (``sat FILE``) and the engines (``solve N --engine E``).
_SCRIPT_SOLVERS = ("varisat", "cadical-lib", "kissat-lib", "search", "propagator")


def _program() -> Optional[str]:
    """The ``queens-sat-python`` script installed with the package (it runs ``sat FILE`` and
    ``solve N --engine search|propagator``)."""
    name = "queens-sat-python"
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    return shutil.which(name)


def compare(n: Union[int, Sequence[int]] = (8, 16, 32), *,
            models: Union[str, Sequence[str]] = "cells",
            amo: Union[str, Sequence[str]] = "pairwise,sequential,commander,product,binary",
            column_alo: bool = False,
            symmetry_breaking: Union[str, Sequence[str]] = "none",
            solvers: Union[str, Sequence[str]] = "varisat",
            repeats: int = 3,
            timeout: float = 60.0,
            family: Optional[str] = None,
            params: Optional[dict] = None,
            seeds: Optional[str] = None,
            instances: Sequence[Union[str, os.PathLike]] = (),
            diagonals: Optional[int] = None,
            shuffle: int = 0,
            cpu_limit: Optional[float] = None,
            memory_limit: Optional[Union[int, str]] = None,
            program: Optional[Union[str, os.PathLike]] = None,
            dataframe: bool = False,
            report: bool = False):
    """Runs a sweep as ``queens-sat compare`` does and returns its rows: a list of dicts with
    the CSV's columns (``n``, ``encoding``, ``solver``, ``vars``, ``clauses``, ``status``,
    ``solve_ms``, ...), or a pandas DataFrame with ``dataframe=True``.

    ``models`` and ``amo`` are as ``--models`` and ``--amo`` (names separated by commas, or
    lists); ``solvers`` as ``--solver``: ``varisat`` and ``cadical-lib`` are the embedded
    solvers and ``search`` and ``propagator`` the engines of ``solve --engine``, each run a
    process of the ``queens-sat-python`` script installed with the package (``program`` names
    another program with its ``sat`` and ``solve`` commands, such as the ``queens-sat``
    binary); any other name is a solver command on PATH (``cadical``, ``kissat``). ``family``,
    ``params`` ({name: "values"}, as ``--param name=values``) and ``seeds`` (``"1..10"``)
    sweep a family instead of empty boards; ``instances`` solves instance files.

    Every run is measured as ``compare`` measures it (the columns ``wall_s``, ``cpu_s``,
    ``max_rss_mib``: the solver and every process it starts) and bounded by ``timeout``
    (seconds of wall-clock time), ``cpu_limit`` (seconds of CPU time, as ``--cpu-limit``; a run
    past it is a TIMEOUT row) and ``memory_limit`` (as ``--memory-limit``: a size such as
    ``"512M"`` or ``"2G"``, or a number of bytes; a run past it is a MEMOUT row); the rows
    record the limits (``cpu_limit_s``, ``memory_limit_mib``). A bad limit raises
    ValueError.

    With ``report=True`` the return value is ``(rows, text)``, ``text`` the table the command
    prints. Plots stay the command line's.
    """

    def names(v):
        return [v] if isinstance(v, str) else list(v)

    ns = [n] if isinstance(n, int) else list(n)
    solver_names = names(solvers)
    # A solver's name may carry options after it ("cadical-lib elim=0").
    if program is None and any((s.split() or [""])[0] in _SCRIPT_SOLVERS for s in solver_names):
        program = _program()
        if program is None:
            raise OSError("the queens-sat-python script is not installed: give program=")
    columns, rows, table, notes = _queens_sat.compare_rows(
        ns,
        [m.strip() for v in names(models) for m in v.split(",") if m.strip()],
        names(amo),
        column_alo,
        [m.strip() for v in names(symmetry_breaking) for m in v.split(",") if m.strip()],
        solver_names,
        repeats,
        float(timeout),
        family,
        [f"{k}={v}" for k, v in (params or {}).items()],
        seeds,
        [Path(p) for p in instances],
        diagonals,
        shuffle,
        None if program is None else Path(program),
        cpu_limit,
        memory_limit,
    )
    records = [dict(zip(columns, r)) for r in rows]
    result: Any = records
    if dataframe:
        import pandas

        result = pandas.DataFrame.from_records(records, columns=columns)
    if report:
        return result, table + notes
    return result
