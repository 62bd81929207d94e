"""Seeded random games through the shared contract checker, plus bounds a naive
REST bot relies on (short command lists, defaults always accepted, finite games)."""

import json
import random

import pytest

from games.rules.base import canonical_json, fold, rng_factory
from games.rules.imjin.rules import RULES
from games.rules.testing import pick, play_random_game, roundtrip


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_two_player_games(seed):
    out = play_random_game(RULES, [None, None], {}, seed)
    assert RULES.outcome(out.state) is not None
    assert out.commands < 3000


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_random_four_player_games(seed):
    out = play_random_game(RULES, [None] * 4, {}, seed)
    assert RULES.outcome(out.state) is not None
    assert out.commands < 3000


def test_random_game_without_legendaries():
    out = play_random_game(RULES, ["allies", "japan"], {"legendary_generals": []}, 8)
    assert RULES.outcome(out.state) is not None


@pytest.mark.parametrize("n,seed", [(2, 11), (4, 12)])
def test_bot_bounds_and_defaults(n, seed):
    """Every step: ≤1000 listed commands; the default command is accepted; the
    whole game mixes random and default commands and still ends."""
    rnd = random.Random(seed)
    gs = f"b{seed}"
    events = [roundtrip(e) for e in RULES.start([None] * n, {}, rng_factory(gs, 1))]
    state = fold(RULES, events)
    steps = 0
    while RULES.outcome(state) is None:
        pend = RULES.pending(state)
        p = rnd.choice(pend)
        legal = RULES.legal_commands(state, p.seat)
        assert 0 < len(legal.commands) <= 1000
        default = RULES.default_command(state, p.seat)
        assert default in legal.commands
        cmd = default if rnd.random() < 0.3 else pick(legal, rnd)
        cmd = json.loads(canonical_json(dict(cmd)))
        for e in RULES.decide(state, p.seat, cmd, rng_factory(gs, len(events) + 1)):
            e = roundtrip(e)
            events.append(e)
            if not e.type.startswith("core."):
                state = RULES.evolve(state, e)
        steps += 1
        assert steps < 3000
    assert fold(RULES, events) == state
    assert RULES.view(state, None)["hands"][0]["hidden"] == 0  # game over: no secrets


def test_every_commitment_is_revealed_by_the_end():
    from games.rules.base import commitment_of

    out = play_random_game(RULES, [None, None], {}, 21, check_every=500)
    commits = {
        e.payload["key"]: e.payload["commitment"] for e in out.events if e.type == "core.ChoiceCommitted"
    }
    reveals = {r["key"]: r for e in out.events if e.visible_to is None for r in e.payload.get("reveals", ())}
    assert commits and set(commits) == set(reveals)
    for key, r in reveals.items():
        assert commitment_of(r["salt"], r["choice"]) == commits[key]


@pytest.mark.parametrize("seed,four", [(918273, False), (5550123, True), (77, False), (31337, True)])
def test_random_games_are_sound(seed, four):
    """Property: any seed plays to an outcome; replay equals incremental state;
    JSON round trips are harmless; views never leak another seat's secret."""
    out = play_random_game(RULES, [None] * (4 if four else 2), {}, seed, check_every=100)
    assert RULES.outcome(out.state) is not None


@pytest.mark.parametrize("seed", [41, 42])
def test_four_player_commands_never_offer_a_team_mates_hand(seed):
    """Hands are private, also between team-mates: every command a seat is offered that
    plays a general from hand names a card of that seat's own hand, onto its own unit."""
    rnd = random.Random(seed)
    gs = f"h{seed}"
    events = [roundtrip(e) for e in RULES.start([None] * 4, {}, rng_factory(gs, 1))]
    state = fold(RULES, events)
    kinds = set()
    while RULES.outcome(state) is None:
        p = rnd.choice(RULES.pending(state))
        legal = RULES.legal_commands(state, p.seat).commands
        kinds.add(p.kind)
        for c in legal:
            if c["type"] in ("deploy", "replace", "place_general"):
                assert c["general"] in state["hands"][p.seat], (p.kind, c)
                assert state["units"][c["unit"]]["owner"] == p.seat, (p.kind, c)
        cmd = json.loads(canonical_json(dict(pick(RULES.legal_commands(state, p.seat), rnd))))
        for e in RULES.decide(state, p.seat, cmd, rng_factory(gs, len(events) + 1)):
            e = roundtrip(e)
            events.append(e)
            if not e.type.startswith("core."):
                state = RULES.evolve(state, e)
    assert "manage" in kinds
