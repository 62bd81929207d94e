"""The `mcts` bot (games/bots/mcts.py): information-set MCTS whose root starts
from the heuristic's own choice, whose playouts follow the heuristic policy, which
plays a ruleset's rule-based answer as it is unless the ruleset searches that
decision (then paired rollouts to the horizon test it: games/bots/paired.py), and
which returns at once when there is nothing to search."""

from __future__ import annotations

import json
import random

import pytest

from games import plugins
from games.bots import Budget, heuristic, info_set, mcts, paired, play, playout
from games.rules.base import canonical_json, fold, rng_factory
from games.rules.registry import get


def _positions(ruleset: str, players: int, seed: int, limit: int = 400):
    """(rules, state, seat) along a seeded game of random play."""
    rules = get(ruleset)
    state = fold(rules, rules.start([None] * players, {}, rng_factory(f"t-{seed}", 1)))
    rnd = random.Random(seed)
    for n in range(limit):
        if rules.outcome(state) is not None:
            return
        seat = rnd.choice(rules.pending(state)).seat
        yield rules, state, seat
        parts = plugins.bots_of(ruleset)
        cmd = json.loads(
            canonical_json(play(rules, state, seat, "random", random.Random(n), players, parts=parts))
        )
        for e in rules.decide(state, seat, cmd, rng_factory(f"t-{seed}", n + 2)):
            if not e.type.startswith("core."):
                state = rules.evolve(state, e)


def _ask(rules, state, seat, players):
    worlds = info_set(rules, plugins.bots_of(rules.id), state, seat, players)
    return rules.view(state, seat), rules.legal_commands(state, seat), worlds


def _searched(ruleset: str, players: int):
    """A decision the ruleset's rules leave to search, with several candidates."""
    for rules, state, seat in _positions(ruleset, players, 3):
        view, legal, worlds = _ask(rules, state, seat, players)
        cands, ruled = mcts.root_candidates(view, legal, random.Random(1), Budget(worlds=worlds))
        if not ruled and len(cands) > 1:
            return rules, state, seat, view, legal, worlds
    pytest.skip("no searched decision in this game")


@pytest.mark.parametrize(("ruleset", "players"), [("shogun", 3), ("imjin", 2), ("rising-sun", 3)])
def test_the_heuristics_choice_leads_the_root_and_the_search_plays_a_legal_command(ruleset, players):
    rules, state, seat, view, legal, worlds = _searched(ruleset, players)
    cands, _ = mcts.root_candidates(view, legal, random.Random(5), Budget(worlds=worlds))
    # root_candidates draws the heuristic's seed first from the random source it is given
    own = heuristic.choose(
        view, legal, random.Random(random.Random(5).getrandbits(64)), Budget(worlds=worlds)
    )
    assert canonical_json(cands[0]) == canonical_json(own)
    assert len({canonical_json(c) for c in cands}) == len(cands)
    picks = [
        mcts.choose(view, legal, random.Random(9), Budget(iterations=24, worlds=worlds)) for _ in range(2)
    ]
    assert canonical_json(picks[0]) == canonical_json(picks[1])  # seeded: reproducible
    rules.decide(state, seat, json.loads(canonical_json(picks[0])), rng_factory("t", 1))  # accepted


def test_a_rule_based_answer_the_ruleset_does_not_search_is_played_as_it_is(monkeypatch):
    def no_search(*_args, **_kwargs):
        raise AssertionError("searched a decision the rules answer")

    monkeypatch.setattr(mcts, "_iterate", no_search)
    monkeypatch.setattr(paired, "rollout", no_search)
    searched = plugins.SHOGUN.bots.search.searched
    for rules, state, seat in _positions("shogun", 3, 4):
        view, legal, worlds = _ask(rules, state, seat, 3)
        seed = random.Random(2).getrandbits(64)
        ruled = plugins.SHOGUN.bots.evaluation.decide(view, seat, legal, random.Random(seed), worlds)
        several = len(legal.commands) + len(legal.templates) > 1
        if ruled is not None and several and ruled.get("type") not in searched:
            got = mcts.choose(view, legal, random.Random(2), Budget(seconds=5.0, worlds=worlds))
            assert canonical_json(got) == canonical_json(ruled)
            return
    pytest.fail("no rule-based decision found")


def test_nothing_to_search_returns_at_once(monkeypatch):
    monkeypatch.setattr(mcts, "_iterate", lambda *a, **k: (_ for _ in ()).throw(AssertionError("searched")))
    monkeypatch.setattr(mcts, "root_candidates", lambda view, legal, rng, budget: ([{"type": "pass"}], False))
    rules, state, seat = next(_positions("imjin", 2, 1))
    view, legal, worlds = _ask(rules, state, seat, 2)
    assert mcts.choose(view, legal, random.Random(0), Budget(seconds=30.0, worlds=worlds)) == {"type": "pass"}


def test_the_search_stops_when_the_leader_cannot_be_caught():
    root = mcts.Node(commands={"a": {}, "b": {}})
    root.children = {"a": mcts.Node(visits=90), "b": mcts.Node(visits=10)}
    slow = Budget(seconds=0.0, worlds=None)  # no time left: any lead is decisive
    assert mcts._decided(root, slow, 100)
    roomy = Budget(seconds=3600.0, worlds=None)  # an hour left: a lead of 80 is not
    assert not mcts._decided(root, roomy, 100)
    assert not mcts._decided(root, Budget(iterations=5), 100)  # seeded searches run in full


