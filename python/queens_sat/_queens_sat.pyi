"""Type hints of the native module of queens_sat (see the package's docstrings)."""

import os
from typing import Any, Iterator, Optional, Sequence, Union

_Path = Union[str, os.PathLike]
_Cell = tuple[int, int]

class Instance:
    """An n-queens SAT instance: board size, model and encoding, pre-placed queens and
    forbidden cells, symmetry breaking. Cells and columns are 1-based; variables are DIMACS
    numbers (the cell of row r, column c is (r - 1) * n + c; auxiliary variables follow)."""

    def __init__(
        self,
        n: int,
        model: str = "cells",
        *,
        amo: Optional[str] = None,
        column_alo: bool = False,
        domain: Optional[str] = None,
        constraints: Optional[str] = None,
        redundant: Optional[str] = None,
        place: Optional[Sequence[_Cell]] = None,
        forbid: Optional[Sequence[_Cell]] = None,
        board: Optional[str] = None,
        symmetry_breaking: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def from_file(
        path: _Path,
        model: str = "cells",
        *,
        amo: Optional[str] = None,
        column_alo: bool = False,
        domain: Optional[str] = None,
        constraints: Optional[str] = None,
        redundant: Optional[str] = None,
        place: Optional[Sequence[_Cell]] = None,
        forbid: Optional[Sequence[_Cell]] = None,
        symmetry_breaking: Optional[str] = None,
        diagonals: Optional[int] = None,
    ) -> "Instance": ...
    @staticmethod
    def generate(
        family: str,
        n: int,
        seed: int = 1,
        params: Optional[dict[str, Any]] = None,
        model: str = "cells",
        *,
        amo: Optional[str] = None,
        column_alo: bool = False,
        domain: Optional[str] = None,
        constraints: Optional[str] = None,
        redundant: Optional[str] = None,
        symmetry_breaking: Optional[str] = None,
    ) -> "Instance": ...
    @property
    def n(self) -> int: ...
    @property
    def nv(self) -> int: ...
    @property
    def num_clauses(self) -> int: ...
    @property
    def size(self) -> dict[str, int]: ...
    @property
    def model(self) -> str: ...
    @property
    def board(self) -> str: ...
    @property
    def source(self) -> Optional[str]: ...
    @property
    def placed(self) -> list[_Cell]: ...
    @property
    def forbidden(self) -> list[_Cell]: ...
    @property
    def clauses(self) -> list[list[int]]: ...
    @property
    def projection(self) -> list[int]: ...
    def describe(self) -> str: ...
    def clause_buffer(self) -> "ClauseBuffer": ...
    def clauses_array(self) -> Any:
        """numpy.ndarray of int32: the literals, each clause ended by 0 (no copy)."""
    def to_pysat(self) -> Any:
        """pysat.formula.CNF of the formula."""
    def name(self, var: int) -> str: ...
    def decode(self, model: Sequence[int]) -> list[int]: ...
    def check(self, board: Sequence[int]) -> Optional[str]: ...
    def to_dimacs(self, path: _Path) -> None: ...
    def dimacs(self) -> str: ...
    def solve(
        self, time_limit: Optional[float] = None, backend: Optional[str] = None
    ) -> Optional[list[int]]: ...
    def solutions(
        self,
        time_limit: Optional[float] = None,
        backend: Optional[str] = None,
        threads: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> "Solutions": ...
    def count(
        self,
        time_limit: Optional[float] = None,
        backend: Optional[str] = None,
        threads: Optional[int] = None,
    ) -> int: ...
    def count_exact(self) -> int: ...

class ClauseBuffer:
    """The clauses as a read-only buffer of int32 DIMACS literals, each clause ended by 0."""

    @property
    def num_clauses(self) -> int: ...
    def __len__(self) -> int: ...
    def __buffer__(self, flags: int) -> memoryview: ...

class Solutions(Iterator[list[int]]):
    """The solutions of an instance, 1-based columns each."""

    def __iter__(self) -> "Solutions": ...
    def __next__(self) -> list[int]: ...

def counts(n: int, threads: Optional[int] = None) -> dict[str, Any]: ...
def construct(n: int, method: str = "hlm") -> Optional[list[int]]: ...
def check(board: Sequence[int], board_geometry: str = "square") -> Optional[str]: ...
def grade(path: _Path, n: int, cells: Optional[str] = None) -> dict[str, Any]: ...
def catalogue_models() -> list[dict[str, str]]: ...
def amo_encodings() -> list[str]: ...
def backends() -> list[str]: ...
def library_version() -> str: ...
def compare_rows(
    ns: Sequence[int],
    models: Sequence[str],
    amo: Sequence[str],
    column_alo: bool,
    symmetry_breaking: Sequence[str],
    solvers: Sequence[str],
    repeats: int,
    timeout: float,
    family: Optional[str],
    params: Sequence[str],
    seeds: Optional[str],
    instances: Sequence[_Path],
    diagonals: Optional[int],
    shuffle: int,
    program: Optional[_Path],
    cpu_limit: Optional[float] = None,
    memory_limit: Optional[Union[int, str]] = None,
) -> tuple[list[str], list[list[Any]], str, str]: ...
def sat_main(path: _Path, backend: str, options: Sequence[str] = ...) -> int: ...
def solve_main(args: Sequence[str]) -> int: ...
