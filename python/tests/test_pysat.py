"""The clauses in PySAT: every model and encoding of the catalogue solved by PySAT's CaDiCaL
and Glucose, their models decoded and checked, the projection against PySAT's enumeration."""

import numpy
import pytest

import queens_sat as qs

pysat_solvers = pytest.importorskip("pysat.solvers")
from pysat.formula import CNF  # noqa: E402

MODELS = qs.catalogue_models()
SOLVERS = ["cadical153", "glucose4"]


def kwargs(m):
    return {k: v for k, v in m.items() if k != "label"}


def test_catalogue_is_complete():
    labels = [m["label"] for m in MODELS]
    assert len(labels) == len(set(labels))
    assert {m["model"] for m in MODELS} == {"cells", "columns"}
    amos = {m.get("amo") for m in MODELS if m["model"] == "cells"}
    assert amos == set(qs.amo_encodings())


@pytest.mark.parametrize("m", MODELS, ids=lambda m: m["label"])
@pytest.mark.parametrize("solver", SOLVERS)
def test_pysat_solves_and_decodes(m, solver):
    for n in (1, 3, 8):
        inst = qs.Instance(n, **kwargs(m))
        assert inst.model == m["label"]
        cnf = inst.to_pysat()
        assert isinstance(cnf, CNF)
        assert cnf.nv == inst.nv and len(cnf.clauses) == inst.num_clauses
        with pysat_solvers.Solver(name=solver, bootstrap_with=cnf.clauses) as s:
            sat = s.solve()
            assert sat == (n != 3)
            if sat:
                board = inst.decode(s.get_model())
                assert len(board) == n
                assert qs.check(board) is None
                assert inst.check(board) is None


@pytest.mark.parametrize("m", MODELS, ids=lambda m: m["label"])
def test_projection_against_pysat_enumeration(m):
    # n = 6 has 4 solutions; with a pre-placed queen and a forbidden cell, 1 or 2.
    for inst in (
        qs.Instance(6, **kwargs(m)),
        qs.Instance(7, place=[(1, 2)], forbid=[(2, 4)], **kwargs(m)),
    ):
        proj = inst.projection
        assert all(1 <= v <= inst.nv for v in proj)
        boards = set()
        with pysat_solvers.Solver(name="cadical153", bootstrap_with=inst.clauses) as s:
            while s.solve():
                model = s.get_model()
                boards.add(tuple(inst.decode(model)))
                # Block this model's projection only: the auxiliaries may take any value.
                s.add_clause([-model[v - 1] for v in proj])
                assert len(boards) <= 100
        assert boards == {tuple(b) for b in inst.solutions()}
        assert len(boards) == inst.count_exact()


def test_names_and_projection():
    inst = qs.Instance(8, amo="sequential")
    assert inst.name(1) == "q(1,1)"
    assert inst.name(2 * 8 + 3) == "q(3,3)"
    assert inst.projection == list(range(1, 65))
    assert inst.nv > 64
    aux = inst.name(65)
    assert aux and not aux.startswith("q(")
    cols = qs.Instance(8, "columns", domain="order")
    assert len(cols.projection) == 8 * 7


def test_clause_array_without_copy():
    inst = qs.Instance(10, amo="commander")
    flat = inst.clauses_array()
    assert flat.dtype == numpy.int32
    assert not flat.flags.writeable
    expected = [lit for c in inst.clauses for lit in c + [0]]
    assert flat.tolist() == expected
    assert int((flat == 0).sum()) == inst.num_clauses
    buf = inst.clause_buffer()
    view = memoryview(buf)
    assert view.format == "i" and view.itemsize == 4 and len(view) == len(buf)
    assert buf.num_clauses == inst.num_clauses
    # The array shares the buffer's memory: its base is the buffer object.
    assert flat.base is not None


def test_dimacs_file_round_trip(tmp_path):
    inst = qs.Instance(6, amo="product", place=[(1, 2)])
    path = tmp_path / "q6.cnf"
    inst.to_dimacs(path)
    cnf = CNF(from_file=str(path))
    assert cnf.nv == inst.nv
    assert cnf.clauses == inst.clauses
    assert inst.dimacs().startswith("c t mc\n")
    assert "c p show" in qs.Instance(6, amo="sequential").dimacs()
    g = qs.grade(path, 6)
    # The pre-placed queen makes it incomplete as an encoding of 6-queens, but sound.
    assert g["sound"] and not g["complete"] and g["missing_count"] == 3
    qs.Instance(6).to_dimacs(path)
    g = qs.grade(path, 6)
    assert g["right"] and g["projected"] == 4 == g["expected"]


@pytest.mark.parametrize("redundant", ["moments", "permutation,diagonals,sums,moments"])
def test_redundant_constraints_keep_the_solutions(redundant):
    # The same boards as without them, by PySAT's enumeration over the projection (n = 6
    # has 4 solutions; the torus of n = 5 has 10), on both models.
    for model in ("cells", "columns"):
        for n, board in ((6, "square"), (5, "toroidal")):
            plain = qs.Instance(n, model, board=board)
            inst = qs.Instance(n, model, board=board, redundant=redundant)
            assert inst.num_clauses > plain.num_clauses
            found = []
            for i in (plain, inst):
                boards = set()
                with pysat_solvers.Solver(name="cadical153", bootstrap_with=i.clauses) as s:
                    while s.solve():
                        model_ = s.get_model()
                        board_ = i.decode(model_)
                        assert i.check(board_) is None
                        boards.add(tuple(board_))
                        s.add_clause([-model_[v - 1] for v in i.projection])
                found.append(boards)
            assert found[0] == found[1] and len(found[0]) == (4 if n == 6 else 10)


def test_unknown_redundant_constraint_is_a_value_error():
    with pytest.raises(ValueError, match="unknown redundant constraint 'moment'"):
        qs.Instance(8, redundant="moment")
