"""Engine-only contract checks, shared by every ruleset's tests (no Django).

`play_random_game` plays a seeded random game through the contract exactly as
the platform does (including the JSON round trip of every event) and checks,
at every step: pending seats have legal commands; every offered command is
accepted; replay equals incremental state; no seat's view mentions another
seat's private event payload before the game ends.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .base import Event, IllegalCommand, LegalSet, Ruleset, canonical_json, fold, rng_factory, views


def roundtrip(e: Event) -> Event:
    """What the store gives back: payload through canonical JSON."""
    return Event(
        e.type,
        json.loads(canonical_json(dict(e.payload))),
        e.version,
        None if e.visible_to is None else tuple(e.visible_to),
    )


def pick(legal: LegalSet, rnd: random.Random) -> Mapping[str, Any]:
    if legal.commands and (legal.sample is None or rnd.random() < 0.8):
        return rnd.choice(legal.commands)
    assert legal.sample is not None, "templates without a sampler: a naive bot cannot act"
    return legal.sample(rnd)


@dataclass
class Playout:
    state: Any
    events: list[Event] = field(default_factory=list)
    commands: int = 0


def play_random_game(
    rules: Ruleset,
    factions: list[str | None],
    options: Mapping[str, Any],
    seed: int,
    max_commands: int = 20000,
    check_every: int = 50,
    check_views: bool = True,
) -> Playout:
    rnd = random.Random(seed)
    game_seed = f"seed-{seed}"
    events = [roundtrip(e) for e in rules.start(factions, options, rng_factory(game_seed, 1))]
    state = fold(rules, events)
    out = Playout(state, list(events))
    while rules.outcome(state) is None:
        pend = rules.pending(state)
        assert pend, "game not over but nobody is pending"
        p = rnd.choice(pend)
        legal = rules.legal_commands(state, p.seat)
        assert not legal.empty, f"seat {p.seat} pending ({p.kind}) but has no legal command"
        cmd = json.loads(canonical_json(dict(pick(legal, rnd))))
        default = rules.default_command(state, p.seat)
        assert default is not None, f"no default command for pending seat {p.seat}"
        try:
            new = rules.decide(state, p.seat, cmd, rng_factory(game_seed, len(out.events) + 1))
        except IllegalCommand as exc:  # pragma: no cover - the assertion is the point
            raise AssertionError(f"legal command refused: {cmd}: {exc.reason}") from exc
        assert new, f"command {cmd} produced no event"
        for e in new:
            e2 = roundtrip(e)
            state = rules.evolve(state, e2) if not e2.type.startswith("core.") else state
            out.events.append(e2)
        out.commands += 1
        assert out.commands <= max_commands, "game did not terminate"
        if out.commands % check_every == 0:
            assert fold(rules, out.events) == state, "replay differs from incremental state"
            if check_views:
                assert_no_leak(rules, state, out.events, len(factions))
                assert_views_agree(rules, state, len(factions))
    assert fold(rules, out.events) == state, "replay differs from incremental state"
    out.state = state
    return out


def assert_views_agree(rules: Ruleset, state: Any, players: int) -> None:
    """An engine's `views` (built together) equals its `view`, seat by seat."""
    seats: list[int | None] = [None, *range(players)]
    for order in (seats, seats[::-1]):
        assert views(rules, state, order) == {seat: rules.view(state, seat) for seat in seats}


def assert_no_leak(rules: Ruleset, state: Any, events: list[Event], players: int) -> None:
    """No view of seat s (or a spectator) contains the salt of a private event of
    another seat: salts are unguessable, so finding one is a leak."""
    secrets: list[tuple[tuple[int, ...], str]] = []
    for e in events:
        if e.visible_to is not None and "salt" in e.payload:
            secrets.append((tuple(e.visible_to), str(e.payload["salt"])))
    revealed = set()
    for e in events:
        for r in e.payload.get("reveals", ()) if e.visible_to is None else ():
            revealed.add(r.get("salt"))
    for seat in [None, *range(players)]:
        text = canonical_json(rules.view(state, seat))
        for seen_by, salt in secrets:
            if salt in revealed or (seat is not None and seat in seen_by):
                continue
            assert salt not in text, f"view of seat {seat} leaks a secret of seats {seen_by}"
