"""Recorded Rising Sun games (tests/fixtures/games) replay and verify under the
engine of the rules version they were recorded with: version 2 games (no
salts, proposals revealed when answered, hostage VP at the end) through
`RULES.for_rules_version(2)`, version 3 games (command-style events re-applied
by the rules code) through `for_rules_version(3)`, version 4 games (events that
state facts) through the current engine."""

from pathlib import Path

import pytest

from games import verify
from games.rules.rising_sun.rules import RULES

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "games"
PATHS = sorted(FIXTURES.glob("rising-sun-*.jsonl"))


def _version(path: Path) -> int:
    return verify.load_jsonl(str(path))[0]["payload"]["rules_version"]


def test_fixtures_of_both_rules_versions_are_kept():
    assert {_version(p) for p in PATHS} >= {2, 3, 4, 6}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_fixture_verifies_under_its_own_rules_version(path):
    rows = verify.load_jsonl(str(path))
    report = verify.verify(rows, rules=RULES)
    assert report.ok and report.replayed, report.problems[:3]
    private = [r for r in rows if r.get("visible_to") is not None]
    if _version(path) >= 3:
        assert private and all(isinstance(r["payload"].get("salt"), str) for r in private)
    else:
        assert any("salt" not in r["payload"] for r in private)  # recorded before salts


class _CurrentOnly:
    """The current engine without its old versions."""

    def __getattr__(self, name):
        if name == "for_rules_version":
            raise AttributeError(name)
        return getattr(RULES, name)


@pytest.mark.parametrize("path", [p for p in PATHS if _version(p) == 2], ids=lambda p: p.name)
def test_version_2_fixtures_need_the_old_engine(path):
    report = verify.verify(verify.load_jsonl(str(path)), rules=_CurrentOnly())
    assert not report.replayed and any(p.check == "replay" for p in report.problems)
