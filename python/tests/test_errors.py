"""Bad input raises ValueError with the library's message, files OSError, time limits
TimeoutError, and Ctrl-C KeyboardInterrupt."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import queens_sat as qs


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: qs.Instance(0), "at least 1"),
        (lambda: qs.Instance(8, model="nope"), "unknown model"),
        (lambda: qs.Instance(8, amo="nope"), "nope"),
        (lambda: qs.Instance(8, domain="order"), "domain"),
        (lambda: qs.Instance(8, "columns", column_alo=True), "column"),
        (lambda: qs.Instance(8, place=[(9, 1)]), "outside"),
        (lambda: qs.Instance(8, place=[(0, 1)]), "1-based"),
        (lambda: qs.Instance(8, place=[(1, 1), (2, 2)]), "share"),
        (lambda: qs.Instance(8, place=[(1, 1)], forbid=[(1, 1)]), "both"),
        (lambda: qs.Instance(8, board="round"), "round"),
        (lambda: qs.Instance(8, symmetry_breaking="all"), "symmetry"),
        (lambda: qs.Instance(8).name(0), "outside"),
        (lambda: qs.Instance(8).name(65), "outside"),
        (lambda: qs.Instance(8).solve(backend="glucose"), "backend"),
        (lambda: qs.Instance(8).solve(time_limit=-1), "time_limit"),
        (lambda: qs.Instance(4).decode([]), "no queen"),
        (lambda: qs.check([0, 1]), "1-based"),
        (lambda: qs.counts(0), "at least 1"),
        (lambda: qs.counts(33), "too large"),
        (lambda: qs.construct(8, "magic"), "magic"),
        (lambda: qs.generate("nope", 8), "unknown family"),
        (lambda: qs.generate("blocked", 8, params={"q": 1}), "no parameter"),
        (lambda: qs.generate("blocked", 8, params={"p": 2}), "p"),
        (lambda: qs.compare(8, models="nope", solvers="cadical"), "nope"),
    ],
)
def test_value_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: qs.Instance(8, "columns", column_alo=True), "column_alo belongs to the cell model \\(model cells\\)"),
        (lambda: qs.Instance(8, "columns", domain="log", amo="sequential"), "amo sequential is unknown to the log domain"),
    ],
)
def test_messages_name_options_in_the_library_terms(make, message):
    """No command-line flag in what a Python caller reads: the options by their keywords."""
    with pytest.raises(ValueError, match=message) as raised:
        make()
    assert "--" not in str(raised.value)


HUGE = 2**70


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: qs.Instance(-3), "n must be a positive integer, got '-3'"),
        (lambda: qs.Instance(HUGE), f"n = {HUGE} is too large"),
        (lambda: qs.Instance(8, place=[(-1, 2)]), "placed cell \\(-1,2\\): rows and columns are 1-based"),
        (lambda: qs.Instance(8, forbid=[(1, -2)]), "forbidden cell \\(1,-2\\): rows and columns are 1-based"),
        (lambda: qs.Instance(8, place=[(HUGE, 1)]), "outside every board"),
        (lambda: qs.Instance(8).name(-1), "variable -1 is outside 1..=64"),
        (lambda: qs.Instance(8).name(HUGE), "is outside 1..=64"),
        (lambda: qs.Instance(8).decode([HUGE]), "not a literal of 64 variables"),
        (lambda: qs.Instance(8).check([-1] * 8), "row 1: column -1 is not a 1-based column"),
        (lambda: qs.check([HUGE, 1]), "row 1: column .* is not a 1-based column"),
        (lambda: qs.Instance(8).solutions(threads=-1), "threads = -1"),
        (lambda: qs.Instance(8).solutions(limit=-1), "limit = -1"),
        (lambda: qs.Instance(8).count(threads=HUGE), "threads = .* is too large"),
        (lambda: qs.counts(-1), "n must be a positive integer"),
        (lambda: qs.counts(8, threads=-1), "threads = -1"),
        (lambda: qs.count(-5), "n must be a positive integer"),
        (lambda: qs.construct(-8), "n must be a positive integer"),
        (lambda: qs.construct(HUGE), "too large"),
        (lambda: qs.grade("no-such-file.cnf", -4), "n must be a positive integer"),
        (lambda: qs.Instance.generate("blocked", -8), "n must be a positive integer"),
        (lambda: qs.generate("blocked", 8, -1), "seed = -1"),
        (lambda: qs.generate("blocked", 8, HUGE), "seed = .* is too large"),
        (lambda: qs.Instance.from_file("no-such-file.txt", diagonals=-1), "diagonals = -1"),
        (lambda: qs.compare(-8, solvers="cadical"), "n must be a positive integer"),
        (lambda: qs.compare(8, solvers="cadical", repeats=-1), "repeats = -1"),
        (lambda: qs.compare(8, solvers="cadical", shuffle=-1), "shuffle = -1"),
        (lambda: qs.compare(8, solvers="cadical", diagonals=-1), "diagonals = -1"),
    ],
)
def test_negative_and_huge_integers_are_value_errors(make, message):
    """A negative or huge int raises ValueError with a message, not pyo3's OverflowError."""
    with pytest.raises(ValueError, match=message):
        make()


