"""How good an Imjin position is for a seat's side: the game is won on lands (then
generals killed, then income) at the third Reset, or at once by 12 lands, by Japan
holding two of 平安西道/黃海右道/京畿右道, or by the allies standing in both Tsushima
channels; so lands and income count most, and each step toward an instant win
counts extra. Troops on the map hold the lands (and supply lines keep them),
generals lead the sieges and the battles, the stock pays everything. Relative to
the other side."""

from __future__ import annotations

from typing import Any

from games.rules.imjin import data, victory
from games.rules.imjin import state as imjin_state

AVOID = ("cancel",)  # undoing a declaration changes nothing: picking it can loop forever
INCOME = 2.0
LAND = 1.0
TROOP = 0.25
STOCK = 0.1
GENERAL = 0.8
KEY = 6.0  # per instant-win area held (Japan: 2 of the 3 allied keys; allies: both channels)


def _keys(s: Any, side: str) -> int:
    iw = data.rules()["instant_win"]
    if side == "japan":
        return sum(1 for a in iw["japan_any_2_of"] if s["control"].get(a) == "japan")
    return sum(1 for a in iw["allies_all_of"] if imjin_state.side_in(s, a) == "allies")


def _worth(s: Any, side: str) -> float:
    v: float = INCOME * imjin_state.income(s, side) + LAND * imjin_state.lands_of(s, side)
    v += TROOP * imjin_state.troops_on_map(s, side) + STOCK * sum(
        s["supply"][x] for x in imjin_state.side_seats(s, side)
    )
    on_map = [g for g in s["generals"].values() if g["where"] == "map" and s["side"][g["owner"]] == side]
    v += GENERAL * len(on_map) + KEY * _keys(s, side)
    return v


def evaluate(s: Any, seat: int) -> float:
    res = s.get("result")
    if res is not None:
        return 1000.0 if seat in res["winners"] else -1000.0
    if s.get("stage") != "play":
        return 0.0
    side = s["side"][seat]
    return _worth(s, side) - _worth(s, imjin_state.other(side))


def area_worth(s: Any, side: str, area: str) -> float:
    """What taking `area` from the other side is worth to `side` (evaluation points):
    its income and land count on both sides, and the instant-win step it makes or
    removes."""
    info = data.areas()[area]
    iw = data.rules()["instant_win"]
    worth = 2 * INCOME * (info["supply"] or 0)
    if info["type"] == "land":
        worth += 2 * LAND
        if area in iw["japan_any_2_of"]:
            worth += KEY
    elif area in iw["allies_all_of"]:
        worth += KEY
    elif info.get("special") is None:
        worth = 0.0
    return worth


def urgent(s: Any, side: str) -> bool:
    """The last deck is out (the next Reset ends the game) and the final count
    (lands, generals killed, income, stock) would not give `side` the win: every
    land now counts more than troops or supply."""
    last = int(data.rules()["deck"]["end_on_reset_draw"]) - 1
    return int(s.get("resets", 0)) >= last and victory.final(s)[0] != side
