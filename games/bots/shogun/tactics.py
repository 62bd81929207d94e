"""Rule-based decisions once the plan is revealed: execute or decline an action,
where armies attack or move, which special card to take. A one-ply lookahead
prices these on one sampled tower throw (a battle is a coin flip there), so they
are decided from the public tower's odds and the seat's own plan instead."""

from __future__ import annotations

from typing import Any

from games.rules.shogun import data

from . import board, odds
from .board import View
from .plan import attack_cost, attack_gain

Command = dict[str, Any]
ATTACK_MARGIN = 0.3  # VP an attack must be worth over what its armies cost
REVOLT_RISK = 0.2  # the highest chance of losing a province to a collection revolt taken


def _current(view: View, seat: int) -> tuple[str, str]:
    """(action, planned province) of the seat's action under way."""
    r = view["round"]
    action = r["actions"][r["cur"]["i"]]
    return action, r["plans"][str(seat)][action]


def _still_to_come(view: View) -> list[str]:
    """Action spaces not yet executed this season (face-up later ones and face-down)."""
    r = view["round"]
    later = r["actions"][r["cur"]["i"] + 1 :]
    result: list[str] = later + [a for a in data.ACTION_IDS if a not in r["actions"]]
    return result


def reserve(view: View, seat: int) -> int:
    """Chests kept for the seat's builds still to come this season."""
    plan = view["round"]["plans"][str(seat)]
    total = 0
    for action in _still_to_come(view):
        a = data.ACTIONS[action]
        prov = plan.get(action)
        if "build" in a and data.is_province(prov) and board.can_build(view, seat, prov, a["build"]):
            total += a["cost"]
    return total


def revolt_chance(view: View, seat: int, prov: str) -> float:
    """Chance that collecting in `prov` loses it: its markers' peasants against its
    armies (the peasants win ties)."""
    markers = view["provinces"][prov]["markers"]
    return 1.0 - odds.hold_chance(view, seat, prov, markers) if markers else 0.0


def execute_or_decline(view: View, seat: int) -> Command:
    action, prov = _current(view, seat)
    a = data.ACTIONS[action]
    money = view["players"][seat]["money"]
    go = True
    if "collect" in a:
        go = revolt_chance(view, seat, prov) <= REVOLT_RISK
        if a["collect"] == "rice":
            go = go and board.rice_need(view, seat) > 0
    elif "armies" in a:
        go = money - a["cost"] >= reserve(view, seat)
        if action == "recruit1":
            go = go and bool(board.hostile(view, seat, prov))
    return {"type": "execute"} if go else {"type": "decline"}


def _move_value(view: View, seat: int, prov: str, move: Command) -> float:
    to, armies = move["to"], move["armies"]
    if view["provinces"][to]["owner"] == seat:
        # reinforcing: armies carried from a quiet province to a border one
        if board.hostile(view, seat, prov) or not board.hostile(view, seat, to):
            return 0.0
        result: float = 0.05 * armies
        return result
    chance = odds.win_chance(view, seat, to, armies)
    return chance * attack_gain(view, seat, to) - attack_cost(view, to, armies) - ATTACK_MARGIN


def move(view: View, seat: int, legal: list[Command]) -> Command:
    """The best legal move (every army that may leave), or decline. Where the
    rules forbid declining (option `forced_execution`) the least bad move: a move
    into an own province, else the best odds."""
    _, prov = _current(view, seat)
    most = view["provinces"][prov]["armies"] - 1
    moves = [c for c in legal if c["type"] == "move" and c["armies"] == most]
    scored = [(_move_value(view, seat, prov, c), c) for c in moves]
    best = max(scored, key=lambda x: x[0], default=(0.0, None))
    if best[1] is not None and best[0] > 0:
        return best[1]
    if any(c["type"] == "decline" for c in legal):
        return {"type": "decline"}
    own = [c for c in legal if view["provinces"][c["to"]]["owner"] == seat]
    return min(own, key=lambda c: c["armies"]) if own else (best[1] or legal[0])


def special(view: View, seat: int, legal: list[Command]) -> Command:
    """The special card that helps the seat's own plan most; earlier slots break ties."""
    r = view["round"]
    plan = r["plans"][str(seat)]
    provs = view["provinces"]

    def planned(action: str) -> bool:
        card = plan.get(action)
        return data.is_province(card) and provs[card]["owner"] == seat

    worth = {
        "recruit6": 0.3 if planned("recruit5") and view["players"][seat]["money"] >= 3 else 0.0,
        "taxes": 0.3 if planned("taxes") else 0.0,
        "rice": 0.4 if planned("rice") and board.rice_need(view, seat) > 0 else 0.0,
        "attack": 0.3 * sum(planned(a) for a in ("attackA", "attackB")),
        "defence": 0.15,
    }
    return max(legal, key=lambda c: worth.get(r["specials"][c["slot"] - 1], 0.0) - 0.01 * c["slot"])
