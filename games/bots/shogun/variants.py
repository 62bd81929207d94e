"""Alternatives to the rule-based plan for the `mcts` bot's paired search
(games/bots/paired.py): the plan with two action spaces' cards swapped (a
province moved to another action, or two provinces trading actions), and the
plan bidding a chest more for the turn order. The static values of plan.py
rank the swaps, so the search spends its rollouts on the near misses of the
greedy assignment rather than on plans the rules already know are poor."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from games.rules.shogun import data

from . import plan
from .board import View

Command = dict[str, Any]
BIDS = (1, 2)  # chests bid in the bid variants (the rules bid 0)


def _static(spaces: dict[str, Any], table: dict[tuple[str, str], float]) -> float:
    return sum(max(0.0, table.get((a, spaces.get(a) or ""), 0.0)) for a in data.ACTION_IDS)


def _swapped(spaces: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    out = dict(spaces)
    out[a], out[b] = spaces[b], spaces[a]
    return out


def _kind(action: str) -> str:
    """What an action space does: build, collect, recruit or attack."""
    a = data.ACTIONS[action]
    return next(k for k in ("build", "collect", "armies", "move") if k in a)


def swaps(view: View, seat: int, own: Command) -> list[Command]:
    """Plans with two action spaces' cards swapped (at least one a province): swaps
    across kinds of action first (a build traded for a recruit changes the season
    more than a castle traded for a temple), best static value first within each;
    the two attack spaces never trade (the same attack, a step later)."""
    spaces = own["spaces"]
    table = {(a, p): v for v, a, p in plan.values(view, seat)}
    scored = []
    for a, b in combinations(data.ACTION_IDS, 2):
        if not (data.is_province(spaces.get(a)) or data.is_province(spaces.get(b))):
            continue
        if _kind(a) == _kind(b) == "move":
            continue
        alt = _swapped(spaces, a, b)
        scored.append((_kind(a) == _kind(b), -_static(alt, table), a, b, alt))
    scored.sort(key=lambda x: x[:4])
    return [{"type": "plan", "spaces": alt} for *_, alt in scored]


def bids(view: View, seat: int, own: Command) -> list[Command]:
    """The plan bidding `BIDS` chests instead (the chest card trades places with the bid's)."""
    spaces = own["spaces"]
    money = view["players"][seat]["money"]
    out = []
    for n in BIDS:
        card = f"chest{n}"
        where = next((k for k, c in spaces.items() if c == card), None)
        if n > money or where is None or spaces.get("bid") == card:
            continue
        out.append({"type": "plan", "spaces": _swapped(spaces, "bid", where)})
    return out


def variants(view: View, seat: int, own: Command, width: int, rng: random.Random) -> list[Command]:
    """Up to `width - 1` alternatives to the rules' plan `own` (other command types: none)."""
    if own.get("type") != "plan":
        return []
    alts = bids(view, seat, own)[:1] + swaps(view, seat, own)
    return alts[: width - 1]
