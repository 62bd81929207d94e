"""What the `mcts` bot searches in Shogun (games/bots/shogun/search.py): variants
of the rules' plan (variants.py), rivals' hidden plans redrawn as the rules'
plans (worlds.py), and the forecast that scores a rollout's end (forecast.py)."""

from __future__ import annotations

import copy
import random

import pytest

from games import plugins
from games.bots import Budget, info_set, mcts
from games.bots.shogun import forecast, plan, variants, worlds
from games.rules.base import canonical_json, rng_factory
from games.rules.registry import get
from games.rules.shogun import data
from games.rules.shogun import state as shogun_state
from games.rules.shogun.state import phase_of
from tests.bots.test_shogun_rules_bot import _play_until

RULES = get("shogun")


@pytest.fixture(scope="module")
def planning():
    return _play_until(4, 3, lambda s: phase_of(s) == "plan")


def test_every_plan_variant_is_accepted_and_differs_from_the_rules_plan(planning):
    view = RULES.view(planning, 0)
    own = plan.build_plan(view, 0, random.Random(1))
    alts = variants.variants(view, 0, own, 8, random.Random(1))
    assert len(alts) == 7
    assert len({canonical_json(c) for c in [own, *alts]}) == 8
    for alt in alts:
        RULES.decide(planning, 0, alt, rng_factory("x", 1))  # raises if the engine refuses it
        moved = [k for k in alt["spaces"] if alt["spaces"][k] != own["spaces"][k]]
        assert len(moved) == 2  # one swap (or the bid's chest trading places)


def test_a_bid_variant_bids_a_chest_the_seat_can_pay(planning):
    view = copy.deepcopy(RULES.view(planning, 0))
    own = plan.build_plan(view, 0, random.Random(1))
    view["players"][0]["money"] = 1
    assert [b["spaces"]["bid"] for b in variants.bids(view, 0, own)] == ["chest1"]
    view["players"][0]["money"] = 0
    assert variants.bids(view, 0, own) == []


def test_swaps_across_kinds_of_action_come_first_best_static_value_first(planning):
    view = RULES.view(planning, 0)
    own = plan.build_plan(view, 0, random.Random(1))
    table = {(a, p): v for v, a, p in plan.values(view, 0)}
    keys = []
    for alt in variants.swaps(view, 0, own):
        a, b = (k for k in alt["spaces"] if alt["spaces"][k] != own["spaces"][k])
        assert {a, b} != {"attackA", "attackB"}  # the same attack a step later
        keys.append((variants._kind(a) == variants._kind(b), -variants._static(alt["spaces"], table)))
    assert keys == sorted(keys) and not keys[0][0]


def test_only_a_plan_has_variants(planning):
    view = RULES.view(planning, 0)
    assert variants.variants(view, 0, {"type": "execute"}, 8, random.Random(1)) == []


def _rival_planned():
    """A plan phase in which seat 1 has planned and seat 0 has not."""
    state = _play_until(3, 5, lambda s: phase_of(s) == "plan")
    view = RULES.view(state, 1)
    cmd = plan.build_plan(view, 1, random.Random(2))
    for e in RULES.decide(state, 1, cmd, rng_factory("p", 1)):
        if not e.type.startswith("core."):
            state = RULES.evolve(state, e)
    return state


def test_a_rivals_hidden_plan_is_redrawn_as_a_plan_the_rules_would_lay():
    state = _rival_planned()
    for seed in range(5):
        world = worlds.sample(state, 0, random.Random(seed))
        spaces = {k: e["card"] for k, e in world["plans"][1].items()}
        assert spaces["bid"] == "chest0"  # a random deal of the hand would rarely bid 0
        assert sorted(spaces[c] for c in data.COURT_SPACES) == data.tower_cards()
        assert {e["salt"] for e in world["plans"][1].values()} == {"0" * 32}
        assert set(spaces.values()) - {None} <= set(shogun_state.hand(world, 1))


def test_the_forecast_weighs_money_more_early_than_late(planning):
    s = copy.deepcopy(planning)
    s["players"][0]["money"] += 5
    early = forecast.reward(s, 0)
    s["year"] = 2
    s["season"] = 2
    late = forecast.reward(s, 0)
    assert early > late


def test_the_reward_is_the_pairwise_lead_squashed_and_the_score_at_the_end(planning):
    s = copy.deepcopy(planning)
    s["players"][2]["vp"] += 40
    assert forecast.reward(s, 2) > 0.9  # far ahead of every rival
    assert -1.0 < forecast.reward(s, 0) < 0
    s["result"] = {"winners": [1], "scores": [50, 60, 60, 40]}
    assert forecast.reward(s, 1) > forecast.reward(s, 2) > forecast.reward(s, 0) > forecast.reward(s, 3)
    assert forecast.reward(s, 1) + forecast.reward(s, 2) + forecast.reward(s, 0) + forecast.reward(
        s, 3
    ) == pytest.approx(0)


def test_a_searched_plan_is_reproducible_and_accepted():
    state = _rival_planned()
    worlds_ = info_set(RULES, plugins.SHOGUN.bots, state, 0, 3)
    view, legal = RULES.view(state, 0), RULES.legal_commands(state, 0)
    picks = [
        mcts.choose(view, legal, random.Random(4), Budget(iterations=24, worlds=worlds_)) for _ in range(2)
    ]
    assert picks[0]["type"] == "plan"
    assert canonical_json(picks[0]) == canonical_json(picks[1])
    RULES.decide(state, 0, picks[0], rng_factory("z", 1))  # accepted


def _attacking():
    """A 3-player game where seat 0 must attack (or decline) with several moves open."""

    def done(s):
        p = RULES.pending(s)
        if not (phase_of(s) == "actions" and p and p[0].seat == 0 and p[0].kind.endswith(":attack")):
            return False
        return sum(c["type"] == "move" for c in RULES.legal_commands(s, 0).commands) > 1

    for seed in range(20):
        try:
            return _play_until(3, seed, done)
        except IndexError:  # the game ended first
            continue
    pytest.fail("no attack with several moves in 20 seeded games")


def test_an_attack_is_searched_against_other_legal_moves_and_the_decline():
    state = _attacking()
    worlds_ = info_set(RULES, plugins.SHOGUN.bots, state, 0, 3)
    view, legal = RULES.view(state, 0), RULES.legal_commands(state, 0)
    cands, ruled = mcts.root_candidates(view, legal, random.Random(3), Budget(worlds=worlds_))
    assert ruled and cands[0]["type"] in ("move", "decline")
    tested = mcts._tested(plugins.SHOGUN.bots, view, 0, cands, random.Random(3))
    listed = [canonical_json(c) for c in legal.commands]
    assert len(tested) > 1 and tested[0] == cands[0]
    assert all(c["type"] in ("move", "decline") and canonical_json(c) in listed for c in tested)
    pick = mcts.choose(view, legal, random.Random(4), Budget(iterations=24, worlds=worlds_))
    assert canonical_json(pick) in listed
    RULES.decide(state, 0, pick, rng_factory("z", 1))  # accepted
