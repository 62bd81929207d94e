"""The Shogun engine passes `mypy --strict` (issue 13 item 6), so the typed state in
state.py keeps describing what the code does. (Until `make check` runs mypy over all of
games/rules, this test keeps the Shogun package strict.)"""

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

PACKAGE = Path(__file__).resolve().parents[3] / "games" / "rules" / "shogun"


def test_mypy_strict_passes(tmp_path):
    out, err, status = api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path), str(PACKAGE)])
    assert status == 0, out + err
