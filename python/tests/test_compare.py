"""Experiments as data: compare's rows as dicts and as a DataFrame with the CSV's columns."""

import shutil

import pytest

import queens_sat as qs


def test_compare_rows_and_frame():
    rows, text = qs.compare([6, 8], amo="pairwise,sequential", solvers="varisat",
                            repeats=1, timeout=30, report=True)
    assert len(rows) == 4
    assert {r["encoding"] for r in rows} == {"pairwise", "sequential"}
    assert all(r["status"] == "SAT" and r["solve_ms"] >= 0 for r in rows)
    assert rows[0]["n"] == 6 and isinstance(rows[0]["clauses"], int)
    assert rows[0]["vars"] == 36 and rows[0]["clauses"] == qs.Instance(6).num_clauses
    assert "pairwise" in text
    pandas = pytest.importorskip("pandas")
    df = qs.compare(8, amo="binary", models="cells,order", solvers="varisat", repeats=1,
                    timeout=30, dataframe=True)
    assert isinstance(df, pandas.DataFrame)
    assert list(df.columns) == list(rows[0].keys())
    assert len(df) == 2


def test_compare_family_sweep():
    if shutil.which("cadical") is None:
        pytest.skip("cadical is not installed")
    rows = qs.compare([10], family="blocked", params={"p": "0.1,0.3"}, seeds="1..2",
                      solvers="cadical", amo="pairwise", repeats=1, timeout=30)
    assert len(rows) == 4
    assert {r["value"] for r in rows} == {"0.1", "0.3"}
    assert all(r["status"] in ("SAT", "UNSAT") for r in rows)
