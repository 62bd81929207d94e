"""War bids of the `heuristic` bot. Coins are worth nothing after the season's
last war (cleanup takes them), so each battle gets the share of the coins its
province is worth among the wars the seat still fights this season, and the
share goes where it buys most:

Why, with the measurements and history: docs/modules.md, `games/bots/rising_sun/bids.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.rising_sun.state import ADVANTAGES

from .board import Table

Command = dict[str, Any]
ENOUGH = 3  # coins that usually take an advantage from random rivals


def _ronin(view: Mapping[str, Any], seat: int) -> int:
    p = view["players"][seat]
    return int(p["ronin"]) + (int(p["coins"]) if p["clan"] == "Koi" else 0)


def budget(t: Table, prov: str) -> int:
    """The part of the seat's coins this battle deserves."""
    coins = int(t.view["players"][t.seat]["coins"])
    later = t.wars[t.wars.index(prov) + 1 :] if prov in t.wars else []
    stakes = [t.worth[p] for p in later if t.force[p][t.seat] > 0 and t.chance(p) > 0.1]
    if not stakes:
        return coins
    here = t.worth.get(prov, 1.0) or 1.0
    return min(coins, round(coins * here / (here + sum(stakes))) + 1)


def _figures_at(view: Mapping[str, Any], prov: str, mine: bool, seat: int) -> int:
    return sum(1 for f in view["figures"].values() if f["at"] == prov and (f["owner"] == seat) == mine)


def _ahead(out: dict[str, int], money: int, kills: int) -> None:
    """Take Hostage (a rival's figure out, 1 VP), Imperial Poets when the win kills 2+."""
    out["hostage"] = min(money, max(ENOUGH, money // 2))
    if kills >= 2:
        out["poets"] = money - out["hostage"]


def _behind(out: dict[str, int], money: int, mine: int, deaths: int) -> None:
    """Lost: Seppuku turns the seat's doomed figures into VP and Honor, Imperial
    Poets pays for every figure that dies (the seat's own included)."""
    if mine >= 2:
        out["seppuku"] = min(money, 2)
    if deaths >= 2:
        out["poets"] = min(money - out["seppuku"], ENOUGH)


def plan(view: Mapping[str, Any], seat: int) -> dict[str, int]:
    t = Table(view, seat)
    prov = view["battle"]["province"]
    money = budget(t, prov)
    parts = view["battle"]["participants"]
    force = {q: t.force[prov][q] for q in parts}
    strongest = max((q for q in parts if q != seat), key=lambda q: (force[q], -t.rank(q)))
    # the Force the seat lacks to win (a tie goes to the higher Honor)
    need = force[strongest] - force[seat] + (1 if t.rank(strongest) < t.rank(seat) else 0)
    out: dict[str, int] = dict.fromkeys(ADVANTAGES, 0)
    if need <= 0:
        _ahead(out, money, _figures_at(view, prov, False, seat))
    elif need <= 1 + _ronin(view, seat):
        # a hostage takes one of the strongest rival's figures; Ronin add the rest
        out["hostage"] = min(money, ENOUGH + 1)
        if need > 1:
            out["ronin"] = min(money - out["hostage"], ENOUGH + 1)
    else:
        deaths = sum(1 for f in view["figures"].values() if f["at"] == prov and f["owner"] != strongest)
        _behind(out, money, _figures_at(view, prov, True, seat), deaths)
    return out


def bid(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    return {"type": "bid", **plan(view, seat)}
