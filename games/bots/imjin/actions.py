"""Which action to take on the wheel (§3.2). A one-ply lookahead sees the income a
Supply/General action collects at once but nothing of a Move/Battle action
(its battles come later), so alone it kept collecting. Here: march when there
is a land to take or a battle worth fighting and supply to pay for it (or
whenever the stock is rich, or the end is near and the final count is lost),
collect when the stock runs low, recruit when troops are short; never pay for a
third step (2p)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.imjin import data
from games.rules.imjin import state as imjin_state

from . import battles, moves, position

LOW_STOCK = 8  # below this, collect first: moves and battles cost 1 per troop
RECRUIT_STOCK = 10  # recruiting needs a stock beyond what marching needs
WORTH_MARCHING = 1.0  # evaluation points a Move/Battle action must promise
RICH = 25  # a stock this large pays for marching and fighting whatever the board shows


def reachable(
    s: Mapping[str, Any], seat: int, legal: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Action -> the cheapest advance reaching it (free steps first, then fewer)."""
    spaces = data.rules()["wheel"]["spaces"]
    here = s["wheel"][s["side"][seat]]
    out: dict[str, dict[str, Any]] = {}
    paid = data.rules()["wheel"]["paid_step_2p"]["steps"] if s["n"] == 2 else None
    for cmd in sorted(legal, key=lambda c: c["steps"]):
        if cmd.get("type") != "advance" or cmd["steps"] == paid:
            continue
        out.setdefault(spaces[(here + cmd["steps"]) % len(spaces)], dict(cmd))
    return out


def march_worth(s: Any, seat: int) -> float:
    """What a Move/Battle action now could bring: its best battle or its best capture."""
    side = s["side"][seat]
    prize = moves.prizes(s, side)
    best = 0.0
    for uid, u in s["units"].items():
        if u["owner"] != seat:
            continue
        for area in data.adjacency()[u["area"]]:
            if area in prize and moves.side_at(s, area) is None:
                best = max(best, prize[area] - position.STOCK * u["troops"])
            for t, x in s["units"].items():
                if x["area"] == area and s["side"][x["owner"]] != side:
                    draft = {"target": t, "main": uid, "via": None, "mode": "normal", "supports": []}
                    best = max(best, battles.worth(s, seat, draft, best))
    return best


def choose(s: Any, seat: int, legal: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    can = reachable(s, seat, legal)
    stock = s["supply"][seat]
    side = s["side"][seat]
    if "move_battle" in can and position.urgent(s, side) and stock > 0:
        return can["move_battle"]  # the end is near and the count is lost: fight for lands
    if "move_battle" in can and (
        stock >= RICH or (stock >= LOW_STOCK and march_worth(s, seat) >= WORTH_MARCHING)
    ):
        return can["move_battle"]
    if "supply_general" in can and stock < RECRUIT_STOCK:
        return can["supply_general"]
    if "recruit_reorganize" in can and stock >= RECRUIT_STOCK and imjin_state.reserve(s, side) > 0:
        return can["recruit_reorganize"]
    for action in ("supply_general", "move_battle", "recruit_reorganize"):
        if action in can:
            return can[action]
    return None
