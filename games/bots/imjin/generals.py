"""Which general to deploy where (§3.3): the one with most battle dice onto the
biggest unit where battles are coming (the front), once the stock can spare the
5 it costs. The lookahead alone deployed a random card onto a random unit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.imjin import combat, data

from . import moves, recruits

COST = 5


def strength(gid: str) -> float:
    """Battle dice a general adds or takes (land and sea averaged) plus a little for HP."""
    own = combat.OWN_DICE.get(gid, (0, 0))
    foe = combat.ENEMY_DICE.get(gid, (0, 0))
    return (sum(own) + sum(foe)) / 2 + 0.1 * int(data.generals()[gid]["hp"])


def best_pick(legal: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Setup: the card with most battle dice (the engine keeps the 4-HP limit)."""
    picks = [c for c in legal if c.get("type") == "pick_general"]
    return dict(max(picks, key=lambda c: (strength(c["general"]), c["general"]))) if picks else None


def best_deploy(
    s: Any, seat: int, legal: Sequence[Mapping[str, Any]], kind: str = "deploy"
) -> dict[str, Any] | None:
    """The deploy (or setup placement) worth most, or None (done) when the stock
    cannot spare it."""
    if kind == "deploy" and s["supply"][seat] < COST + recruits.KEEP:
        return None
    side = s["side"][seat]
    prize = moves.prizes(s, side)
    best: tuple[float, str, dict[str, Any]] | None = None
    for cmd in legal:
        if cmd.get("type") != kind:
            continue
        unit = s["units"][cmd["unit"]]
        value = (1 + strength(cmd["general"])) * (unit["troops"] + moves.front(s, side, unit["area"], prize))
        key = f"{cmd['general']}:{cmd['unit']}"
        if best is None or (value, key) > best[:2]:
            best = (value, key, dict(cmd))
    return None if best is None else best[2]
