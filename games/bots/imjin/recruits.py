"""Where to recruit (§3.4): where troops are needed (the front: lands worth taking
nearby, enemy units next door), onto units led by generals first, keeping a stock
for the marches and battles to come. The lookahead alone recruited wherever its
random sample of commands pointed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from games.rules.imjin import recruit

from . import moves

KEEP = 6  # supply left after recruiting (a march of a full unit costs 4)
LED = 2.0  # extra need of a unit led by a general (its bonus dice)


def best_recruit(
    s: Any, seat: int, legal: Sequence[Mapping[str, Any]], prompt: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The recruitment that puts most troops where they are needed, or None (done)."""
    side = s["side"][seat]
    prize = moves.prizes(s, side)
    best: tuple[float, str, dict[str, Any]] | None = None
    for cmd in legal:
        if cmd.get("type") != "recruit":
            continue
        # the engine's helper is typed for its own prompt dict, which this is
        p = cast(dict[str, Any], prompt)
        cost = recruit.total_cost(s, p, prompt["count"] + cmd["count"]) - recruit.total_cost(
            s, p, prompt["count"]
        )
        if s["supply"][seat] - cost < KEEP:
            continue
        need = 1.0 + moves.front(s, side, cmd["area"], prize)
        uid = cmd.get("unit")
        if uid is not None and s["units"][uid]["general"] is not None:
            need += LED
        value = need * cmd["count"] / max(1, cost) + 0.01 * cmd["count"]  # more troops on ties
        key = f"{cmd['area']}:{uid}:{cmd['count']}"
        if best is None or (value, key) > best[:2]:
            best = (value, key, dict(cmd))
    return None if best is None else best[2]
