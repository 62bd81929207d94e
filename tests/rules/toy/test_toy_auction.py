"""The test-only toy ruleset (tests/support/toy), tested as CONTRIBUTING.md asks of
a ruleset: seeded random games for every player count, the rules' worked
examples, its catalogue and game log, and decide_folded's state equal to a fold."""

from __future__ import annotations

import random

import pytest

from games.rules.base import BadCommand, IllegalCommand, canonical_json, fold, rng_factory
from games.rules.testing import pick, play_random_game
from tests.support import toy
from tests.support.toy import catalogue, describe

RULES = toy.RULES


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_end_with_an_outcome(players, seed):
    out = play_random_game(RULES, [None] * players, {"coins": 7}, seed=seed, check_every=3)
    outcome = RULES.outcome(out.state)
    assert outcome is not None and outcome.winners
    assert sum(outcome.scores.values()) == sum(
        e.payload["points"] for e in out.events if e.type == "toy.PrizeAwarded"
    )


def _started(players=2, seed="toy"):
    events = RULES.start([None] * players, {}, rng_factory(seed, 1))
    return fold(RULES, events), len(events) + 1


def test_a_tie_goes_to_the_lower_seat_who_pays_its_bid():
    state, seq = _started()
    for seat in (1, 0):
        events = RULES.decide(state, seat, {"type": "bid", "amount": 4}, rng_factory("toy", seq))
        seq += len(events)
        state = fold(RULES, events, state)
    revealed = next(e for e in events if e.type == "toy.BidsRevealed")
    assert revealed.payload["winner"] == 0 and revealed.payload["paid"] == 4
    assert state["coins"] == [6, 10] and [p.seat for p in RULES.pending(state)] == [0]
    with pytest.raises(IllegalCommand):
        RULES.decide(state, 0, {"type": "give", "to": 0}, rng_factory("toy", seq))
    with pytest.raises(BadCommand):
        RULES.decide(state, 0, {"type": "give"}, rng_factory("toy", seq))
    prize = state["prize"]
    events = RULES.decide(state, 0, {"type": "give", "to": 1}, rng_factory("toy", seq))
    state = fold(RULES, events, state)
    assert state["points"] == [0, prize] and state["round"] == 2


def test_another_seats_bid_stays_hidden_until_the_end():
    state, seq = _started()
    events = RULES.decide(state, 0, {"type": "bid", "amount": 3}, rng_factory("toy", seq))
    state = fold(RULES, events, state)
    assert RULES.view(state, 0)["my_bid"] == 3
    assert RULES.view(state, 1)["my_bid"] is None and RULES.view(state, None)["my_bid"] is None
    assert RULES.view(state, 1)["bidders"] == [0]  # that seat 0 has bid is public, not how much
    with pytest.raises(IllegalCommand):
        RULES.decide(state, 0, {"type": "bid", "amount": 1}, rng_factory("toy", seq + 2))


@pytest.mark.parametrize("seed", range(4))
def test_decide_folded_state_is_the_fold_of_its_events(seed):
    rnd = random.Random(seed)
    state, seq = _started(3, f"folded-{seed}")
    while RULES.outcome(state) is None:
        seat = rnd.choice(RULES.pending(state)).seat
        command = pick(RULES.legal_commands(state, seat), rnd)
        decided = RULES.decide_folded(state, seat, command, rng_factory(f"folded-{seed}", seq))
        assert canonical_json(decided.state) == canonical_json(fold(RULES, decided.events, state))
        state, seq = decided.state, seq + len(decided.events)


def test_catalogue_and_log_speak_the_toy():
    body = catalogue.build("en")
    assert [f["id"] for f in body["factions"]] == ["red", "blue", "green", "yellow"]
    assert {p["kind"] for p in body["prompts"]} == {"bid", "award"}
    events = RULES.start([None, None], {}, rng_factory("log", 1))
    line = describe.describe(RULES.initial_state(), events, "en")
    assert line.startswith("The game begins with 10 coins each") and "Round 1" in line
    assert "Round 1" in describe.describe(RULES.initial_state(), events, "ja")  # English only: falls back
