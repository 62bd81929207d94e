"""Whole games between bots, with the engine only (no database): shared by the
tests and the benchmarks (bench/bots.py). Every command a bot offers goes through
`decide`: a refusal is raised, never skipped."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rules.base import IllegalCommand, Outcome, Ruleset, canonical_json, fold, rng_factory

from . import play
from .base import BotParts

MAX_COMMANDS = 5000


@dataclass
class Match:
    outcome: Outcome
    state: Any
    commands: int
    seconds: dict[str, list[float]] = field(default_factory=dict)  # decision times by bot name


class Refused(AssertionError):
    """A bot offered a command the engine refused."""


def run(
    rules: Ruleset,
    bots: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
    seconds: float = 0.02,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
    *,
    parts: BotParts,
) -> Match:
    """A whole game, bots[i] at seat i; a search bot's `seconds` are counted on
    `clock`, while `Match.seconds` holds every decision's wall time. `parts` are
    the ruleset's bot hooks (its record's `bots` in games/plugins.py)."""
    players = len(bots)
    game_seed = f"arena-{seed}"
    events = rules.start([None] * players, options or {}, rng_factory(game_seed, 1))
    state = fold(rules, events)
    seq = len(events) + 1
    rnd = random.Random(seed)
    times: dict[str, list[float]] = {b: [] for b in bots}
    n = 0
    while (out := rules.outcome(state)) is None:
        pending = rules.pending(state)
        seat = rnd.choice(pending).seat
        name = bots[seat]
        t0 = time.perf_counter()
        rnd_seat = random.Random(f"{seed}:{n}:{seat}")
        cmd = play(rules, state, seat, name, rnd_seat, players, seconds, iterations, clock, parts=parts)
        times[name].append(time.perf_counter() - t0)
        if cmd is None:
            raise Refused(f"{name} had no command for pending seat {seat}")
        cmd = json.loads(canonical_json(cmd))
        try:
            new = rules.decide(state, seat, cmd, rng_factory(game_seed, seq))
        except IllegalCommand as exc:
            raise Refused(f"{name} offered {cmd}: {exc.reason}") from exc
        for e in new:
            if not e.type.startswith("core."):
                state = rules.evolve(state, e)
        seq += len(new)
        n += 1
        if n > MAX_COMMANDS:
            raise RuntimeError(f"game {seed} did not end in {MAX_COMMANDS} commands")
    return Match(out, state, n, times)
