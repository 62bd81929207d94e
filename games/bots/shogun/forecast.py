"""The reward at the end of the `mcts` bot's rollouts (games/bots/paired.py): the
final score a Shogun position forecasts for each seat, and how far the seat is
forecast to finish ahead of each rival.

Why, with the measurements and history: docs/modules.md, `games/bots/shogun/forecast.py`.
"""

from __future__ import annotations

import math
from typing import Any

from games.rules.shogun import state as shogun_state
from games.rules.shogun.scoring import score

SPREAD = 8.0  # forecast VP by which a seat leads a rival for a pair reward of tanh(1) ~ 0.76
# per (year, season): vp, winter score, money, rice, armies, tower cubes, famine, revolt markers
WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {
    (1, 0): (1.0, 1.3, 0.95, 0.4, 1.2, 1.5, -1.0, -0.8),
    (1, 1): (1.0, 1.3, 0.95, 0.4, 1.2, 1.5, -1.0, -0.8),
    (1, 2): (1.1, 1.3, 0.9, 0.4, 1.3, 1.6, -1.0, -0.6),
    (1, 3): (1.0, 1.55, 0.5, 0.2, 0.8, 1.0, -1.8, -0.2),
    (2, 0): (1.1, 0.45, 0.5, 0.2, 0.75, 0.9, -0.5, -0.2),
    (2, 1): (1.1, 0.45, 0.3, 0.3, 0.6, 0.7, -0.5, -0.2),
    (2, 2): (1.05, 0.75, 0.15, 0.3, 0.3, 0.25, -0.5, -0.2),
    (2, 3): (1.0, 0.95, 0.0, 0.1, 0.05, 0.1, -0.8, -0.1),
}


def _features(s: Any, q: int, winter: list[dict[str, Any]]) -> tuple[float, ...]:
    p = s["players"][q]
    owned = shogun_state.owned(s, q)
    return (
        p["vp"],
        winter[q]["total"],
        p["money"],
        p["rice"],
        sum(s["provinces"][n]["armies"] for n in owned),
        shogun_state.in_tower(s, q),
        max(0, len(owned) - p["rice"]),
        sum(s["provinces"][n]["markers"] for n in owned),
    )


def worths(s: Any) -> list[float]:
    """Each seat's forecast final score (at the end: its score, winners a half more)."""
    res = s.get("result")
    if res is not None:
        return [float(v) + (0.5 if q in res["winners"] else 0.0) for q, v in enumerate(res["scores"])]
    weights = WEIGHTS.get((int(s.get("year", 1)), int(s.get("season", 0))), WEIGHTS[(2, 3)])
    winter = score(s)
    return [sum(w * f for w, f in zip(weights, _features(s, q, winter), strict=True)) for q in range(s["n"])]


def reward(s: Any, seat: int) -> float:
    """The rollout's reward in [-1, 1]: how far the seat is forecast to finish ahead
    of each rival, squashed pair by pair and averaged. Per pair rather than against
    the best rival alone: the pairwise rank counts too, and a seat far behind the
    leader would otherwise see every plan score the same."""
    if shogun_state.phase_of(s) == "init":
        return 0.0
    worth = worths(s)
    rivals = [q for q in range(len(worth)) if q != seat]
    return sum(math.tanh((worth[seat] - worth[q]) / SPREAD) for q in rivals) / len(rivals)
