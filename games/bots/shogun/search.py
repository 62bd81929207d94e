"""What the `mcts` bot searches in Shogun (games/bots/paired.py): the seasonal
plan, whose worth shows only when its actions resolve, tested against variants
of the rules' plan (variants.py); and each attack, the rules' move tested against
the other moves the heuristic lists and the decline. Playouts run to the end of
the season and the forecast (forecast.py) scores it."""

from __future__ import annotations

from typing import Any

from .forecast import reward
from .variants import variants

__all__ = ["SEARCHED", "STAGES", "WIDTH", "reward", "stage", "variants"]

# Attacks ({"move", "decline"}): with the forecast as reward, +11.5/+6.7/+2.2 points pairwise
# at 3/4/5 seats (paired, seeds 0-49 at 1 s CPU; games/bots/README.md). A decline is
# searched only where moves are its alternatives: an action's decline against its
# execution ("execute" is not searched) is played as the rules answer it.
SEARCHED: frozenset[str] = frozenset({"plan", "move", "decline"})
WIDTH = 8  # candidates per searched decision: the rules' answer and up to 7 others
STAGES = 1  # playouts stop when the season changes once


def stage(state: Any) -> Any:
    return (state.get("year"), state.get("season"))
