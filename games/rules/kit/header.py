"""The one header every ruleset's view carries under ``view["header"]``.

The three views differ below it (a Shogun board is not an Imjin map), but a client needs
the same five facts from each before it draws anything: which game and rules version,
what phase, who must act now, whom the view is for, and whether the game is over. Built
here once so the three engines cannot drift apart and a client never guesses the shape.
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


def view_header(
    *, ruleset: str, rules_version: int, phase: str, to_act: Iterable[int], seat: int | None, ended: bool
) -> ViewHeader:
    """The header in the one shape; ``to_act`` sorted and without repeats."""
    return ViewHeader(
        ruleset=ruleset,
        rules_version=rules_version,
        phase=phase,
        to_act=sorted(set(to_act)),
        seat=seat,
        ended=ended,
    )
