"""How likely an attack through the cube tower wins, from the public tower (the tray
and the cubes inside per colour).

A closed form rather than simulated throws (a decision must stay near a few ms):
the engine's calibrated tower lets about 73% of a throw's cubes through and
releases about 0.26 stuck cubes per cube thrown (games/rules/shogun/README.md,
"The cube tower"); the released ones are drawn from what is stuck, colour by
colour. Cubes out per side are then near normal, and the attacker wins when his
exceed the defence (peasants included)."""

from __future__ import annotations

import math
from typing import Any

from games.rules.shogun import data

THROUGH = 0.73  # share of a throw's cubes that fall out
RELEASED = 0.26  # stuck cubes knocked out per cube thrown


def _inside(tower: dict[str, Any], colour: int) -> int:
    """Cubes of `colour` stuck inside: the per-colour count every seat sees (the view
    never shows which level holds them, and this estimate does not need it)."""
    counts = tower["inside"]
    return int(counts["green"] if colour == data.GREEN else counts["seats"][colour])


def _side(tower: dict[str, Any], colour: int, new: int, thrown: int) -> tuple[float, float]:
    """Mean and variance of the cubes of `colour` that come out of a throw."""
    stuck = sum(tower["inside"]["seats"]) + tower["inside"]["green"]
    mine = new + tower["tray"].count(colour)
    share = _inside(tower, colour) / stuck if stuck else 0.0
    loose = RELEASED * thrown * share
    return THROUGH * mine + loose, THROUGH * (1 - THROUGH) * mine + loose


def _beats(tower: dict[str, Any], thrown: int, att: tuple[int, int], defs: list[tuple[int, int]]) -> float:
    """Chance the attacking side's cubes out exceed the defending sides' (colour, new cubes)."""
    mean, var = _side(tower, att[0], att[1], thrown)
    for colour, new in defs:
        m, v = _side(tower, colour, new, thrown)
        mean, var = mean - m, var + v
    spread = math.sqrt(var) or 1.0
    return 0.5 * (1 + math.erf((mean - 0.5) / (spread * math.sqrt(2))))


def _event(view: dict[str, Any]) -> dict[str, Any]:
    return data.EVENTS.get(view.get("event") or "", {}) if not view.get("event_cancelled") else {}


def _bonus(view: dict[str, Any], seat: int, key: str) -> int:
    special = view["players"][seat].get("special")
    return int(data.SPECIALS[special].get(key, 0)) if special else 0


def win_chance(view: dict[str, Any], seat: int, target: str, armies: int) -> float:
    """Chance that `armies` of the seat attacking `target` take it."""
    p = view["provinces"][target]
    tower = view["tower"]
    owner = p["owner"]
    moving = armies + _bonus(view, seat, "attack_cubes")
    if owner is None:
        green = int(_event(view).get("green", 1))
        thrown = moving + green + len(tower["tray"])
        return _beats(tower, thrown, (seat, moving), [(data.GREEN, green)])
    defenders = p["armies"] + _bonus(view, owner, "defence_cubes")
    defenders += int(_event(view).get("effect") == "castle_defence" and p["castle"])
    thrown = moving + defenders + len(tower["tray"])
    defs = [(owner, defenders)]
    if p["markers"] == 0:  # peasants fight for a defender without unrest
        defs.append((data.GREEN, 0))
    return _beats(tower, thrown, (seat, moving), defs)


def hold_chance(view: dict[str, Any], seat: int, prov: str, green: int) -> float:
    """Chance the seat's armies in `prov` put down a revolt of `green` peasants
    (the peasants win ties)."""
    p = view["provinces"][prov]
    own = p["armies"] + _bonus(view, seat, "defence_cubes")
    own += int(_event(view).get("effect") == "castle_defence" and p["castle"])
    thrown = own + green + len(view["tower"]["tray"])
    return _beats(view["tower"], thrown, (seat, own), [(data.GREEN, green)])
