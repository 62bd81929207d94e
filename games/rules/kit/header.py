"""The one header every ruleset's view carries under ``view["header"]``.

The three views differ below it, but a client needs the same facts from each before it
draws anything: game and rules version, phase, who must act now, whom the view is for,
whether the game is over, each seat's score (seat order), the turn order, and which parts
of the view are the viewer's own hidden information (``private``: dotted paths such as
``"round.plans.2"``; empty for a watcher and once the game is over). Built here once so
the engines cannot drift apart and a client never guesses the shape. What ``scores``,
``order`` and ``private`` hold per ruleset is in docs/modules.md.
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
    private: list[str]


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
    private: Iterable[str],
) -> ViewHeader:
    """The header in the one shape; ``to_act`` sorted and without repeats, ``scores``
    and ``order`` copied as given (seat order, turn order), ``private`` sorted."""
    return ViewHeader(
        ruleset=ruleset,
        rules_version=rules_version,
        phase=phase,
        to_act=sorted(set(to_act)),
        seat=seat,
        ended=ended,
        scores=list(scores),
        order=list(order),
        private=sorted(set(private)),
    )
