"""Instance files, the literature's formats and the generators."""

import pytest

import queens_sat as qs


def test_instance_files_count_as_the_counter(data):
    files = sorted((data / "instances").glob("*.txt"))
    assert files
    for path in files:
        inst = qs.Instance.from_file(path)
        assert inst.source is not None
        assert inst.count() == inst.count_exact(), path.name


def test_literature_parameter_file(data):
    files = sorted((data / "csplib-prob079").rglob("*.param"))
    if not files:
        pytest.skip("no parameter files unpacked")
    inst = qs.Instance.from_file(files[0])
    assert inst.n >= 1


def test_generators_are_deterministic():
    a = qs.generate("blocked", 12, seed=7, params={"p": 0.2})
    b = qs.Instance.generate("blocked", 12, 7, {"p": 0.2})
    assert a.forbidden == b.forbidden and a.forbidden
    assert a.count() == a.count_exact()
    c = qs.generate("completion", 12, seed=3, params={"k": 4})
    assert len(c.placed) == 4 and c.solve() is not None
    t = qs.generate("toroidal", 7, seed=1)
    assert t.board == "toroidal"
    e = qs.generate("excluded-diagonals", 10, seed=2, params={"d": 5}, model="columns")
    assert e.count() == e.count_exact()
    assert qs.generate("blocked", 12, seed=8, params={"p": 0.2}).forbidden != a.forbidden
