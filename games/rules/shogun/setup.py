"""start(): options, colours, starting chests, tower seeding, the first year's events and
the start provinces (beginner set-up, or the draft which then runs as player decisions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import Event, RngFactory

from . import data, draft
from . import events as ev
from .context import Ctx
from .event_cards import year_events
from .flow import advance
from .options import normalise
from .state import State, Tower, initial
from .tower import drop, empty, model_for
from .tower_secret import publish


def colours(factions: list[str | None], rng: RngFactory) -> list[str]:
    """Keep chosen colours; give the seats without one a random free colour."""
    free = [c for c in data.COLOURS if c not in factions]
    free = rng("colours").shuffled(free)
    return [f if f is not None else free.pop() for f in factions]


def start(
    factions: Sequence[str | None],
    opts: Mapping[str, Any] | None,
    rng: RngFactory,
    version: int = data.RULES_VERSION,
) -> list[Event]:
    opts = normalise(opts, version)
    n = len(factions)
    ctx = Ctx(initial(), rng, version)
    ctx.emit(
        ev.GAME_STARTED,
        {
            "opts": opts,
            "colours": colours(list(factions), rng),
            "money": data.SETUP["starting_money"][n],
            "in_play": list(data.in_play(n)),
        },
    )
    seed_tower(ctx)
    ctx.emit(ev.YEAR_BEGAN, {"year": 1, "events": year_events(ctx, [])})
    if opts["setup"] == "beginner":
        deal_beginner(ctx)
    else:
        draft.begin(ctx)
    advance(ctx)
    return ctx.events


def seed_tower(ctx: Ctx) -> None:
    """7 armies per player + 10 green into the empty tower; what falls out goes back to
    the supplies - with Tenno's Court each fallen army becomes an official in the
    vestibule (seed). From rules version 4 what stays inside is committed, not shown."""
    s = ctx.state
    seed = data.SETUP["tower_seed"]
    cubes = [seat for seat in range(s["n"]) for _ in range(seed["armies_per_player"])]
    cubes += [data.GREEN] * seed["green"]
    thrown = drop(empty(), cubes, ctx.stream("tower-seed"), model_for(ctx.version))
    ctx.emit(ev.TOWER_SEEDED, publish(ctx, seeding(s, thrown)))


def seeding(state: State, tower: Tower) -> dict[str, Any]:
    """The TowerSeeded payload for a thrown tower `t`: the tray is emptied."""
    fell = [tower["tray"].count(seat) for seat in range(state["n"])]
    officials = [min(k, data.OFFICIALS) if state["opts"]["tennos_court"] else 0 for k in fell]
    return {
        "tower": {"l1": tower["l1"], "l2": tower["l2"], "tray": []},
        "fell": fell,
        "green_fell": tower["tray"].count(data.GREEN),
        "officials": officials,
    }


def deal_beginner(ctx: Ctx) -> None:
    """Fixed set-ups from the rules supplement: letter A to seat 0, B to seat 1, ..."""
    table = data.SETUP["beginner"][ctx.state["n"]]
    placements = [
        [prov, seat, armies]
        for seat, letter in enumerate(sorted(table))
        for prov, armies in table[letter].items()
    ]
    ctx.emit(ev.PROVINCES_DEALT, {"placements": placements})