def _fake_rollouts(monkeypatch, worth):
    """Rollouts whose reward is `worth[command's name]` plus noise shared by the
    round's candidates (as common random numbers make it)."""

    def fake(rules, world, me, cmd, seed, worlds):
        return worth[cmd["type"]] + (seed % 1000) / 1000.0

    monkeypatch.setattr(paired, "rollout", fake)


@pytest.mark.parametrize(
    ("worth", "expected"),
    [
        ({"rule": 0.0, "a": -0.1, "b": -0.2}, "rule"),  # no alternative is better: the rules' answer
        ({"rule": 0.0, "a": 0.0, "b": 0.0}, "rule"),  # no evidence: the rules' answer
        ({"rule": 0.0, "a": 0.1, "b": 0.3}, "b"),  # the best alternative by its paired gain
    ],
)
def test_paired_rollouts_leave_the_rules_answer_only_for_a_better_alternative(monkeypatch, worth, expected):
    _fake_rollouts(monkeypatch, worth)
    rules, state, seat = next(_positions("rising-sun", 3, 1))
    _, _, worlds = _ask(rules, state, seat, 3)
    cands = [{"type": "rule"}, {"type": "a"}, {"type": "b"}]
    assert (
        paired.best(rules, cands, random.Random(3), Budget(iterations=30, worlds=worlds))["type"] == expected
    )


def test_paired_rollouts_need_a_few_rounds_before_a_switch(monkeypatch):
    _fake_rollouts(monkeypatch, {"rule": 0.0, "a": 0.5})
    rules, state, seat = next(_positions("rising-sun", 3, 1))
    _, _, worlds = _ask(rules, state, seat, 3)
    cands = [{"type": "rule"}, {"type": "a"}]
    two_rounds = Budget(iterations=2 * len(cands), worlds=worlds)
    assert paired.best(rules, cands, random.Random(3), two_rounds)["type"] == "rule"


def test_paired_rollouts_on_the_clock_stop_inside_a_round(monkeypatch):
    """A round is checked between its rollouts: a slow round cannot carry the
    decision far past its time, and an unfinished round is not counted."""
    calls = []

    def slow(rules, world, me, cmd, seed, worlds):
        calls.append(cmd["type"])
        clock.append(clock[-1] + 0.4)  # each rollout takes 0.4 s of the fake clock
        return {"rule": 0.0, "a": 0.5, "b": 0.6, "c": 0.7}[cmd["type"]]

    clock = [0.0]
    monkeypatch.setattr(paired, "rollout", slow)
    rules, state, seat = next(_positions("rising-sun", 3, 1))
    _, _, worlds = _ask(rules, state, seat, 3)
    cands = [{"type": t} for t in ("rule", "a", "b", "c")]
    budget = Budget(seconds=1.0, worlds=worlds, clock=lambda: clock[-1])
    assert paired.best(rules, cands, random.Random(3), budget)["type"] == "rule"  # no round finished
    assert len(calls) == 3 and clock[-1] <= 1.0 + 0.4  # stopped at the first rollout past the budget


def _war_bid(players: int = 3):
    for rules, state, seat in _positions("rising-sun", players, 2, limit=2000):
        legal = rules.legal_commands(state, seat)
        if any(c.get("type") == "bid" for c in legal.commands):
            return rules, state, seat
    pytest.fail("no war bid in this game")


def test_a_playout_to_the_horizon_stops_when_the_season_changes():
    rules, state, seat = _war_bid()
    season = state["season"]
    parts = plugins.RISING_SUN.bots
    end = playout.to_horizon(rules, parts, state, 3, random.Random(4))
    assert end["season"] == season + 1 or rules.outcome(end) is not None
    assert (
        playout.run(rules, parts, state, 3, 3, random.Random(4))["season"] == season
    )  # 3 commands: still at war


def test_a_searched_war_bid_is_reproducible_and_accepted():
    rules, state, seat = _war_bid()
    view, legal, worlds = _ask(rules, state, seat, 3)
    picks = [
        mcts.choose(view, legal, random.Random(6), Budget(iterations=30, worlds=worlds)) for _ in range(2)
    ]
    assert picks[0]["type"] == "bid"
    assert canonical_json(picks[0]) == canonical_json(picks[1])
    rules.decide(state, seat, json.loads(canonical_json(picks[0])), rng_factory("t", 1))  # accepted


def test_successive_halving_spends_the_rounds_on_the_close_alternatives(monkeypatch):
    worth = {"rule": 0.0, **{f"a{i}": -0.1 * i for i in range(1, 7)}, "best": 0.2}
    _fake_rollouts(monkeypatch, worth)
    rules, state, seat = next(_positions("rising-sun", 3, 1))
    _, _, worlds = _ask(rules, state, seat, 3)
    cands = [{"type": k} for k in worth]
    budget = Budget(iterations=240, worlds=worlds)
    gains, alive = paired.gains(rules, cands, random.Random(3), budget)
    assert alive[0] == 0 and cands[alive[-1]]["type"] == "best" and len(alive) < len(cands)
    rounds = {cands[i]["type"]: len(xs) for i, xs in enumerate(gains)}
    assert rounds["best"] > rounds["a6"]  # the worst alternative was dropped early
    assert (
        paired.best(rules, cands, random.Random(3), Budget(iterations=240, worlds=worlds))["type"] == "best"
    )
