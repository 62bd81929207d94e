"""What the `mcts` bot searches in Imjin (games/bots/paired.py): where tried,
battles and marches, whose worth shows when the dice fall and the turn ends;
playouts run to the end of the next seat's turn."""

from __future__ import annotations

from typing import Any

# Empty: searching battles and marches (attack, fight, confirm, cancel, support, move) won
# 22 of 40 games against 19 for the rules' answers, within the noise at 5x the thinking time
# (games/bots/README.md, mcts A/B), so the rules' answers are played as they are.
SEARCHED: frozenset[str] = frozenset()
WIDTH = 3  # candidates per searched decision: the rules' answer and 2 alternatives
STAGES = 2  # playouts stop when the seat whose turn it is has changed twice


def stage(state: Any) -> Any:
    flow = state.get("flow") or {}
    return flow.get("turn")
