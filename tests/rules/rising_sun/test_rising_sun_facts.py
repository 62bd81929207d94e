"""Rules version 4 (issue 16 item 6): Rising Sun's events state facts. A
recorded game folds to the same states whatever the rules code says now (a
deploy between two moves of a play-by-email game cannot change its past), while
the verifier, which re-decides every command, still sees that the rules changed.
Version 6 (issue 32) states them as named facts, one fold handler each."""

import json
import pickle
import random
from pathlib import Path

import pytest

from games import verify
from games.rules.base import Event, canonical_json, fold, rng_factory
from games.rules.rising_sun import events as ev
from games.rules.rising_sun import politics
from games.rules.rising_sun.facts import SECRET_KEYS
from games.rules.rising_sun.named import HEADERS, MATERIAL, NAMED_TYPES, PositionChanged
from games.rules.rising_sun.rules import RULES
from games.rules.testing import pick, play_random_game, roundtrip
from tests.rules.rising_sun.testkit import Game

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "games"


def _rows(version: int) -> list[list[dict]]:
    out = []
    for path in sorted(FIXTURES.glob("rising-sun-*.jsonl")):
        rows = verify.load_jsonl(str(path))
        if rows[0]["payload"]["rules_version"] == version:
            out.append(rows)
    return out


def _states(rows: list[dict]) -> list:
    """The engine state after every engine event of an export, as the platform folds it."""
    engine = RULES.for_rules_version(rows[0]["payload"]["rules_version"])
    s, out = engine.initial_state(), []
    for r in rows:
        if r["type"].startswith("core."):
            continue
        vis = r.get("visible_to")
        s = engine.evolve(
            s, Event(r["type"], r["payload"], r["version"], None if vis is None else tuple(vis))
        )
        out.append(s)
    return out


def _generous_harvest(monkeypatch) -> None:
    """A rules change: every coin gain of the Political Phase (Harvest, Betray
    rewards...) gives one coin more."""
    real = politics.gain_coins
    monkeypatch.setattr(politics, "gain_coins", lambda s, seat, n, reason: real(s, seat, n + 1, reason))


def test_recorded_v4_games_fold_to_their_states_after_a_rules_change(monkeypatch):
    games = _rows(4)
    assert len(games) >= 3
    recorded = [_states(rows) for rows in games]
    _generous_harvest(monkeypatch)
    for rows, states in zip(games, recorded, strict=True):
        assert _states(rows) == states  # every intermediate state, not only the last
        report = verify.verify(rows, rules=RULES)
        assert not report.replayed and any(p.check == "replay" for p in report.problems), report.problems[:2]


def _record(seed: int, players: int) -> tuple[list[Event], list, list[tuple]]:
    """Play a seeded random game; keep its events, the state after each, and
    every decision (state before, seat, command, rng seq, events it made)."""
    rnd, game_seed = random.Random(seed), f"facts-{seed}"
    events = [roundtrip(e) for e in RULES.start([None] * players, {}, rng_factory(game_seed, 1))]
    state = fold(RULES, events)
    states, decisions = [state], []
    while RULES.outcome(state) is None:
        p = rnd.choice(RULES.pending(state))
        cmd = json.loads(canonical_json(dict(pick(RULES.legal_commands(state, p.seat), rnd))))
        seq = len(events) + 1
        new = [roundtrip(e) for e in RULES.decide(state, p.seat, cmd, rng_factory(game_seed, seq))]
        decisions.append((state, p.seat, cmd, game_seed, seq, new))
        for e in new:
            state = state if e.type.startswith("core.") else RULES.evolve(state, e)
        events += new
        states.append(state)
    return events, states, decisions


