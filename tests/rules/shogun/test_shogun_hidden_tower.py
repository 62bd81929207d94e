"""Issue 31: nobody sees inside the cube tower (rules version 4, tower_secret.py).

At the table the players see the cubes that fall into the tray and can count what has not
come out; nobody sees which cubes stick on which baffle level. So no seat's view, no
spectator's, no public event, no log line and no board shows the levels while the game
runs; they show the tray and the cubes inside per colour. The levels are committed after
every throw (a `TowerSettled` visible to no seat + a public commitment of seat -1) and
revealed when the game ends, so the audit re-checks each commitment and the replay of the
finished game's export re-derives every throw. Games of rules versions 1-3 replay as
recorded (their public events carry the levels)."""

from __future__ import annotations

import copy
import glob
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from events.codec import GENESIS_HASH, chain_hash
from games import verify
from games.core_events import GameFinished, GameStarted, Result, SeedRevealed
from games.rules.base import COMMITTED, GAME_SEAT, Event, canonical_json, commitment_of, fold, rng_factory
from games.rules.shogun import data
from games.rules.shogun.describe import describe
from games.rules.shogun.rules import RULES
from games.rules.shogun.state import phase_of
from games.rules.testing import pick, roundtrip

G = data.GREEN
SEED = "5e" * 32
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "games"
SETTLED, REVEALED = "shogun.TowerSettled", "shogun.TowerRevealed"


def play(players: int = 3, seed: int = 3, rules=RULES, stop: int | None = None):
    """A seeded random game through the contract: (batches [(seat, command, events)],
    setup events, final state, states after each batch). `stop`: commands to play."""
    rnd = random.Random(seed)
    factions = list(data.COLOURS[:players])
    setup = [roundtrip(e) for e in rules.start(factions, {}, rng_factory(SEED, 1))]
    state = fold(rules, setup)
    seq, batches, states = 2 + len(setup), [], [state]
    while rules.outcome(state) is None and (stop is None or len(batches) < stop):
        p = rnd.choice(rules.pending(state))
        cmd = json.loads(canonical_json(dict(pick(rules.legal_commands(state, p.seat), rnd))))
        new = [roundtrip(e) for e in rules.decide(state, p.seat, cmd, rng_factory(SEED, seq))]
        state = fold(rules, new, state)
        batches.append((p.seat, cmd, new))
        states.append(state)
        seq += len(new)
    return batches, setup, state, states


def export(players: int = 3, seed: int = 3, rules=RULES) -> list[dict]:
    """The full export of a finished game, as the services record it (cause on the first
    event of each command's batch, the outcome, the seed revealed last)."""
    batches, setup, state, _ = play(players, seed, rules)
    factions = list(data.COLOURS[:players])
    started = GameStarted(
        ruleset="shogun",
        rules_version=rules.rules_version,
        players=players,
        options={},
        factions=tuple(factions),
        chosen_factions=tuple(factions),
        seed_commitment=verify.sha256_hex(SEED),
        seats=tuple({"index": i, "user": f"u{i}", "bot": None} for i in range(players)),
    )
    rows = [_row(Event(GameStarted.TYPE, started.payload()))] + [_row(e) for e in setup]
    for seat, cmd, events in batches:
        first = len(rows)
        rows += [_row(e) for e in events]
        rows[first]["cause"] = {"seat": seat, "command": cmd}
    rows.append(
        _row(Event(GameFinished.TYPE, GameFinished(outcome=Result.of(RULES.outcome(state))).payload()))
    )
    rows.append(_row(Event(SeedRevealed.TYPE, SeedRevealed(seed=SEED).payload())))
    return rehash(rows)


def _row(e: Event) -> dict:
    vis = None if e.visible_to is None else sorted(e.visible_to)
    return {
        "type": e.type,
        "version": e.version,
        "payload": json.loads(canonical_json(dict(e.payload))),
        "visible_to": vis,
    }


def rehash(rows: list[dict]) -> list[dict]:
    """Number the rows and (re)build the hash chain, as a careful forger would."""
    prev = GENESIS_HASH
    for i, r in enumerate(rows, 1):
        r["seq"], r["prev_hash"] = i, prev
        r["hash"] = prev = chain_hash(prev, i, r["type"], r["version"], r["payload"])
    return rows


def levels_in(value) -> bool:
    """Does a JSON value name a tower level anywhere?"""
    if isinstance(value, dict):
        return bool({"l1", "l2"} & set(value)) or any(levels_in(v) for v in value.values())
    if isinstance(value, list):
        return any(levels_in(v) for v in value)
    return False


