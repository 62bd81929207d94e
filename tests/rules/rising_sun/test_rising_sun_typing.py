"""The Rising Sun engine passes `mypy --strict`, so its decision table holds to the
kit's typed roles (`Decision[State]`: pending, legal, decide, default) and the typed
state in state.py keeps describing what the code does."""

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

PACKAGE = Path(__file__).resolve().parents[3] / "games" / "rules" / "rising_sun"


def test_mypy_strict_passes(tmp_path):
    out, err, status = api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path), str(PACKAGE)])
    assert status == 0, out + err
