"""The engine contract: seeded random full games (3/4/5 players x each season
set), every listed or sampled command accepted, default commands accepted."""

import json
import random

import pytest

from games.rules.base import IllegalCommand, canonical_json, fold, rng_factory
from games.rules.rising_sun.rules import RULES
from games.rules.testing import play_random_game, roundtrip


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("season_set", ["archway", "horseman", "teapot"])
def test_random_full_game(players, season_set):
    seed = players * 100 + len(season_set)
    out = play_random_game(RULES, [None] * players, {"season_set": season_set}, seed=seed, check_every=20)
    result = RULES.outcome(out.state)
    assert result is not None and result.winners
    assert out.commands < 3000
    assert out.state["season"] == 3 and len(result.scores) == players


@pytest.mark.parametrize("seed", range(6))
def test_more_random_games_with_random_options(seed):
    clans = ["Bonsai", None, "Koi", None, None][: 3 + seed % 3]
    out = play_random_game(
        RULES, clans, {"season_set": "random", "shrines": "random"}, seed=1000 + seed, check_every=40
    )
    assert RULES.outcome(out.state) is not None


def _apply(state, seat, cmd, events, seed):
    new = RULES.decide(state, seat, cmd, rng_factory(seed, len(events) + 1))
    for e in new:
        e = roundtrip(e)
        events.append(e)
        if not e.type.startswith("core."):
            state = RULES.evolve(state, e)
    return state


@pytest.mark.parametrize("players", [3, 5])
def test_every_listed_command_and_default_is_accepted(players):
    rnd = random.Random(players)
    seed = f"contract-{players}"
    events = [
        roundtrip(e) for e in RULES.start([None] * players, {"season_set": "teapot"}, rng_factory(seed, 1))
    ]
    state = fold(RULES, events)
    steps = 0
    while RULES.outcome(state) is None:
        steps += 1
        for p in RULES.pending(state):
            legal = RULES.legal_commands(state, p.seat)
            cmds = list(legal.commands)
            if legal.sample:
                cmds += [legal.sample(rnd) for _ in range(3)]
            cmds.append(RULES.default_command(state, p.seat))
            for cmd in rnd.sample(cmds, min(len(cmds), 12)):
                cmd = json.loads(canonical_json(dict(cmd)))
                try:
                    RULES.decide(state, p.seat, cmd, rng_factory(seed, len(events) + 1))
                except IllegalCommand as exc:  # pragma: no cover - the assertion is the point
                    raise AssertionError(f"{cmd} refused: {exc.reason}") from exc
        p = rnd.choice(RULES.pending(state))
        legal = RULES.legal_commands(state, p.seat)
        cmd = (
            rnd.choice(legal.commands)
            if legal.commands and rnd.random() < 0.7
            else RULES.default_command(state, p.seat)
        )
        state = _apply(state, p.seat, json.loads(canonical_json(dict(cmd))), events, seed)
        assert steps < 3000
    assert fold(RULES, events) == state


def test_nobody_pending_has_no_commands_but_gifts():
    out = play_random_game(RULES, [None] * 4, {}, seed=7, check_every=1000, check_views=False)
    assert RULES.pending(out.state) == [] and RULES.legal_commands(out.state, 0).empty
    assert RULES.view(out.state, None)["result"] is not None


def test_fuzzed_commands_are_refused_cleanly():
    """Any well-typed command is either accepted or refused with a RulesError."""
    from games.rules.base import RulesError
    from games.rules.rising_sun.commands import SHAPES

    rnd = random.Random(3)
    strs = [
        "Edo",
        "Kansai",
        "bushi",
        "shinto",
        "Komainu",
        "Yurei",
        "recruit",
        "betray",
        "Fujin",
        "0:bushi",
        "stronghold",
        "Path of the Lion",
        "nowhere",
        "shrine:Fujin",
        "decline",
        "1",
    ]
    out = play_random_game(RULES, [None] * 4, {}, seed=11, check_every=1000, check_views=False)
    events = out.events
    for cut in range(40, len(events), max(1, len(events) // 60)):
        state = fold(RULES, events[:cut])
        if RULES.outcome(state) is not None:
            break
        for _ in range(15):
            t = rnd.choice(sorted(SHAPES))
            req, opt = SHAPES[t].required, SHAPES[t].optional
            cmd = {"type": t}
            for name, kind in {**req, **{k: v for k, v in opt.items() if rnd.random() < 0.5}}.items():
                cmd[name] = rnd.randint(-1, 6) if kind is int else rnd.choice(strs)
            seat = rnd.randrange(4)
            try:
                RULES.decide(state, seat, cmd, rng_factory("fuzz", cut))
            except RulesError:
                pass


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_invariants_hold_at_every_step(seed):
    out = play_random_game(
        RULES,
        [None] * (3 + seed % 3),
        {"season_set": "random"},
        seed=seed,
        check_every=1000,
        check_views=False,
    )
    state = RULES.initial_state()
    for e in out.events:
        if e.type.startswith("core."):
            continue
        state = RULES.evolve(state, e)
        if "player_count" not in state:
            continue
        assert sorted(state["honor"]) == list(range(state["player_count"]))
        for seat, p in enumerate(state["players"]):
            assert p["coins"] >= 0 and p["ronin"] >= 0 and p["vp"] >= 0, (seat, p)
            assert len(p["strongholds"]) <= 4
            assert (
                sum(1 for f in state["figures"].values() if f["owner"] == seat and f["type"] != "monster")
                == 10
            )
        assert sum(1 for x in state["alliances"] if x is not None) % 2 == 0


def test_every_commitment_is_revealed_by_the_end():
    from games.rules.base import commitment_of

    for seed in (31, 32):
        out = play_random_game(
            RULES, ["Lotus", None, None, None], {}, seed=seed, check_every=1000, check_views=False
        )
        commits = {
            e.payload["key"]: e.payload["commitment"] for e in out.events if e.type == "core.ChoiceCommitted"
        }
        reveals = {
            r["key"]: r for e in out.events if e.visible_to is None for r in e.payload.get("reveals", ())
        }
        assert set(commits) == set(reveals)
        for key, r in reveals.items():
            assert commitment_of(r["salt"], r["choice"]) == commits[key]
