"""`decide_folded` returns the state its Context folded while deciding (no second fold):
for seeded random playouts under every rules version, that state equals a fold of the
events as the store gives them back, and hashes the same."""

import hashlib
import json
import random

import pytest

from games.rules.base import canonical_json, fold, rng_factory
from games.rules.kit import Decided
from games.rules.shogun import data
from games.rules.shogun.rules import RULES
from games.rules.testing import pick, roundtrip


def _hash(state):
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


def _playout(version, players, seed, commands):
    rules = RULES.for_rules_version(version)
    chooser = random.Random(seed)
    game_seed = f"folded-{version}-{seed}"
    events = [roundtrip(event) for event in rules.start([None] * players, {}, rng_factory(game_seed, 1))]
    state = fold(rules, events)
    checked = 0
    while rules.outcome(state) is None and checked < commands:
        waiting = chooser.choice(rules.pending(state))
        command = json.loads(canonical_json(dict(pick(rules.legal_commands(state, waiting.seat), chooser))))
        decided = rules.decide_folded(state, waiting.seat, command, rng_factory(game_seed, len(events) + 1))
        assert isinstance(decided, Decided)
        stored = [roundtrip(event) for event in decided.events]
        assert stored == [
            roundtrip(event)
            for event in rules.decide(state, waiting.seat, command, rng_factory(game_seed, len(events) + 1))
        ]
        replayed = fold(rules, stored, state)
        assert decided.state == replayed, f"command {checked}: {command}"
        assert _hash(decided.state) == _hash(replayed)
        events += stored
        state = decided.state
        checked += 1
    assert checked > 0
    assert fold(rules, events) == state


@pytest.mark.parametrize("version", range(1, data.RULES_VERSION + 1))
@pytest.mark.parametrize("players,seed", [(3, 1), (5, 2)])
def test_decide_folded_state_is_the_fold_of_its_events(version, players, seed):
    _playout(version, players, seed, commands=150)
