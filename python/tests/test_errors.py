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
