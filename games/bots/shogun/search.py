"""What the `mcts` bot searches in Shogun (games/bots/paired.py): where tried, attacks and
executions, whose worth shows when the season's actions resolve; playouts run
to the end of the season."""

from __future__ import annotations

from typing import Any

# Empty: searching the attacks ({"move", "decline"}) won 16 of 40 games against 20 for the
# rules' answers (games/bots/README.md, mcts A/B), so the rules' answers are played as they are.
SEARCHED: frozenset[str] = frozenset()
WIDTH = 3  # candidates per searched decision: the rules' answer and 2 alternatives
STAGES = 1  # playouts stop when the season changes once


def stage(state: Any) -> Any:
    return (state.get("year"), state.get("season"))
