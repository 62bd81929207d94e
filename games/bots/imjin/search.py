"""What the `mcts` bot searches in Imjin (games/bots/paired.py): battles and
marches, whose worth shows when the dice fall and the turn ends; playouts run to
the end of the next seat's turn."""

from __future__ import annotations

from typing import Any

SEARCHED = frozenset(
    {"attack", "fight", "confirm", "cancel", "support", "move"}
)  # types whose rule answer is tested
WIDTH = 3  # candidates per searched decision: the rules' answer and 2 alternatives
STAGES = 2  # playouts stop when the seat whose turn it is has changed twice


def stage(state: Any) -> Any:
    flow = state.get("flow") or {}
    return flow.get("turn")
