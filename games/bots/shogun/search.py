"""What the `mcts` bot searches in Shogun (games/bots/paired.py): the seasonal
plan, whose worth shows only when its actions resolve, tested against variants
of the rules' plan (variants.py); playouts run to the end of the season."""

from __future__ import annotations

from typing import Any

from .forecast import reward
from .variants import variants

__all__ = ["SEARCHED", "STAGES", "WIDTH", "reward", "stage", "variants"]

# Searching the attacks ({"move", "decline"}) won 16 of 40 games against 20 for the rules'
# answers (games/bots/README.md, mcts A/B): the rules' attacks are played as they are.
SEARCHED: frozenset[str] = frozenset({"plan"})
WIDTH = 8  # candidates per searched decision: the rules' plan and 7 variants
STAGES = 1  # playouts stop when the season changes once


def stage(state: Any) -> Any:
    return (state.get("year"), state.get("season"))
