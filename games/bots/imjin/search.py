"""What the `mcts` bot searches in Imjin (games/bots/paired.py): the action on the
wheel (Move/Battle, Supply/General, Recruit/Reorganize), whose worth shows only
when the turns after it are played; playouts run to the end of the seat's next
turn: the turn changes once per seat at the table, and once more when that next
turn ends (3 times with 2 seats, 5 with 4: Japan, allies, Japan, allies)."""

from __future__ import annotations

from typing import Any

# Searching battles and marches (attack, fight, confirm, cancel, support, move) won 22 of 40
# games against 19 for the rules' answers, within the noise at 5x the thinking time
# (games/bots/README.md, mcts A/B): the rules' battles and marches are played as they are.
SEARCHED: frozenset[str] = frozenset({"advance"})
WIDTH = 3  # candidates per searched decision: the rules' answer and 2 alternatives
STAGES = 3  # turn changes to the end of the seat's next turn at a 2-seat table


def stages(state: Any) -> int:
    """Turn changes to the end of the seat's next turn: every other seat's turn,
    then its own (a 4-seat table priced on 3 changes stopped before its partner
    and its next turn, so a wheel action was judged on a partial round)."""
    order = state.get("order")
    return len(order) + 1 if order else STAGES


def stage(state: Any) -> Any:
    flow = state.get("flow") or {}
    return flow.get("turn")
