"""Declared plug-ins (games/plugins.py): one record per ruleset, the same ids and
engines as the rules registry, and no part of a ruleset found by module path
(importlib) anywhere in the platform's packages."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from games import plugins
from games.bots import info_set
from games.rules import registry
from games.rules.base import Event, fold, rng_factory

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "api", "web")  # where rulesets are read (accounts and config load settings)
# games.verify loads an engine's upcasters for a stand-alone run, and the rules
# registry loads engines lazily by dotted path: both are engine lookups, not parts.
ENGINE_LOOKUPS = ("games/verify", "games/rules/registry.py")
RECORDS = ["toy-auction", *plugins.PRODUCTION]


def test_production_records_are_the_registry_rulesets():
    assert set(plugins.PRODUCTION) == set(registry.PRODUCTION)


@pytest.mark.parametrize("ruleset", RECORDS)
def test_a_record_names_its_engine(ruleset):
    record = plugins.record(ruleset)
    assert record.key == ruleset == record.rules.id
    assert record.rules is registry.load_strict(ruleset)


@pytest.mark.parametrize("ruleset", list(plugins.PRODUCTION))
def test_a_production_record_declares_every_part(ruleset):
    record = plugins.record(ruleset)
    assert record.catalogue is not None and record.describe is not None and record.board is not None
    parts = record.bots
    assert parts.worlds is not None and parts.evaluation is not None and parts.search is not None
    body = record.catalogue("en")
    assert body  # the catalogue builds
    assert record.board.names()  # the board layer names its provinces


@pytest.mark.parametrize("ruleset", RECORDS)
def test_the_parts_work_on_a_started_game(ruleset):
    """Each declared part accepts what its readers hand it: the log a batch, the
    sampler a state and a seat (a world the seat cannot tell from the table)."""
    record = plugins.record(ruleset)
    rules = record.rules
    players = rules.min_players
    events = rules.start([None] * players, {}, rng_factory("plugins", 1))
    state = fold(rules, events)
    if record.describe is not None:
        line = record.describe(rules.initial_state(), [e for e in events if isinstance(e, Event)], "en")
        assert isinstance(line, str)
    seat = rules.pending(state)[0].seat
    worlds = info_set(rules, record.bots, state, seat, players)
    if record.bots.worlds is None:
        assert worlds is None  # the search bots play as `random`
        return
    assert worlds is not None and worlds.parts is record.bots
    world = worlds.sample(random.Random(1))
    assert rules.view(world, seat) == rules.view(state, seat)
    assert record.bots.evaluation is not None
    assert isinstance(record.bots.evaluation.evaluate(world, seat), float)


def test_an_unknown_ruleset_has_no_record():
    assert plugins.get("chess") is None
    with pytest.raises(plugins.UnknownRuleset, match="chess"):
        plugins.record("chess")
    assert plugins.bots_of("chess") is plugins.NO_PARTS
    with pytest.raises(plugins.UnknownRuleset, match="no board"):
        plugins.layer("toy-auction")


def _dynamic_imports(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(alias.name == "importlib" for alias in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "importlib":
            lines.append(node.lineno)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            lines.append(node.lineno)
    return lines


def test_no_part_is_found_by_module_path():
    """Parts are declared in games/plugins.py, never imported by a name built at run time."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(ENGINE_LOOKUPS) or "/migrations/" in relative:
                continue
            lines = _dynamic_imports(path)
            if lines:
                found[relative] = lines
    assert not found, f"importlib outside the engine lookups: {found}"