def counts(tower: dict, n: int) -> dict:
    stuck = tower["l1"] + tower["l2"]
    return {"seats": [stuck.count(x) for x in range(n)], "green": stuck.count(G)}


def shuffled_inside(state: dict, rnd: random.Random) -> dict:
    """The same table with the cubes inside moved between the levels (the count per
    colour kept): what no seat can tell apart."""
    twin = copy.deepcopy(state)
    stuck = twin["tower"]["l1"] + twin["tower"]["l2"]
    rnd.shuffle(stuck)
    cut = rnd.randint(0, len(stuck))
    twin["tower"]["l1"], twin["tower"]["l2"] = stuck[:cut], stuck[cut:]
    return twin


# --- what the table shows ------------------------------------------------------------------


@pytest.mark.parametrize("players,seed", [(3, 3), (4, 11), (5, 7)])
def test_no_view_shows_the_levels_only_the_tray_and_the_count_per_colour(players, seed):
    _, _, _, states = play(players, seed)
    rnd = random.Random(seed)
    running = [s for s in states if phase_of(s) != "over"]
    assert len(running) > 50
    for s in running[::7]:
        twin = shuffled_inside(s, rnd)
        for seat in [None, *range(players)]:
            v = RULES.view(s, seat)
            assert set(v["tower"]) == {"tray", "inside"}, f"seat {seat} sees {sorted(v['tower'])}"
            assert v["tower"] == {"tray": s["tower"]["tray"], "inside": counts(s["tower"], players)}
            assert not levels_in(v)
            # the supply stays what anyone can count: 62 - map - inside - tray
            inside = v["tower"]["inside"]["seats"]
            for x in range(players):
                on_map = sum(p["armies"] for p in s["provinces"].values() if p["owner"] == x)
                assert v["supply"][x] == 62 - on_map - inside[x] - s["tower"]["tray"].count(x)
            assert RULES.view(twin, seat) == v  # moving cubes between levels changes no view


def test_the_finished_game_shows_the_levels():
    _, _, state, _ = play(3, 3)
    v = RULES.view(state, None)
    assert v["tower"]["l1"] == state["tower"]["l1"] and v["tower"]["l2"] == state["tower"]["l2"]


@pytest.mark.parametrize("players,seed", [(3, 5), (5, 2)])
def test_no_public_event_shows_the_levels_until_the_end_reveal(players, seed):
    batches, setup, _, _ = play(players, seed)
    events = setup + [e for _, _, batch in batches for e in batch]
    public = [e for e in events if e.visible_to is None and e.type != REVEALED]
    assert not any(levels_in(dict(e.payload)) for e in public)
    seeded = next(e for e in setup if e.type == "shogun.TowerSeeded")
    assert seeded.payload["tower"] == {"tray": []} and sum(seeded.payload["inside"]["seats"]) > 0
    # the only public event naming the levels is the reveal, in the batch that ends the game
    reveal = [e for e in events if e.type == REVEALED]
    assert len(reveal) == 1 and batches[-1][2][-1].type == "shogun.GameEnded"
    assert reveal[0] in batches[-1][2]


def test_each_throw_publishes_the_tray_and_the_count_inside():
    batches, setup, _, _ = play(4, 11)
    state = fold(RULES, setup)
    assert state["tower"]["tray"] == [] and len(state["tower"]["l1"] + state["tower"]["l2"]) > 0
    seen = 0
    for _, _, batch in batches:
        for e in batch:
            state = state if e.type.startswith("core.") else RULES.evolve(state, e)
            if e.type == "shogun.BattleFought":
                seen += 1
                assert e.payload["tower"] == {"tray": state["tower"]["tray"]}
                assert e.payload["inside"] == counts(state["tower"], 4)
    assert seen > 5


def test_no_log_line_shows_the_levels():
    batches, setup, _, states = play(3, 5)
    lines = []
    for (_, _, batch), before in zip(batches, states, strict=False):
        public = [e for e in batch if e.visible_to is None]
        lines.append(describe(before, public, "en"))
        assert describe(before, [e for e in batch if e.type == SETTLED], "en") == ""
    assert any("Tower" in e.type or "Battle" in e.type for _, _, b in batches for e in b)
    assert not any("baffle" in line or "l1" in line for line in lines)


# --- commitments and the reveal -------------------------------------------------------------


