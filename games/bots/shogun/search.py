"""What the `mcts` bot searches in Shogun (games/bots/paired.py): attacks and
executions, whose worth shows when the season's actions resolve; playouts run
to the end of the season."""

from __future__ import annotations

from typing import Any

SEARCHED = frozenset({"move", "execute", "decline"})  # command types whose rule answer is tested
WIDTH = 3  # candidates per searched decision: the rules' answer and 2 alternatives
STAGES = 1  # playouts stop when the season changes once


def stage(state: Any) -> Any:
    return (state.get("year"), state.get("season"))
