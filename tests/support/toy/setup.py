"""`start`: the factions (free seats dealt at random) and the first prize."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import Event, RngFactory

from . import events

FACTIONS = ("red", "blue", "green", "yellow")


def factions(players: int) -> tuple[str, ...]:
    return FACTIONS[:players]


def start(chosen: Sequence[str | None], options: Mapping[str, Any], rng: RngFactory) -> list[Event]:
    free = [faction for faction in factions(len(chosen)) if faction not in chosen]
    free = rng("factions").shuffled(free)
    final = [faction if faction else free.pop() for faction in chosen]
    return [
        Event(events.STARTED, {"factions": final, "coins": options.get("coins", 10)}),
        Event(events.PRIZE_DRAWN, {"round": 1, "prize": rng("prize").randint(1, 6)}),
    ]
