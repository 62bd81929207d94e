"""What the `mcts` bot searches in Rising Sun (games/bots/paired.py): the war
bids, the mandate choice and the battle prompts (hostage, seppuku...), whose worth
shows when the season's wars resolve; playouts run to the end of the season."""

from __future__ import annotations

from typing import Any

SEARCHED = frozenset({"bid", "choose_mandate", "choose"})  # command types whose rule answer is tested
WIDTH = 3  # candidates per searched decision: the rules' answer and 2 alternatives
STAGES = 1  # playouts stop when the season changes once


def stage(state: Any) -> Any:
    return state.get("season")
