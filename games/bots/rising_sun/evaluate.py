"""How good a Rising Sun position is for a seat: the VP it has plus the Winter VP
it would score now (war tokens, set bonus, Forms), plus what wins VP later:
Force where this season's wars are still to be fought (a war won is a token and
its VP), coins (the war bids), figures on the board, Honor (ties, bids), an ally.
Relative to the best opponent, so a gain that helps everyone helps nobody."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.rules.base import LegalSet
from games.rules.rising_sun.state import ADVANTAGES, force
from games.rules.rising_sun.war import winter_vp

from .plan import decide

__all__ = ["decide", "evaluate", "extra"]

SEASON_VP = (1, 2, 3)
COIN = 0.45  # a coin buys about half a VP in the war bids
FIGURE = 0.6  # a figure on the board: Force in a battle, a province held
HONOR = 0.4  # per place on the Honor track
ALLY = 1.5  # an alliance: shared wins, Loyalty, Form of the Kindred


def _worth(s: Any, q: int) -> float:
    p = s["players"][q]
    v: float = p["vp"] + sum(winter_vp(s, q).values()) + COIN * p["coins"] + 0.3 * p["ronin"]
    v += FIGURE * sum(1 for f in s["figures"].values() if f["owner"] == q and f["at"] not in ("reserve",))
    v += HONOR * (len(s["honor"]) - s["honor"].index(q))
    if s["alliances"][q] is not None:
        v += ALLY
    season = min(s["season"], 2)
    done = next((f["step"] for f in s["position"] if f["kind"] == "war"), 0)
    for prov in s["war_provinces"][done:]:
        forces = {x: force(s, x, prov) for x in range(s["player_count"])}
        mine = forces[q]
        if mine and mine >= max(forces.values()):
            v += SEASON_VP[season] + 1
    return v


def evaluate(s: Any, seat: int) -> float:
    if s.get("result") is not None:
        return 1000.0 if seat in s["result"]["winners"] else -1000.0
    if "player_count" not in s:
        return 0.0
    worth = [_worth(s, q) for q in range(s["player_count"])]
    ally = s["alliances"][seat]
    rivals = [w for q, w in enumerate(worth) if q not in (seat, ally)]
    return worth[seat] - (max(rivals) if rivals else 0.0)


def extra(view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random) -> list[dict[str, Any]]:
    """War bids a sample would rarely draw: a third, two thirds or all of the
    coins on one advantage (the evaluation then prices what each wins)."""
    if not any(c.get("type") == "bid" for c in legal.commands):
        return []
    coins = view["players"][seat]["coins"]
    out: list[dict[str, Any]] = []
    for share in (1, 2, 3):
        for a in ADVANTAGES:
            bid: dict[str, int] = dict.fromkeys(ADVANTAGES, 0)
            bid[a] = coins * share // 3
            out.append({"type": "bid", **bid})
    return out
