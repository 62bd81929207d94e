"""War bids of the `heuristic` bot. Coins are worth nothing after the season's
last war (cleanup takes them), so each battle gets the share of the coins its
province is worth among the wars the seat still fights this season, and the
share goes where it buys most:

- ahead in Force: Take Hostage (a rival's figure out, 1 VP stolen) and
  Imperial Poets (1 VP per figure killed) when there is something to kill;
- behind by what Ronin can close: Hire Ronin, then Take Hostage;
- hopelessly behind: Seppuku with 2+ figures there (they die anyway; 1 VP and
  1 Honor each), else nothing (the coins go to a later war).

Random rivals spread a random part of their coins over the 4 advantages, so a
few coins on one advantage usually take it."""

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


def plan(view: Mapping[str, Any], seat: int) -> dict[str, int]:
    t = Table(view, seat)
    prov = view["battle"]["province"]
    money = budget(t, prov)
    mine = t.force[prov][seat]
    rivals = [t.force[prov][q] for q in view["battle"]["participants"] if q not in (seat, t.ally)]
    gap = max(rivals, default=0) - mine
    out = dict.fromkeys(ADVANTAGES, 0)
    if gap < 0 or (gap == 0 and t.chance(prov) >= 0.5):
        kills = _figures_at(view, prov, False, seat)
        out["hostage"] = min(money, ENOUGH)
        out["poets"] = min(money - out["hostage"], ENOUGH) if kills >= 2 else 0
    elif gap < _ronin(view, seat):
        out["ronin"] = min(money, ENOUGH + 1)
        out["hostage"] = min(money - out["ronin"], ENOUGH)
    elif _figures_at(view, prov, True, seat) >= 2:
        out["seppuku"] = min(money, 2)
    return out


def bid(view: Mapping[str, Any], seat: int, cmds: list[Command]) -> Command | None:
    return {"type": "bid", **plan(view, seat)}
