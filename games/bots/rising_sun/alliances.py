"""Alliance proposals, answered by every server bot (issue 33): whether the seat
would ally with a proposer, read from the view (standings: VP plus what the war
tokens would score in Winter). README.md, "Alliance proposals", says why."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.rules.base import LegalSet

from .board import standing

Command = dict[str, Any]


def welcome(view: Mapping[str, Any], seat: int, proposer: int) -> bool:
    """Ally with anyone but the rival to beat: the one whose standing is above
    every other rival's (an alliance shares wars won and mandate bonuses, so it
    would help him most). Rivals level with each other (Spring) are all welcome."""
    rivals = {q: standing(view, q) for q in range(len(view["clans"])) if q != seat}
    others = [worth for q, worth in rivals.items() if q != proposer]
    return not others or rivals[proposer] <= max(others)


def answer(view: Mapping[str, Any], seat: int, legal: LegalSet, rng: random.Random) -> Command | None:
    """The seat's answer to a proposal waiting for it: accept the weakest welcome
    proposer (one alliance at most: accepting closes the others), else decline one
    (asked again, it declines the next). None when no proposal waits."""
    answers = [dict(c) for c in legal.commands if c.get("type") in ("accept_alliance", "decline_alliance")]
    welcome_ones = [c for c in answers if c["type"] == "accept_alliance" and welcome(view, seat, c["from"])]
    if welcome_ones:
        return min(welcome_ones, key=lambda c: (standing(view, c["from"]), c["from"]))
    return next((c for c in answers if c["type"] == "decline_alliance"), None)
