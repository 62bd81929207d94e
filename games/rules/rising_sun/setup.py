"""Game setup (rulebook "Preparación"): clans, seating and Honor by starting
rank, home figures and Stronghold, shrines, season set, mandate deck."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import BadCommand, Event, RngFactory
from . import events as ev
from .data import BOARD, CLAN_NAMES, CLANS, MANDATES, SETS, SHRINES
from .state import Figure, State, new_player

OPTIONS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "season_set": {
            "type": "string",
            "enum": ["archway", "horseman", "teapot", "random"],
            "default": "archway",
            "description": "Season card set added to the 21 core cards.",
        },
        "shrines": {
            "type": "string",
            "enum": ["random", "first_game"],
            "default": "random",
            "description": "4 random Kami shrines, or the first-game Amaterasu/Fujin/Hachiman/Tsukuyomi.",
        },
    },
}


def options_of(options: Mapping[str, Any] | None) -> dict[str, str]:
    options = dict(options or {})
    extra = set(options) - {"season_set", "shrines"}
    if extra:
        raise BadCommand(f"unknown option(s): {sorted(extra)}")
    out = {"season_set": options.get("season_set", "archway"), "shrines": options.get("shrines", "random")}
    if out["season_set"] not in (*SETS, "random"):
        raise BadCommand("season_set must be archway, horseman, teapot or random")
    if out["shrines"] not in ("random", "first_game"):
        raise BadCommand("shrines must be random or first_game")
    return out


def start(
    factions: Sequence[str | None], options: Mapping[str, Any], rng: RngFactory, version: int
) -> list[Event]:
    opts = options_of(options)
    n = len(factions)
    if not 3 <= n <= 5:
        raise BadCommand("Rising Sun is for 3 to 5 players")
    chosen = [f for f in factions if f is not None]
    if any(f not in CLANS for f in chosen) or len(set(chosen)) != len(chosen):
        raise BadCommand(f"clans must be distinct, among {CLAN_NAMES}")
    free = rng("clans").shuffled([c for c in CLAN_NAMES if c not in chosen])
    clans = [f if f is not None else free.pop(0) for f in factions]
    card_set = opts["season_set"]
    if card_set == "random":
        card_set = rng("season-set").choice(list(SETS))
    if opts["shrines"] == "first_game":
        shrines = list(BOARD["first_game_shrines"])
    else:
        shrines = rng("shrines").shuffled(list(SHRINES))[:4]
    tiles = [m for m in MANDATES for _ in range(BOARD["mandates"][m])]
    deck = rng("mandates").shuffled(tiles)
    wars = rng("war-tokens:0:0").shuffled(list(BOARD["provinces"]))
    hidden: dict[str, Any] = {"orders": [deck]}
    if version >= 3:  # a private event carries a salt, or its hash gives the order away
        hidden["salt"] = rng("salt:mandates-shuffled").salt()
    return [
        Event(ev.MANDATES_SHUFFLED, hidden, visible_to=()),
        Event(ev.SETUP, {"clans": clans, "season_set": card_set, "shrines": shrines, "draws": [wars]}),
    ]


def initial_state(version: int) -> State:
    return {"secret_draws": [], "result": None, "position": [], "phase": "setup", "rules_version": version}


def build(state: State, payload: Mapping[str, Any]) -> State:
    clans = list(payload["clans"])
    n = len(clans)
    seating = sorted(range(n), key=lambda seat: CLANS[clans[seat]]["rank"])
    figs = {}
    for seat, c in enumerate(clans):
        counts = BOARD["figures_per_clan"]
        for t in ("daimyo", "shinto", "bushi"):
            for i in range(counts[t]):
                figs[f"{seat}:{t}{i}"] = Figure({"owner": seat, "type": t, "name": t, "at": "reserve"})
        figs[f"{seat}:daimyo0"]["at"] = CLANS[c]["home"]
        figs[f"{seat}:bushi0"]["at"] = CLANS[c]["home"]
    hidden = list(state["secret_draws"])
    deck = list(hidden.pop(0))
    return {
        "player_count": n,
        "clans": clans,
        "seating": seating,
        "honor": list(seating),
        "players": [new_player(c) for c in clans],
        "figures": figs,
        "shrines": list(payload["shrines"]),
        "season_set": payload["season_set"],
        "season": 0,
        "display": [],
        "mandate_deck": deck,
        "track": [],
        "holder": seating[0],
        "alliances": [None] * n,
        "proposals": [],
        "position": [],
        "secret_draws": hidden,
        "result": None,
        "phase": "setup",
        "war_provinces": [],
        "battle": None,
        "commit_count": 0,
        "lotus_tiles": [],
        "winter": None,
        "rules_version": state.get("rules_version", 2),
        "closed_proposals": [],
    }
