"""How the Imjin War was decided (issue 33): a side wins the whole game (1 point
per seat of the winning side, ½ each on a complete tie), so the breakdown names
the decisive reason in words and, per seat, what its side held at the end: land
territories, enemy generals killed, income and supply (the final count's keys,
victory.py). Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..base import Outcome
from ..breakdown import Source, Step, Tally, render, settle, source
from ..i18n import Texts
from .catalogue import texts
from .state import income, lands_of

# victory.py writes its reasons in English into GameEnded; the same patterns as
# the board's legend (games/board/imjin.py, a floor above: not importable here)
REASONS = (
    (
        re.compile(r"more (?P<what>.+) after the third Reset \((?P<a>\d+) vs (?P<b>\d+)\)"),
        "board.reason.more",
    ),
    (re.compile(r"complete tie after the third Reset"), "board.reason.tie"),
    (re.compile(r"(?P<side>japan|allies) controls (?P<n>\d+) land territories"), "board.reason.lands"),
    (re.compile(r"Japan controls two of "), "board.reason.two_of"),
    (re.compile(r"the allies occupy both Tsushima channels"), "board.reason.tsushima"),
)
REASON_WORDS = {"lands": "lands", "generals killed": "killed", "income": "income", "supply stock": "stock"}


def reason_text(t: Texts, reason: str) -> str:
    """Why the war ended, in the reader's language (an unknown reason: as written)."""
    for pattern, key in REASONS:
        found = pattern.match(reason)
        if found:
            fields = found.groupdict()
            if "what" in fields:
                fields["what"] = t(f"board.reason.what.{REASON_WORDS.get(fields['what'], fields['what'])}")
            if "side" in fields:
                fields["side"] = t(f"faction.{fields['side']}")
            return t(key, **fields)
    return reason


def turn(state: Any) -> Source:
    """The chapter a replay groups steps by: the round up to the next Reset (the
    game ends after the third)."""
    if not isinstance(state, Mapping) or state.get("stage") != "play":
        return source("turn.setup")
    return source("turn.round", n=int(state.get("resets") or 0) + 1)


def breakdown(steps: Iterable[Step], outcome: Outcome | None, seats: int, lang: str) -> dict[str, Any]:
    t = texts(lang)
    last: Any = None
    for step in steps:
        last = step.after
    tally = Tally()
    state = last if isinstance(last, Mapping) else {}
    sides = state.get("side") or []
    why = reason_text(t, outcome.reason) if outcome is not None else ""
    for seat in range(seats):
        side = sides[seat] if seat < len(sides) else None
        if outcome is not None:
            score = float(outcome.scores.get(seat, 0.0))
            key = "score.victory" if seat in outcome.winners else "score.draw"
            tally.add(seat, source(key, reason=why), score)
        if side in ("japan", "allies") and state.get("control") is not None:
            killed = len((state.get("killed") or {}).get(side) or [])
            tally.note(seat, "score.side", side=f"faction.{side}")
            tally.note(seat, "score.lands", n=lands_of(state, side))  # type: ignore[arg-type]
            tally.note(seat, "score.killed", n=killed)
            tally.note(seat, "score.income", n=income(state, side))  # type: ignore[arg-type]
    settle(tally, outcome)
    out = render(tally, outcome, t, seats)
    out["reason"] = why
    return out