def test_games_recorded_here_fold_to_their_states_after_a_rules_change(monkeypatch):
    recorded = [_record(seed, n) for seed, n in ((41, 3), (42, 5))]
    _generous_harvest(monkeypatch)
    changed = 0
    for events, states, decisions in recorded:
        assert fold(RULES, events) == states[-1]
        setup = len(events) - sum(len(d[-1]) for d in decisions)
        s = fold(RULES, events[:setup])
        assert s == states[0]
        for (*_, made), after in zip(decisions, states[1:], strict=True):  # every state on the way
            for e in made:
                s = s if e.type.startswith("core.") else RULES.evolve(s, e)
            assert s == after
        for state, seat, cmd, game_seed, seq, made in decisions:  # the verifier's re-decide
            again = [roundtrip(e) for e in RULES.decide(state, seat, cmd, rng_factory(game_seed, seq))]
            changed += again != made
    assert changed > 0


def test_the_same_change_rewrites_the_past_of_command_style_games(monkeypatch):
    """Why version 4 exists: a version-3 game re-runs the rules code on replay."""
    rows = _rows(3)[0]
    before = _states(rows)
    _generous_harvest(monkeypatch)
    after = _states(rows)
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert changed and any(a.get("players") != b.get("players") for a, b in zip(before, after, strict=True))


def test_unchanged_rules_verify_the_v4_fixtures():
    for rows in _rows(4):
        report = verify.verify(rows, rules=RULES)
        assert report.ok and report.replayed, report.problems[:2]
        assert _states(rows)[-1]["result"] is not None


def test_public_events_state_outcomes_and_hide_nothing_secret():
    out = play_random_game(
        RULES.for_rules_version(5),
        [None] * 4,
        {"season_set": "random"},
        seed=11,
        check_every=10000,
        check_views=False,
    )
    kinds = set()
    for e in out.events:
        if e.type in ev.FACT_EVENTS:
            assert e.version == 2 and "draws" not in e.payload and isinstance(e.payload["outcome"], dict)
            assert not set(e.payload["outcome"].get("set", {})) & {*SECRET_KEYS, "battle_bids"}
            battle = e.payload["outcome"].get("set", {}).get("battle") or {}
            assert "bids" not in battle or battle["revealed"]  # bids are public once revealed
            kinds |= set(e.payload["outcome"])
            for change in e.payload["outcome"].get("players", {}).values():
                kinds |= {f"players.{k}" for k in change}
        assert e.type != ev.MANDATES_SHUFFLED  # the deck order is in the hidden outcome
    # figures moved, coins / VP / Ronin gained or spent, cards taken, the flow, the rest
    assert {
        "figures",
        "set",
        "players",
        "stack",
        "players.coins",
        "players.vp",
        "players.cards",
        "players.ronin",
        "players.war_tokens",
    } <= kinds


def test_version_6_states_named_facts_and_hides_nothing_secret():
    """Every change of figures, coins, VP, Ronin, Honor, cards, war tokens,
    Strongholds and alliances is a named fact after the setup; the position's
    bookkeeping holds none of them and no secret; nothing public carries draws."""
    out = play_random_game(
        RULES, [None] * 4, {"season_set": "random"}, seed=11, check_every=10000, check_views=False
    )
    assert out.state["rules_version"] == 6
    named, bookkeeping = set(), set()
    for e in out.events:
        if e.type in HEADERS:
            assert e.version == 3, e
        if e.visible_to is None:
            assert "draws" not in e.payload and "outcome" not in e.payload or e.type == PositionChanged.TYPE
        if e.type in NAMED_TYPES:
            named.add(e.type)
        if e.type == PositionChanged.TYPE:
            outcome = e.payload.get("outcome") or {}
            assert not set(outcome) - {"set", "unset"}, outcome.keys()
            assert not set(outcome.get("set", {})) & {*SECRET_KEYS, *MATERIAL, "battle_bids"}
            battle = outcome.get("set", {}).get("battle") or {}
            assert "bids" not in battle or battle["revealed"]  # bids are public once revealed
            bookkeeping |= set(outcome.get("set", {}))
        assert e.type != ev.MANDATES_SHUFFLED  # the deck order is in the hidden outcome
    prefix = "rising-sun."
    assert {
        prefix + t
        for t in (
            "FigurePlaced",
            "FigureMoved",
            "FigureKilled",
            "CoinsGained",
            "CoinsPaid",
            "VictoryPointsScored",
            "CardGained",
            "WarTokenWon",
            "SeasonCardsDealt",
            "AlliancesEnded",
        )
    } <= named
    assert {"season", "phase", "battle", "result"} <= bookkeeping


