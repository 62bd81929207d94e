"""The Imjin engine type-checks under `mypy --strict` (state as TypedDicts, issue 13
item 6), so a wrong key or a value of the wrong shape is caught before it runs."""

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")
ROOT = Path(__file__).resolve().parents[3]


def test_engine_is_strictly_typed():
    out, err, status = api.run(["--strict", "--no-error-summary", str(ROOT / "games" / "rules" / "imjin")])
    assert status == 0, out + err
