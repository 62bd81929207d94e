"""How good an Imjin position is for a seat's side: the game is won on income
(then lands) at the third Reset, so income and lands count most; troops on the
map hold them (and supply lines keep them), generals lead the sieges and the
battles, the stock pays reinforcements. Relative to the other side."""

from __future__ import annotations

from typing import Any

from games.rules.imjin import state as imjin_state

AVOID = ("cancel",)  # undoing a declaration changes nothing: picking it can loop forever
INCOME = 2.0
LAND = 1.0
TROOP = 0.25
STOCK = 0.1
GENERAL = 0.8


def _worth(s: Any, side: str) -> float:
    v = INCOME * imjin_state.income(s, side) + LAND * imjin_state.lands_of(s, side)
    v += TROOP * imjin_state.troops_on_map(s, side) + STOCK * sum(
        s["supply"][x] for x in imjin_state.side_seats(s, side)
    )
    on_map = [g for g in s["generals"].values() if g["where"] == "map" and s["side"][g["owner"]] == side]
    v += GENERAL * len(on_map)
    return v


def evaluate(s: Any, seat: int) -> float:
    res = s.get("result")
    if res is not None:
        return 1000.0 if seat in res["winners"] else -1000.0
    if s.get("stage") != "play":
        return 0.0
    side = s["side"][seat]
    return _worth(s, side) - _worth(s, imjin_state.other(side))
