"""The one header every ruleset's view carries under ``view["header"]``.

The three views differ below it (a Shogun board is not an Imjin map), but a client needs
the same facts from each before it draws anything: which game and rules version, what
phase, who must act now, whom the view is for, whether the game is over, each seat's
score and the turn order. Built here once so the three engines cannot drift apart and a
client never guesses the shape.

``scores`` is each seat's current score toward victory, in seat order; ``order`` the
seats in turn order for this round. Both are empty before setup. Per ruleset:

* Rising Sun: ``scores`` the players' victory points; ``order`` the seating (clockwise)
  starting with the seat that draws the next mandate (``holder``).
* Shogun: ``scores`` the players' victory points; ``order`` the season's turn order,
  fixed once every player has chosen a special card (empty while it is still undecided:
  planning and bidding); in the draft, the draft order starting with its first player.
* Imjin: a seat keeps no running score of its own and there are no victory points; the
  game is won by land territories (instant win, and the first key of the final count
  after the third Reset), so ``scores`` gives each seat its side's count of controlled
  land territories (team-mates share it); ``order`` the play order (``state["order"]``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict


class ViewHeader(TypedDict):
    """What every view says first; see the module docstring."""

    ruleset: str
    rules_version: int
    phase: str
    to_act: list[int]
    seat: int | None
    ended: bool
    scores: list[int]
    order: list[int]


def view_header(
    *,
    ruleset: str,
    rules_version: int,
    phase: str,
    to_act: Iterable[int],
    seat: int | None,
    ended: bool,
    scores: Iterable[int],
    order: Iterable[int],
) -> ViewHeader:
    """The header in the one shape; ``to_act`` sorted and without repeats, ``scores``
    and ``order`` copied as given (seat order, turn order)."""
    return ViewHeader(
        ruleset=ruleset,
        rules_version=rules_version,
        phase=phase,
        to_act=sorted(set(to_act)),
        seat=seat,
        ended=ended,
        scores=list(scores),
        order=list(order),
    )
