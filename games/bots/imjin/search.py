"""What the `mcts` bot searches in Imjin (games/bots/paired.py): the action on the
wheel (Move/Battle, Supply/General, Recruit/Reorganize), whose worth shows only
when the turns after it are played; playouts run to the end of the seat's next
turn in 2-player games (the turn changes three times)."""

from __future__ import annotations

from typing import Any

from games.rules.kit import position

# Searching battles and marches (attack, fight, confirm, cancel, support, move) won 22 of 40
# games against 19 for the rules' answers, within the noise at 5x the thinking time
# (games/bots/README.md, mcts A/B): the rules' battles and marches are played as they are.
SEARCHED: frozenset[str] = frozenset({"advance"})
WIDTH = 3  # candidates per searched decision: the rules' answer and 2 alternatives
STAGES = 3  # playouts stop when the seat whose turn it is has changed three times


def stage(state: Any) -> Any:
    bottom = position.base(state) or {}
    return bottom.get("turn")
