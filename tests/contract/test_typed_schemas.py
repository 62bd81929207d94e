"""The typed contract cannot drift (issue 16 item 1): every command (listed and
sampled), every view (each seat and the spectator) and every event payload of
random games of every ruleset validates against the JSON Schemas the ruleset
declares in data/schemas/, and the platform's core.* events against
games/data/core_events.json. Seeds differ from those scripts/draft_schemas.py
drafted the schemas from."""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from games.rules import registry, schemas
from games.rules.base import canonical_json, fold, rng_factory
from games.rules.testing import pick, roundtrip

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [*registry.PRODUCTION, "toy-auction"]  # the toy declares its schemas like the real ones


def _validator(schema) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _check(validator, obj, what):
    errors = sorted(validator.iter_errors(obj), key=lambda e: list(e.absolute_path))
    assert not errors, (
        f"{what}: {errors[0].message} at {list(errors[0].absolute_path)}\n{json.dumps(obj)[:800]}"
    )


class Checker:
    def __init__(self, ruleset: str):
        self.commands = {t: _validator(s) for t, s in (schemas.load(ruleset, "commands") or {}).items()}
        self.view = _validator(schemas.load(ruleset, "view"))
        declared = schemas.load(ruleset, "events")
        self.events = None if declared is None else {t: _validator(s) for t, s in declared.items()}
        self.core = {t: _validator(s) for t, s in schemas.core_events().items()}
        self.seen = {"commands": set(), "events": set(), "views": 0}

    def command(self, c):
        assert c["type"] in self.commands, f"command type {c['type']!r} has no schema"
        _check(self.commands[c["type"]], c, f"command {c['type']}")
        self.seen["commands"].add(c["type"])

    def event(self, e):
        if e.type.startswith("core."):  # the engines' commit-reveal records (games/rules/base.py)
            assert e.type in self.core, f"core event type {e.type!r} has no schema"
            _check(self.core[e.type], dict(e.payload), f"event {e.type}")
            return
        if self.events is None:
            return
        assert e.type in self.events, f"event type {e.type!r} has no schema"
        _check(self.events[e.type], dict(e.payload), f"event {e.type}")
        self.seen["events"].add(e.type)

    def views(self, rules, state, players):
        for seat in [None, *range(players)]:
            _check(self.view, json.loads(canonical_json(rules.view(state, seat))), f"view of seat {seat}")
            self.seen["views"] += 1


def _play(ruleset: str, seed: int, players: int) -> Checker:
    rules = registry.load_strict(ruleset)
    chk = Checker(ruleset)
    rnd = random.Random(seed)
    game_seed = f"typed-{seed}"
    events = [roundtrip(e) for e in rules.start([None] * players, {}, rng_factory(game_seed, 1))]
    for e in events:
        chk.event(e)
    state = fold(rules, events)
    chk.views(rules, state, players)
    steps = 0
    while rules.outcome(state) is None:
        p = rnd.choice(rules.pending(state))
        legal = rules.legal_commands(state, p.seat)
        for c in legal.commands:
            chk.command(json.loads(canonical_json(dict(c))))
        if legal.sample is not None:
            for _ in range(2):
                chk.command(json.loads(canonical_json(dict(legal.sample(rnd)))))
        cmd = json.loads(canonical_json(dict(pick(legal, rnd))))
        chk.command(cmd)
        for e in rules.decide(state, p.seat, cmd, rng_factory(game_seed, len(events) + 1)):
            e = roundtrip(e)
            chk.event(e)
            state = state if e.type.startswith("core.") else rules.evolve(state, e)
            events.append(e)
        steps += 1
        if steps % 7 == 0:
            chk.views(rules, state, players)
        assert steps < 20000
    chk.views(rules, state, players)
    return chk


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [101, 202])
def test_random_games_match_the_declared_schemas(ruleset, seed):
    rules = registry.load_strict(ruleset)
    players = rules.max_players if seed % 2 else rules.min_players
    chk = _play(ruleset, seed, players)
    assert chk.seen["commands"] and chk.seen["views"] > players
    if chk.events is None:
        pytest.skip(
            f"{schemas.schema_dir(ruleset) / 'events.json'} is missing: "
            f"{ruleset}'s event payloads are not declared yet (commands and views were checked)"
        )
    assert chk.seen["events"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_declares_commands_and_view(ruleset):
    for kind in ("commands", "view"):
        assert schemas.load(ruleset, kind), f"{ruleset} declares no {kind}.json"
    for t, s in schemas.load(ruleset, "commands").items():
        assert s["properties"]["type"] == {"const": t}, t


def test_every_core_event_the_services_write_is_declared():
    declared = schemas.core_events()
    for s in declared.values():
        Draft202012Validator.check_schema(s)
    files = [*(ROOT / "games" / "services").glob("*.py"), ROOT / "games" / "rules" / "base.py"]
    src = "\n".join(p.read_text() for p in files)
    written = set(re.findall(r'"(core\.[A-Z]\w+)"', src))
    assert written and written <= set(declared), sorted(written - set(declared))


@pytest.mark.django_db
def test_core_events_written_by_the_services_match_their_schemas():
    """Start, play, message, pause/resume, takeback, abort: every stored core.*
    payload validates against games/data/core_events.json."""
    from django.contrib.auth import get_user_model

    from events.models import StoredEvent
    from games.bots import choose
    from games.models import Game
    from games.services import audit, lobby, pause, play, press, undo
    from games.services.errors import ServiceError
    from games.services.state import load_state

    users = [get_user_model().objects.create_user(f"core{i}", password="x") for i in range(3)]
    game = lobby.create_game(users[0], "shogun", 3)
    for u in users[1:]:
        lobby.join(game.id, u)
    lobby.start(game.id, users[0])
    rules, rnd = registry.load_strict("shogun"), random.Random(4)
    for _ in range(6):
        game.refresh_from_db()
        state = load_state(game)
        p = rnd.choice(rules.pending(state))
        play.submit(game.id, users[p.seat], choose(rules, state, p.seat, rnd))
    press.send(game.id, users[0], "hello", None)
    press.send(game.id, users[1], "psst", [2])
    pause.vote(game.id, users[0], "pause")
    pause.vote(game.id, users[0], "resume")
    game.refresh_from_db()
    last = StoredEvent.objects.filter(stream=game.id, cause__isnull=False).order_by("-seq").first()
    with contextlib.suppress(ServiceError):  # refused when the last batch cannot be taken back
        undo.request(game.id, users[last.cause["seat"]])
    audit.abort(game.id, users[0], "done")
    assert Game.objects.get(id=game.id).status == Game.Status.ABORTED
    core = {t: _validator(s) for t, s in schemas.core_events().items()}
    seen = set()
    for row in StoredEvent.objects.filter(stream=game.id, type__startswith="core.").order_by("seq"):
        assert row.type in core, row.type
        _check(core[row.type], row.payload, row.type)
        seen.add(row.type)
    assert {
        "core.GameStarted",
        "core.MessageSent",
        "core.GamePaused",
        "core.GameResumed",
        "core.GameAborted",
        "core.SeedRevealed",
    } <= seen, seen