def test_version_6_facts_say_why():
    """A VP gain names its reason: the harvest, a battle advantage, Winter..."""
    out = play_random_game(RULES, [None] * 5, {}, seed=12, check_every=10000, check_views=False)
    reasons = {(e.type.split(".")[1], e.payload["reason"]) for e in out.events if "reason" in e.payload}
    assert {
        ("VictoryPointsScored", "winter"),
        ("CoinsGained", "income"),
        ("CoinsPaid", "season end"),
    } <= reasons
    assert {r for t, r in reasons if t == "FigurePlaced"} >= {"Recruit"}


def _batches(rows: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for r in rows:
        if (r.get("cause") or {}).get("command") is not None:
            out.append([])
        if out and not r["type"].startswith("core.Game") and r["type"] != "core.SeedRevealed":
            out[-1].append(r)
    return out


@pytest.mark.parametrize("version", [4, 6])
def test_ordinary_moves_hold_no_hidden_event_and_stay_takeback_eligible(version):
    """The hidden outcome comes only with a secret change: a summon or a move
    shows everything it did to everybody (takebacks refuse batches with an event
    some other seat cannot see)."""
    moves = public = 0
    for rows in _rows(version):
        for batch in _batches(rows):
            cmd = batch[0]["cause"]["command"]
            if cmd["type"] in ("move", "summon", "place", "build"):
                assert ev.HIDDEN_CHANGED not in [r["type"] for r in batch], batch
                moves += 1
                # (the last move of a mandate may show the next drawer his tiles)
                public += all(r.get("visible_to") is None for r in batch)
    assert moves > 50 and public > 0.8 * moves


@pytest.mark.parametrize("propose", [False, True])
def test_the_end_of_the_tea_ceremony_looks_the_same_with_or_without_a_lapsing_proposal(propose):
    g = Game(["Koi", "Lotus", "Turtle", "Dragonfly", "Bonsai"])
    if propose:
        g.do(0, type="propose_alliance", to=1)
    for seat in range(4):
        g.do(seat, type="tea_done")
    start = len(g.events)
    g.do(4, type="tea_done")
    batch = g.events[start:]
    hidden = [e for e in batch if e.type == ev.HIDDEN_CHANGED]
    assert len(hidden) == 1 and hidden[0].visible_to == ()
    public = [e.type for e in batch if e.visible_to is None]
    assert public == [ev.COMMAND_APPLIED, PositionChanged.TYPE]
    lapsed = hidden[0].payload["outcome"].get("set", {}).get("closed_proposals")
    assert (lapsed is not None) == propose
    assert not any("proposals" in str(e.payload) for e in batch if e.visible_to is None)


@pytest.mark.parametrize("seed", [21, 22])
def test_the_state_is_the_same_straight_from_decide_or_back_from_the_store(seed):
    """Dict order included (the rules iterate bids, figures, recruit slots): the
    platform evolves the events decide returns, the verifier their stored JSON."""
    out = play_random_game(RULES, [None] * 5, {}, seed=seed, check_every=10000, check_views=False)
    raw = fold(RULES, [Event(e.type, e.payload, e.version, e.visible_to) for e in out.events])
    assert pickle.dumps(raw) == pickle.dumps(out.state)


def test_evolve_leaves_the_state_it_is_given_unchanged():
    """evolve shares the untouched parts of the state (no full copy per event):
    no state of a fold may change afterwards."""
    out = play_random_game(RULES, [None] * 4, {}, seed=23, check_every=10000, check_views=False)
    s, states, frozen = RULES.initial_state(), [], []
    for e in out.events:
        if not e.type.startswith("core."):
            s = RULES.evolve(s, e)
            states.append(s)
            frozen.append(pickle.dumps(s))
    assert [pickle.dumps(x) for x in states] == frozen
