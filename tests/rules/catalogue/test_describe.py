"""Each ruleset's describe() on real batches of seeded random games (issue 14.3)."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from games.rules import registry
from games.rules.base import canonical_json, fold, rng_factory
from games.rules.i18n import LANGUAGES
from games.rules.testing import pick, roundtrip

PACKAGES = {"rising-sun": "rising_sun", "shogun": "shogun", "imjin": "imjin"}


def batches(rid: str, players: int, seed: int, limit: int = 400):
    """(state before, events) of the first `limit` decisions of a seeded random game."""
    rules = registry.load_strict(rid)
    rnd = random.Random(seed)
    first = [roundtrip(e) for e in rules.start([None] * players, {}, rng_factory(f"s{seed}", 1))]
    out = [(rules.initial_state(), first)]
    state = fold(rules, first)
    n = len(first)
    while rules.outcome(state) is None and len(out) < limit:
        p = rnd.choice(rules.pending(state))
        cmd = json.loads(canonical_json(dict(pick(rules.legal_commands(state, p.seat), rnd))))
        new = [roundtrip(e) for e in rules.decide(state, p.seat, cmd, rng_factory(f"s{seed}", n + 1))]
        out.append((state, new))
        n += len(new)
        for e in new:
            if not e.type.startswith("core."):
                state = rules.evolve(state, e)
    return out


def describer(rid):
    return importlib.import_module(f"games.rules.{PACKAGES[rid]}.describe").describe


@pytest.mark.parametrize(
    "rid,players,seed,expect",
    [
        ("rising-sun", 3, 1, ("War in ", " plays ", " buys ")),
        ("shogun", 3, 2, (" collects ", " builds ", " recruits ")),
        ("imjin", 2, 2, ("Battle in ", " turns the wheel to ", " moves from ")),
    ],
)
def test_batches_read_as_lines(rid, players, seed, expect):
    describe = describer(rid)
    lines = [describe(before, events, "en") for before, events in batches(rid, players, seed)]
    assert lines[0]
    said = [x for x in lines if x]
    assert len(said) >= 0.7 * len(lines)
    for phrase in expect:
        assert any(phrase in x for x in said), phrase
    assert all("{" not in x and "log." not in x for x in said)


@pytest.mark.parametrize("rid,players", [("rising-sun", 4), ("shogun", 4), ("imjin", 4)])
def test_every_language_describes_every_batch(rid, players):
    describe = describer(rid)
    for before, events in batches(rid, players, 7, limit=150):
        for lang in LANGUAGES:
            line = describe(before, events, lang)
            assert isinstance(line, str) and "{" not in line and "log." not in line


def test_rising_sun_battle_line_names_the_province_and_losses():
    describe = describer("rising-sun")
    wars = [
        (b, e)
        for b, e in batches("rising-sun", 3, 1)
        if any(x.type == "rising-sun.WarBidsRevealed" for x in e)
    ]
    assert wars
    before, events = wars[0]
    province = next(x for x in events if x.type == "rising-sun.WarBidsRevealed").payload["province"]
    assert f"War in {province}" in describe(before, events, "en")
