"""compare's engines from Python: `search` and `propagator` run as processes of the
queens-sat-python script (`solve ... --engine E --format line`), every run measured, the CPU
and memory limits recorded. The oracles are the published numbers of solutions (OEIS A000170)
and a backtracking search written here."""

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import queens_sat as qs

#: Solutions of n-queens as published (OEIS A000170), for the sizes used here.
PUBLISHED = {3: 0, 6: 4, 8: 92}


def script() -> str:
    here = Path(sys.executable).parent / "queens-sat-python"
    found = str(here) if here.exists() else shutil.which("queens-sat-python")
    assert found, "the queens-sat-python script is installed with the package"
    return found


def run_script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([script(), *args], capture_output=True, text=True, timeout=120)


def attacks(cols, n, blocked=frozenset()):
    """What is wrong with the board `cols` (1-based columns, row by row), or None."""
    if len(cols) != n or any(not 1 <= c <= n for c in cols):
        return f"not a board of size {n}: {cols}"
    for r, c in enumerate(cols, 1):
        if (r, c) in blocked:
            return f"a queen on the blocked cell ({r},{c})"
        for r2, c2 in enumerate(cols[r:], r + 1):
            if c == c2 or abs(c - c2) == r2 - r:
                return f"queens at ({r},{c}) and ({r2},{c2}) attack each other"
    return None


def has_solution(n, blocked=frozenset()):
    """Whether n queens fit on the board without the blocked cells: plain backtracking."""
    def place(row, cols):
        if row > n:
            return True
        for c in range(1, n + 1):
            if (row, c) in blocked or c in cols:
                continue
            if any(abs(c - c2) == row - r2 for r2, c2 in enumerate(cols, 1)):
                continue
            if place(row + 1, cols + [c]):
                return True
        return False
    return place(1, [])


def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0


def test_engines_and_an_embedded_solver_solve_and_are_measured():
    rows = qs.compare([6, 8], amo="pairwise", solvers=["search", "propagator", "varisat"],
                      repeats=1, timeout=60)
    assert sorted((r["n"], r["solver"]) for r in rows) == sorted(
        (n, s) for n in (6, 8) for s in ("search", "propagator", "varisat"))
    for r in rows:
        expected = "SAT" if PUBLISHED[r["n"]] > 0 else "UNSAT"
        assert r["status"] == expected, r
        for column in ("wall_s", "cpu_s", "max_rss_mib"):
            assert is_number(r[column]), (column, r)
        assert r["cpu_limit_s"] is None and r["memory_limit_mib"] is None


def test_no_solution_for_three():
    assert PUBLISHED[3] == 0
    rows = qs.compare(3, amo="pairwise", solvers=["search", "propagator"], repeats=1,
                      timeout=60)
    assert {r["solver"]: r["status"] for r in rows} == {"search": "UNSAT",
                                                         "propagator": "UNSAT"}


@pytest.mark.parametrize("memory, mib", [("1G", 1024), (512 * 2**20, 512)])
def test_the_limits_are_recorded(memory, mib):
    rows = qs.compare(6, amo="pairwise", solvers=["search", "varisat"], repeats=1,
                      timeout=60, cpu_limit=5, memory_limit=memory)
    assert len(rows) == 2
    for r in rows:
        assert r["status"] == "SAT", r
        assert r["cpu_limit_s"] == 5
        assert r["memory_limit_mib"] == mib


@pytest.mark.parametrize("memory", ["lots", "", "0.5M", "-1G", 100, -5, 2**80])
def test_a_bad_memory_limit_is_a_value_error(memory):
    with pytest.raises(ValueError, match="memory_limit"):
        qs.compare(6, amo="pairwise", solvers="search", repeats=1, memory_limit=memory)


def test_a_memory_limit_of_another_type_is_a_type_error():
    for memory in (1.5e9, True, [1]):
        with pytest.raises(TypeError):
            qs.compare(6, amo="pairwise", solvers="search", repeats=1, memory_limit=memory)


@pytest.mark.parametrize("cpu", [0, -1, float("nan"), float("inf"), 1e9])
def test_a_bad_cpu_limit_is_a_value_error(cpu):
    with pytest.raises(ValueError, match="cpu_limit"):
        qs.compare(6, amo="pairwise", solvers="search", repeats=1, cpu_limit=cpu)


@pytest.mark.parametrize("engine", ["search", "propagator"])
@pytest.mark.parametrize("n", [3, 6, 8])
def test_the_script_solves_a_board(engine, n):
    args = ["solve", str(n), "--engine", engine, "--format", "line"]
    if engine == "search":
        args += ["--threads", "1"]
    done = run_script(*args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    if PUBLISHED[n] == 0:
        assert lines[0].startswith("no solution"), done.stdout
    else:
        assert len(lines) == 1, done.stdout
        assert attacks([int(c) for c in lines[0].split()], n) is None, lines[0]


def test_the_script_solves_an_instance_file(data):
    path = data / "instances" / "blocked-10-p0.25-s13.txt"
    blocked = set()
    n = None
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["n"]:
            n = int(words[1])
        if words[:1] == ["blocked"]:
            blocked |= {tuple(int(x) for x in cell.split(",")) for cell in words[1:]}
    assert n == 10 and blocked
    for engine in ("search", "propagator"):
        options = [] if engine == "search" else ["--solver-option=seed=1"]
        done = run_script("solve", "--instance", str(path), "--engine", engine,
                          "--format", "line", *options)
        assert done.returncode == 0, done.stderr
        line = done.stdout.splitlines()[0]
        if has_solution(n, frozenset(blocked)):
            assert attacks([int(c) for c in line.split()], n, frozenset(blocked)) is None, line
        else:
            assert line.startswith("no solution"), line


@pytest.mark.parametrize("args", [
    [],
    ["solve"],
    ["solve", "8"],
    ["solve", "8", "--engine", "search"],
    ["solve", "8", "--engine", "sat", "--format", "line"],
    ["solve", "8", "--engine", "search", "--format", "board"],
    ["solve", "0", "--engine", "search", "--format", "line"],
    ["solve", "-3", "--engine", "search", "--format", "line"],
    ["solve", "8", "--engine", "search", "--format", "line", "--threads", "0"],
    ["solve", "8", "--engine", "search", "--format", "line", "--solver-option=elim=0"],
    ["solve", "8", "--engine", "propagator", "--format", "line", "--solver-option=nosuch=1"],
    ["solve", "8", "--engine", "propagator", "--format", "line", "--solver-option=elim"],
    ["solve", "8", "--engine", "search", "--format", "line", "--all"],
    ["solve", "--instance", "/nonexistent/q.txt", "--engine", "search", "--format", "line"],
    ["solve", "8", "--engine"],
    ["sat"],
    ["sat", "--backend", "nosuch", "f.cnf"],
])
def test_the_script_refuses_a_bad_argument(args):
    done = run_script(*args)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
