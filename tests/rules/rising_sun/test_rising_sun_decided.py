"""`decide_folded` returns the kit's `Decided(events, state)`, its state folded once by
the kit's `Context` as the events were emitted: for seeded random playouts under
every reachable rules version, that state equals (by value, by canonical hash and by
a hash of its repr, dict order included) the fold of the same events as the store gives
them back, so the service can keep it instead of folding again."""

import hashlib
import json
import pickle
import random

import pytest

from games.rules.base import canonical_json, fold, rng_factory
from games.rules.kit import Decided
from games.rules.rising_sun.rules import RULES, RULES_VERSION
from games.rules.testing import pick, roundtrip


def _hashes(state) -> tuple[str, str]:
    return (
        hashlib.sha256(canonical_json(state).encode()).hexdigest(),
        # repr keeps dict order (the rules iterate some dicts), unlike canonical JSON;
        # pickled bytes would also depend on which equal strings are the same object
        hashlib.sha256(repr(state).encode()).hexdigest(),
    )


def _playout(rules, players: int, seed: int, commands: int) -> int:
    rnd = random.Random(seed)
    game_seed = f"decided-{seed}"
    events = [roundtrip(e) for e in rules.start([None] * players, {}, rng_factory(game_seed, 1))]
    state = fold(rules, events)
    checked = 0
    while rules.outcome(state) is None and checked < commands:
        seat = rnd.choice(rules.pending(state)).seat
        command = json.loads(canonical_json(dict(pick(rules.legal_commands(state, seat), rnd))))
        decided = rules.decide_folded(state, seat, command, rng_factory(game_seed, len(events) + 1))
        assert isinstance(decided, Decided)
        assert decided.events == rules.decide(state, seat, command, rng_factory(game_seed, len(events) + 1))
        stored = [roundtrip(e) for e in decided.events]
        replayed = fold(rules, stored, state)
        assert decided.state == replayed == fold(rules, decided.events, state)
        assert _hashes(decided.state) == _hashes(replayed), (seed, checked, command)
        events += stored
        state = decided.state
        checked += 1
    return checked


@pytest.mark.parametrize("version", [2, 3, 4, RULES_VERSION])
@pytest.mark.parametrize("seed", [1, 2])
def test_decide_folded_state_is_the_fold_of_its_events(version, seed):
    rules = RULES.for_rules_version(version)
    assert _playout(rules, players=3 + seed % 3, seed=seed * 10 + version, commands=250) > 50


def test_decide_folded_does_not_change_its_input():
    rules = RULES
    events = [roundtrip(e) for e in rules.start([None] * 3, {}, rng_factory("input", 1))]
    state = fold(rules, events)
    before = pickle.dumps(state)
    seat = rules.pending(state)[0].seat
    command = rules.default_command(state, seat)
    rules.decide_folded(state, seat, command, rng_factory("input", len(events) + 1))
    assert pickle.dumps(state) == before
