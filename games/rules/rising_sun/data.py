"""Game data loaded once from data/*.json (a card or map fix is a data change)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"

BOARD = json.loads((_DIR / "board.json").read_text())
_CARDS = json.loads((_DIR / "cards.json").read_text())
# {"<event type>": JSON Schema (draft 2020-12) of its payload} for every event
# the engine emits at rules version 5 (published in the OpenAPI document)
EVENT_SCHEMAS: dict[str, dict[str, Any]] = json.loads((_DIR / "schemas" / "events.json").read_text())

CARDS: dict[str, dict[str, Any]] = {c["name"]: c for c in _CARDS["cards"]}
ONI: frozenset[str] = frozenset(_CARDS["oni"])
MONSTERS: frozenset[str] = frozenset(n for n, c in CARDS.items() if c["type"] == "monster")
PROVINCES: list[str] = list(BOARD["provinces"])
CLANS: dict[str, dict[str, Any]] = BOARD["clans"]
CLAN_NAMES: list[str] = sorted(CLANS, key=lambda clan: CLANS[clan]["rank"])
SHRINES: list[str] = BOARD["shrines"]
SEASONS: list[str] = BOARD["seasons"]
SETS = ("archway", "horseman", "teapot")
MANDATES: list[str] = list(BOARD["mandates"])
TRACK: list[str] = BOARD["political_track"]

LAND: dict[str, set[str]] = {p: set() for p in PROVINCES}
SEA: dict[str, set[str]] = {p: set() for p in PROVINCES}
for _a, _b in BOARD["land_borders"]:
    LAND[_a].add(_b)
    LAND[_b].add(_a)
for _a, _b in BOARD["shipping_routes"]:
    SEA[_a].add(_b)
    SEA[_b].add(_a)


def season_deck(season: str, card_set: str) -> list[str]:
    """The 12 cards of one season: 7 core + 5 of the chosen set, duplicates listed."""
    out: list[str] = []
    for c in _CARDS["cards"]:
        if c["season"] == season:
            out += [c["name"]] * (c["sets"].get("core", 0) + c["sets"].get(card_set, 0))
    return out


def set_bonus(distinct: int) -> int:
    vp = 0
    for need, bonus in BOARD["set_bonus"]:
        if distinct >= need:
            vp = int(bonus)
    return vp
