"""Engine-contract details beyond the shared playout checker."""

import json
import pickle
import random

import pytest
from shogun_helpers import act, new_game, roundtrip

from games.rules import registry
from games.rules.base import BadCommand, IllegalCommand, fold, rng_factory
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import clone


def test_registered():
    assert registry.get("shogun") is RULES
    assert (RULES.min_players, RULES.max_players) == (3, 5)


@pytest.mark.parametrize(
    "cmd",
    [
        None,
        {},
        {"type": 3},
        {"type": "fly"},
        {"type": "move", "to": "Kai"},
        {"type": "move", "to": "Kai", "armies": "2"},
        {"type": "move", "to": "Kai", "armies": True},
        {"type": "special", "slot": 1, "extra": 0},
        {"type": "plan", "spaces": {"bid": 4}},
        {"type": "favour", "card": 2, "use": 1, "province": None},
    ],
)
def test_malformed_commands(cmd):
    with pytest.raises(BadCommand):
        RULES.decide(new_game(3), 0, cmd, rng_factory("x", 1))


def test_out_of_turn_commands_are_illegal():
    s = new_game(3)
    for cmd in (
        {"type": "special", "slot": 1},
        {"type": "execute"},
        {"type": "pass"},
        {"type": "samurai", "bonus": "chests"},
        {"type": "draft", "card": "blind", "village": 5},
    ):
        with pytest.raises(IllegalCommand):
            RULES.decide(s, 0, cmd, rng_factory("x", 1))
    with pytest.raises(IllegalCommand):
        RULES.decide(s, 7, {"type": "decline"}, rng_factory("x", 1))


def _play(n, opts, seed, steps=None):
    rnd = random.Random(seed)
    events = roundtrip(RULES.start([None] * n, opts, rng_factory(f"c{seed}", 1)))
    state = fold(RULES, events)
    snapshots = []
    while RULES.outcome(state) is None and (steps is None or len(snapshots) < steps):
        p = rnd.choice(RULES.pending(state))
        legal = RULES.legal_commands(state, p.seat)
        assert len(legal.commands) <= 1000
        default = RULES.default_command(state, p.seat)
        before = clone(state)
        # the missed-deadline default is always accepted
        RULES.decide(state, p.seat, default, rng_factory(f"c{seed}", len(events) + 1))
        cmd = rnd.choice(legal.commands) if legal.commands else legal.sample(rnd)
        new = roundtrip(RULES.decide(state, p.seat, cmd, rng_factory(f"c{seed}", len(events) + 1)))
        assert state == before
        for e in new:
            if not e.type.startswith("core."):
                nxt = RULES.evolve(state, e)
                assert state == before or state is not before
                state = nxt
                before = clone(state)
        events += new
        snapshots.append(state)
    return state, events


def test_defaults_always_accepted_and_nothing_mutated():
    state, events = _play(4, {"samurai": True}, 11)
    assert RULES.outcome(state) is not None
    assert pickle.loads(pickle.dumps(state)) == state
    json.dumps(RULES.view(state, None))


def test_finished_game_shows_every_plan():
    state, _ = _play(3, {}, 12)
    v = RULES.view(state, None)
    assert set(v["round"]["plans"]) == {"0", "1", "2"}
    assert v["result"]["winners"]


def test_spectator_and_seat_views_differ_only_in_own_plan():
    s = new_game(3)
    s, _ = act(
        s,
        1,
        {"type": "plan", "spaces": __import__("games.rules.shogun.planning", fromlist=["x"]).default(s, 1)},
        rng=rng_factory("v", 1),
    )
    v0, v1, vs = RULES.view(s, 0), RULES.view(s, 1), RULES.view(s, None)
    assert v1["round"]["plans"]["1"] and v0["round"]["plans"] == {"0": {}}
    # the header names whom the view is for and the paths of that viewer's own hidden
    # information (a seat's plan; a spectator has none); the rest is the same for everyone
    assert [v0["header"].pop("seat"), v1["header"].pop("seat"), vs["header"].pop("seat")] == [0, 1, None]
    assert [v0["header"].pop("private"), v1["header"].pop("private"), vs["header"].pop("private")] == [
        ["round.plans.0"],
        ["round.plans.1"],
        [],
    ]
    del v0["round"]["plans"], v1["round"]["plans"], vs["round"]["plans"]
    assert v0 == v1 == vs
    assert vs["round"]["planned"] == [False, True, False]


def test_evolve_works_on_json_round_tripped_payloads():
    events = RULES.start([None] * 5, {"samurai": True}, rng_factory("j", 1))
    assert fold(RULES, events) == fold(RULES, roundtrip(events))


@pytest.mark.parametrize(
    "n,opts,seed", [(4, {}, 21), (3, {"tennos_court": False}, 22), (5, {"samurai": True}, 23)]
)
def test_every_commitment_is_revealed_once_and_verifies(n, opts, seed):
    """An auditor can check every secret: each committed space is revealed exactly once,
    publicly, and its (choice, salt) matches the commitment."""
    from games.rules.base import commitment_of
    from games.rules.testing import play_random_game

    out = play_random_game(RULES, [None] * n, opts, seed, check_every=1000, check_views=False)
    commitments = {
        e.payload["key"]: e.payload["commitment"] for e in out.events if e.type == "core.ChoiceCommitted"
    }
    reveals = [r for e in out.events if e.visible_to is None for r in e.payload.get("reveals", ())]
    keys = [r["key"] for r in reveals]
    assert len(keys) == len(set(keys)) and set(keys) == set(commitments)
    for r in reveals:
        assert commitment_of(r["salt"], r["choice"]) == commitments[r["key"]]
    if opts.get("tennos_court", True):
        assert len(out.state["favour_pool"]) == 3  # 6 seasons x 3 favours of 21


@pytest.mark.parametrize("n,opts,seed", [(5, {"samurai": True}, 31), (3, {"setup": "beginner"}, 32)])
def test_evolve_never_mutates_its_input(n, opts, seed):
    """evolve copies only the parts it changes: check every event of whole games."""
    from games.rules.testing import play_random_game

    out = play_random_game(RULES, [None] * n, opts, seed, check_every=10**9, check_views=False)
    state = RULES.initial_state()
    for e in out.events:
        if e.type.startswith("core."):
            continue
        frozen = pickle.dumps(state)
        new = RULES.evolve(state, e)
        assert pickle.loads(frozen) == state, f"{e.type} mutated its input"
        state = new
    assert state == out.state


def test_view_shows_the_tray_and_counts_inside_the_tower_and_hides_face_down_action_cards():
    s = new_game(4)
    v = RULES.view(s, None)
    stuck = s["tower"]["l1"] + s["tower"]["l2"]
    assert v["tower"] == {
        "tray": s["tower"]["tray"],
        "inside": {"seats": [stuck.count(x) for x in range(4)], "green": stuck.count(-1)},
    }
    assert v["supply"] == [
        62
        - sum(p["armies"] for p in s["provinces"].values() if p["owner"] == x)
        - sum(s["tower"][k].count(x) for k in ("l1", "l2", "tray"))
        for x in range(4)
    ]
    assert len(v["round"]["actions"]) == 5 and v["round"]["face_down"] == 5
    assert "pool" not in v["round"]
    assert v["pending"] == [{"seat": x, "kind": "plan"} for x in range(4)]
    json.dumps(v)
