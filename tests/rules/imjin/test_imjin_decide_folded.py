"""`decide_folded` hands back the state its Context folded while deciding: for seeded
random playouts under every rules version, that state equals a fold of the stored
(JSON round-tripped) events onto the state before, and hashes the same, at every step."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from games.rules.base import canonical_json, fold, rng_factory
from games.rules.imjin.rules import RULES
from games.rules.imjin.state import RULES_VERSION
from games.rules.kit import Decided
from games.rules.testing import pick, roundtrip

STEPS = 400  # commands per playout: setup, several turns, battles and event cards


def digest(state: object) -> str:
    return hashlib.sha256(canonical_json(json.loads(json.dumps(state))).encode()).hexdigest()


@pytest.mark.parametrize(
    "version,players,seed",
    [(RULES_VERSION, 2, 1), (RULES_VERSION, 4, 2), (RULES_VERSION, 2, 3), (3, 2, 4), (3, 4, 5), (2, 2, 6)],
)
def test_decide_folded_state_is_the_fold_of_its_events(version, players, seed):
    rules = RULES.for_rules_version(version)
    chooser = random.Random(seed)
    game_seed = f"folded-{seed}"
    events = [roundtrip(event) for event in rules.start([None] * players, {}, rng_factory(game_seed, 1))]
    state = fold(rules, events)
    for _ in range(STEPS):
        if rules.outcome(state) is not None:
            break
        seat = chooser.choice(rules.pending(state)).seat
        command = json.loads(canonical_json(dict(pick(rules.legal_commands(state, seat), chooser))))
        before = digest(state)
        decided = rules.decide_folded(state, seat, command, rng_factory(game_seed, len(events) + 1))
        assert isinstance(decided, Decided)
        assert digest(state) == before  # the state decided from is left as it was
        stored = [roundtrip(event) for event in decided.events]
        assert decided.events == rules.decide(state, seat, command, rng_factory(game_seed, len(events) + 1))
        refolded = fold(rules, stored, state)
        assert decided.state == refolded
        assert digest(decided.state) == digest(refolded)
        events += stored
        state = decided.state
    assert fold(rules, events) == state