def test_integers_of_other_types():
    """Integers of other types (NumPy's, bool) are read as Python reads them; what is not an
    integer raises TypeError, as in Python's own functions."""
    import numpy

    assert qs.Instance(numpy.int64(8)).n == 8
    assert qs.counts(numpy.int32(8))["total"] == 92
    assert qs.check([numpy.int64(c) for c in (2, 4, 1, 3)]) is None
    assert qs.Instance(4, place=[(numpy.int64(1), 2)]).count() == 1
    for bad in (8.0, "8", None):
        with pytest.raises(TypeError):
            qs.Instance(bad)


def test_file_errors(tmp_path):
    with pytest.raises(OSError, match="cannot open"):
        qs.Instance.from_file(tmp_path / "missing.txt")
    with pytest.raises(OSError):
        qs.grade(tmp_path / "missing.cnf", 4)
    bad = tmp_path / "bad.txt"
    bad.write_text("queens-sat instance 1\nn many\nend\n")
    with pytest.raises(ValueError, match="bad.txt"):
        qs.Instance.from_file(bad)
    notcnf = tmp_path / "x.cnf"
    notcnf.write_text("hello\n")
    with pytest.raises(ValueError, match="DIMACS"):
        qs.grade(notcnf, 4)
    with pytest.raises(OSError):
        qs.Instance(4).to_dimacs(tmp_path / "no" / "such" / "dir.cnf")


def test_time_limit():
    with pytest.raises(TimeoutError, match="time limit"):
        qs.Instance(60).solve(time_limit=0)
    with pytest.raises(TimeoutError):
        qs.Instance(14).count(time_limit=0)
    with pytest.raises(TimeoutError):
        list(qs.Instance(14).solutions(time_limit=0))
    # The library's flags are clean afterwards.
    assert qs.Instance(8).count() == 92


CHILD = textwrap.dedent(
    """
    import sys, queens_sat as qs
    work = {
        "count": lambda: qs.Instance(17).count(),
        "counter": lambda: qs.counts(19),
        "solutions": lambda: sum(1 for _ in qs.Instance(17).solutions()),
        "solve": lambda: qs.Instance(300, amo="sequential").solve(),
    }[sys.argv[1]]
    print("ready", flush=True)
    try:
        work()
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    # The next call runs normally.
    print(qs.Instance(8).count(), flush=True)
    """
)


@pytest.mark.parametrize("what", ["count", "counter", "solutions", "solve"])
def test_ctrl_c_raises_keyboard_interrupt(what):
    p = subprocess.Popen(
        [sys.executable, "-c", CHILD, what],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(1.5)
        start = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        stopped = time.monotonic() - start
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert out.split() == ["interrupted", "92"], (out, err)
    assert stopped < 20
