"""Game data loaded once from ``data/*.yaml`` (a fix to a card or a province is a data change)."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import yaml

_DIR = os.path.join(os.path.dirname(__file__), "data")


def _load(name: str) -> Any:
    with open(os.path.join(_DIR, name), encoding="utf-8") as f:
        return yaml.safe_load(f)


MAP = _load("map.yaml")
SETUP = _load("setup.yaml")
CARDS = _load("cards.yaml")
TABLES = _load("tables.yaml")

PROVINCES: dict[str, dict[str, Any]] = MAP["provinces"]
NAMES: list[str] = sorted(PROVINCES)
EDGES: list[tuple[str, str, bool]] = [(e[0], e[1], len(e) > 2) for e in MAP["edges"]]
ADJ: dict[str, tuple[str, ...]] = {
    n: tuple(sorted({b for a, b, _ in EDGES if a == n} | {a for a, b, _ in EDGES if b == n})) for n in NAMES
}
REGION_COLOURS = ["brown", "yellow", "red", "purple", "green"]

ACTIONS: dict[str, dict[str, Any]] = CARDS["actions"]
ACTION_IDS: list[str] = list(ACTIONS)  # board order of the 10 action spaces
EVENTS: dict[str, dict[str, Any]] = CARDS["events"]
EVENT_IDS: list[str] = sorted(EVENTS)
SPECIALS: dict[str, dict[str, Any]] = CARDS["specials"]
SPECIAL_IDS: list[str] = list(SPECIALS)
FAVOURS: dict[int, dict[str, Any]] = {int(k): v for k, v in CARDS["favours"].items()}
FAVOUR_IDS: list[int] = sorted(FAVOURS)
FAVOUR_COSTS: list[int] = CARDS["favour_costs"]
COURT_SPACES: list[str] = CARDS["court_spaces"]  # court3, court2, court1
SAMURAI: list[dict[str, Any]] = CARDS["samurai"]
BUILDINGS = ("castle", "temple", "theatre")
COLOURS: list[str] = SETUP["colours"]
ARMIES: int = SETUP["armies_per_player"]
OFFICIALS: int = SETUP["officials_per_player"]
CHESTS: list[int] = SETUP["war_chest_cards"]
GREEN = -1  # the peasants' colour in tower lists (seats are 0..4)
RULES_VERSION = 4  # the current rules version (rules.py keeps versions 1-3 reachable for old games)


def court_size(space: str) -> int:
    """court3 -> 3: the number of armies the space converts."""
    return int(space[-1])


@cache
def regions(board: str) -> dict[str, str]:
    """Province -> region colour on that board side."""
    return {n: p[board] for n, p in PROVINCES.items()}


@cache
def in_play(players: int) -> tuple[str, ...]:
    if players == 3:
        return tuple(n for n in NAMES if not PROVINCES[n]["out_3p"])
    return tuple(NAMES)


def chest_cards() -> list[str]:
    return [f"chest{v}" for v in CHESTS]


def tower_cards() -> list[str]:
    return [f"tower{i}" for i in range(1, SETUP["tower_cards_per_player"] + 1)]


def chest_value(card: object) -> int:
    """Bid value of a card: a chest card counts its value; anything else counts 0 [seed]."""
    if isinstance(card, str) and card.startswith("chest"):
        return int(card[5:])
    return 0


def is_province(card: object) -> bool:
    return isinstance(card, str) and card in PROVINCES


def famine_row(shortfall: int) -> tuple[int, int]:
    """(provinces that revolt, extra green cubes per revolt) for a rice shortfall."""
    best = (0, 0)
    for low, revolts, extra in TABLES["famine"]:
        if shortfall >= low:
            best = (revolts, extra)
    return best
