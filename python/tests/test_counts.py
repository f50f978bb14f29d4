"""Counts against the published table, by every route: the counter, enumeration with the
embedded solvers, symmetry breaking, the masked counter."""

import pytest

import queens_sat as qs

# OEIS A002562: fundamental solutions, n = 1..10.
FUNDAMENTAL = (1, 0, 0, 1, 2, 1, 6, 12, 46, 92)


def test_published_table():
    assert qs.PUBLISHED_COUNTS == (1, 0, 0, 2, 10, 4, 40, 92, 352, 724)


@pytest.mark.parametrize("n", range(1, 11))
def test_counter(n):
    c = qs.counts(n)
    assert c["total"] == qs.PUBLISHED_COUNTS[n - 1]
    assert c["fundamental"] == FUNDAMENTAL[n - 1]
    k = c["classes"]
    assert 8 * k[8] + 4 * k[4] + 2 * k[2] + k[1] == c["total"]
    assert qs.count(n) == c["total"]
    assert qs.fundamental(n) == c["fundamental"]


@pytest.mark.parametrize("n", range(1, 11))
@pytest.mark.parametrize("backend", qs.backends())
def test_enumeration(n, backend):
    inst = qs.Instance(n)
    assert inst.count(backend=backend) == qs.PUBLISHED_COUNTS[n - 1]
    assert inst.count_exact() == qs.PUBLISHED_COUNTS[n - 1]


@pytest.mark.parametrize("n", range(1, 9))
def test_solutions_iterator(n):
    inst = qs.Instance(n, amo="sequential")
    sols = list(inst.solutions())
    assert len(sols) == qs.PUBLISHED_COUNTS[n - 1]
    assert len({tuple(s) for s in sols}) == len(sols)
    assert all(qs.check(s) is None and len(s) == n for s in sols)
    assert list(inst.solutions(limit=1)) == sols[:1]
    assert sols == list(inst.solutions(threads=1))


def test_symmetry_breaking_counts_classes():
    assert qs.Instance(8, symmetry_breaking="lex-leader").count() == 12
    assert qs.Instance(10, symmetry_breaking="lex-leader").count() == 92


def test_larger_counts():
    assert qs.count(12) == 14200
    assert qs.Instance(12).count() == 14200


@pytest.mark.parametrize("n", [1, 4, 5, 8, 9, 50, 1000])
def test_solve_and_construct(n):
    board = qs.Instance(n).solve() if n <= 50 else qs.construct(n)
    assert board is not None and len(board) == n and qs.check(board) is None
    for method in ("hlm", "staircase"):
        b = qs.construct(n, method)
        assert qs.check(b) is None


@pytest.mark.parametrize("n", [2, 3])
def test_no_solution(n):
    assert qs.Instance(n).solve() is None
    assert qs.construct(n) is None
    assert list(qs.Instance(n).solutions()) == []


def test_check_names_the_attack():
    assert qs.check([1, 3, 5, 2, 4]) is None
    assert "share a" in qs.check([1, 2, 3, 4])
    assert qs.check([1, 3], board_geometry="toroidal") is not None


def test_placed_and_forbidden_cells():
    corner = qs.Instance(8, place=[(1, 1)])
    assert corner.count() == 4
    assert corner.placed == [(1, 1)]
    board = corner.solve()
    assert board[0] == 1 and corner.check(board) is None
    blocked = qs.Instance(8, forbid=[(1, 1)])
    assert blocked.count() == 92 - 4
    assert "forbidden" in blocked.check(board) or blocked.check(board) is not None


def test_toroidal():
    # Toroidal n-queens has solutions exactly when n is coprime to 6.
    assert qs.Instance(5, board="toroidal").count() == 10
    assert qs.Instance(6, board="toroidal").count() == 0
