"""Shared fixtures of the Python tests."""

from pathlib import Path

import pytest

#: The repository's instance files (tests/data/instances).
DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


@pytest.fixture
def data() -> Path:
    return DATA
