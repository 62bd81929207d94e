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
# 4 candidates (the rules' plan, the chest bid and the 2 best swaps across kinds of action)
# rather than 8: with 7 alternatives the successive halving keeps the luckiest and a switch
# at 1 standard error was taken at nearly every plan decision (winner's curse); 3 alternatives
# share every round, with no halving (games/bots/README.md, mcts A/B).
WIDTH = 4
STAGES = 1  # playouts stop when the season changes once


def stage(state: Any) -> Any:
    return (state.get("year"), state.get("season"))