def test_every_throw_is_committed_by_the_game_and_revealed_at_the_end():
    batches, setup, state, _ = play(3, 3)
    events = setup + [e for _, _, batch in batches for e in batch]
    settled = [(i, e) for i, e in enumerate(events) if e.type == SETTLED]
    throws = sum(e.type in ("shogun.TowerSeeded", "shogun.BattleFought") for e in events)
    assert len(settled) == throws > 1
    for i, e in settled:
        assert e.visible_to == ()  # private to no seat
        commit = events[i + 1]
        assert commit.type == COMMITTED and commit.visible_to is None
        assert commit.payload["seat"] == GAME_SEAT and commit.payload["key"] == e.payload["key"]
        assert commit.payload["commitment"] == commitment_of(e.payload["salt"], e.payload["choice"])
    assert [e.payload["key"] for _, e in settled] == [f"tower:{k}" for k in range(len(settled))]
    (reveal,) = [e for e in events if e.type == REVEALED]
    assert [(r["seat"], r["key"], r["choice"], r["salt"]) for r in reveal.payload["reveals"]] == [
        (GAME_SEAT, e.payload["key"], e.payload["choice"], e.payload["salt"]) for _, e in settled
    ]
    assert reveal.payload["reveals"][-1]["choice"] == {"l1": state["tower"]["l1"], "l2": state["tower"]["l2"]}


def test_the_audit_rechecks_every_throw_of_the_export():
    rows = export()
    report = verify.verify(rows)
    assert report.ok, verify.format_report(report)
    game = [c for c in report.commitments if c["seat"] == GAME_SEAT]
    assert game and all(c["revealed"] and c["reveal_ok"] for c in game)


def _reveal_row(rows):
    return next(r for r in rows if r["type"] == REVEALED)


def test_the_audit_catches_a_tampered_reveal():
    rows = export()
    item = _reveal_row(rows)["payload"]["reveals"][0]
    item["choice"]["l1"], item["choice"]["l2"] = item["choice"]["l2"], item["choice"]["l1"]
    report = verify.verify(rehash(rows))
    assert report.chain_ok and not report.reveals_ok
    assert any(p.check == "commitment" and "tower:0" in p.detail for p in report.problems)


def test_the_audit_catches_a_reveal_left_out():
    rows = export()
    _reveal_row(rows)["payload"]["reveals"].pop(1)
    report = verify.verify(rehash(rows))
    assert any(p.check == "commitment" and "'tower:1'" in p.detail for p in report.problems)


def test_the_audit_catches_a_consistent_lie_about_the_inside():
    """Hidden contents changed, with a matching commitment and reveal: the replay
    re-derives the throw and finds another outcome."""
    rows = export()
    settled = [r for r in rows if r["type"] == SETTLED][2]
    key, choice, salt = settled["payload"]["key"], settled["payload"]["choice"], settled["payload"]["salt"]
    choice["l1"], choice["l2"] = choice["l2"], choice["l1"]
    commit = rows[rows.index(settled) + 1]
    commit["payload"]["commitment"] = commitment_of(salt, choice)
    for item in _reveal_row(rows)["payload"]["reveals"]:
        if item["key"] == key:
            item["choice"] = choice
    report = verify.verify(rehash(rows))
    assert report.reveals_ok and report.replayed is False
    assert [p.check for p in report.problems] == ["replay"] and report.problems[0].seq == settled["seq"]


# --- older rules versions -------------------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2, 3])
def test_older_rules_versions_keep_the_public_levels(version):
    engine = RULES.for_rules_version(version)
    assert engine.rules_version == version and RULES.rules_version == 4
    batches, setup, _, _ = play(3, 3, engine, stop=60)
    events = setup + [e for _, _, batch in batches for e in batch]
    assert not any(e.type in (SETTLED, REVEALED) for e in events)
    seeded = next(e for e in setup if e.type == "shogun.TowerSeeded")
    assert set(seeded.payload["tower"]) == {"l1", "l2", "tray"} and "inside" not in seeded.payload


@pytest.mark.parametrize(
    "path", sorted(glob.glob(str(FIXTURES / "shogun-*.jsonl"))), ids=lambda p: Path(p).name
)
def test_recorded_games_of_older_versions_replay_unchanged(path):
    rows = verify.load_jsonl(path)
    report = verify.verify(rows)
    assert report.ok and report.replayed, verify.format_report(report)
    if report.rules_version < 4:
        assert not any(r["type"] == SETTLED for r in rows)
        assert Counter(r["type"] for r in rows)["shogun.TowerSeeded"] == 1
