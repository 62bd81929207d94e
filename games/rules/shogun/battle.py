"""Battles through the cube tower (reference 8.1 / 8.2, Appendix R #11 #25).

`fight` computes a whole battle from the state and an rng and returns the JSON payload of
one `BattleFought` event; `evolve` applies it without re-deciding anything.

Kinds: ``neutral`` (player attacks an empty province: attackers + 1 green, 2 under event
E03), ``attack`` (player vs player: all attackers vs all defending armies; green cubes
that fall out fight for the defender only if the province has no revolt marker),
``revolt`` (collection revolt: green = markers) and ``famine`` (winter: green = extra +
markers, no special or event modifiers).
"""

from __future__ import annotations

from typing import Any

from games.rules.base import Rng

from . import data
from . import state as shogun_state
from .base_reveal import reveal_planned_card
from .state import State
from .tower import drop, model_for

GREEN = data.GREEN


def _defence_bonus(state: State, seat: int, prov: str, kind: str) -> int:
    """Extra defender cubes from supply: Defence special, castle event (not in winter)."""
    if kind == "famine":
        return 0
    bonus = int(shogun_state.special(state, seat).get("defence_cubes", 0))
    if shogun_state.event(state).get("effect") == "castle_defence" and state["provinces"][prov]["castle"]:
        bonus += 1
    return min(bonus, shogun_state.supply(state, seat))


def _devastated() -> dict[str, Any]:
    return {"owner": None, "armies": 0, "castle": False, "temple": False, "theatre": False, "markers": 0}


def fight(
    state: State,
    rng: Rng,
    kind: str,
    prov: str,
    attacker: int | None = None,
    origin: str | None = None,
    moving: int = 0,
    green: int = 0,
    version: int = data.RULES_VERSION,
) -> dict[str, Any]:
    p = state["provinces"][prov]
    defender = p["owner"]
    att_cubes, def_cubes = 0, 0
    if attacker is not None:
        att_cubes = moving + min(
            shogun_state.special(state, attacker).get("attack_cubes", 0), shogun_state.supply(state, attacker)
        )
    if defender is not None:
        def_cubes = p["armies"] + _defence_bonus(state, defender, prov, kind)
    if kind == "neutral":
        green = shogun_state.event(state).get("green", 1)
    thrown: list[int] = []
    if attacker is not None:
        thrown += [attacker] * att_cubes
    if defender is not None:
        thrown += [defender] * def_cubes
    thrown += [GREEN] * green
    tower = drop(state["tower"], thrown, rng, model_for(version))
    out = tower["tray"]
    a = out.count(attacker) if attacker is not None else 0
    d = out.count(defender) if defender is not None else 0
    g = out.count(GREEN)
    green_counts = kind != "attack" or p["markers"] == 0
    result, after = _resolve(kind, shogun_state.raw_province(p), attacker, a, d, g if green_counts else 0)
    counted = {x for x in (attacker, defender) if x is not None}
    if green_counts:
        counted.add(GREEN)
    tower["tray"] = [c for c in out if c not in counted]
    payload: dict[str, Any] = {
        "kind": kind,
        "province": prov,
        "attacker": attacker,
        "defender": defender,
        "from": origin,
        "armies": moving,
        "thrown": {"attacker": att_cubes, "defender": def_cubes, "green": green},
        "out": {"attacker": a, "defender": d, "green": g, "green_counts": green_counts},
        "result": result,
        "after": after,
        "tower": tower,
        "tiles": [b for b in data.BUILDINGS if shogun_state.raw_province(p)[b] and not after[b]],
    }
    if defender is not None and after["owner"] != defender:
        payload["lost"] = [defender, prov]
        payload["reveals"] = reveal_planned_card(state, defender, prov)
    return payload


def _resolve(
    kind: str, province: dict[str, Any], attacker: int | None, attackers: int, defenders: int, green: int
) -> tuple[str, dict[str, Any]]:
    """Win / loss / tie arithmetic. `g` = green cubes that count for the peasant side or
    (player battles) for the defender."""
    keep = {k: province[k] for k in ("owner", "armies", "castle", "temple", "theatre", "markers")}
    if kind == "neutral":
        if attackers > green:
            return "conquered", {**_devastated(), "owner": attacker, "armies": attackers - green}
        return "repelled", keep
    if kind in ("revolt", "famine"):
        if green >= defenders:  # 0-0 included: the revolt succeeds
            return "revolted", _devastated()
        return "suppressed", {**keep, "armies": defenders - green}
    total = defenders + green
    if attackers > total:
        return "conquered", {**keep, "owner": attacker, "armies": attackers - total}
    if total > attackers and defenders > 0:  # winning with peasants only is a tie [frsum]
        return "held", {**keep, "armies": min(total - attackers, defenders)}
    return "devastated", _devastated()
