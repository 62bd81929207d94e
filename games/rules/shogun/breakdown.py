"""Where each daimyo's Victory Points came from (issue 33): each Winter scoring
by its parts (provinces, buildings, every regional majority, scoring.py), the
favour cards and samurai bonuses that paid VP, read off each engine event's
change of `players[seat].vp` (so every rules version reads the same way). Pure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..base import Outcome
from ..breakdown import Source, Step, Tally, delta, render, settle, source, walk
from . import events as ev
from .catalogue import texts


def breakdown(steps: Iterable[Step], outcome: Outcome | None, seats: int, lang: str) -> dict[str, Any]:
    tally = walk(steps, _attribute)
    settle(tally, outcome)
    return render(tally, outcome, texts(lang), seats)


def turn(state: Any) -> Source:
    """The chapter a replay groups steps by: the province draft, then each season of each year."""
    if not isinstance(state, Mapping) or not state.get("players"):
        return source("turn.setup")
    if state.get("round") is None:
        return source("turn.draft", year=state.get("year", 1))
    return source(f"turn.season.{state.get('season', 0)}", year=state.get("year", 1))


def _scored(year: object, row: Mapping[str, Any]) -> dict[Source, int]:
    """One seat's line of a Winter scoring, by part."""
    out: dict[Source, int] = {}
    for part in ("provinces", "buildings"):
        if isinstance(row.get(part), int) and row[part]:
            out[source(f"score.{part}", year=year)] = row[part]
    for where, points in sorted((row.get("majorities") or {}).items()):
        region, _, kind = str(where).partition(":")
        if isinstance(points, int) and points:
            out[source("score.majority", year=year, region=f"region.{region}", building=f"figure.{kind}")] = (
                points
            )
    return out


def _attribute(tally: Tally, step: Step) -> None:
    before = step.before if isinstance(step.before, Mapping) else {}
    after = step.after if isinstance(step.after, Mapping) else {}
    payload = step.event.payload
    for seat in range(len(after.get("players") or [])):
        change = delta(before, after, seat, "vp")
        parts: dict[Source, int] = {}
        if step.event.type == ev.SCORED:
            rows = payload.get("scores")
            if isinstance(rows, list) and seat < len(rows) and isinstance(rows[seat], Mapping):
                parts = _scored(payload.get("year", before.get("year")), rows[seat])
            rest: Source = source("score.other")
        elif step.event.type == ev.FAVOUR_TAKEN:
            rest = source("score.favour")
        elif step.event.type == ev.SAMURAI_BONUS_TAKEN:
            rest = source("score.samurai")
        else:
            rest = source("score.other")
        for where, points in parts.items():
            tally.add(seat, where, points)
        tally.add(seat, rest, change - sum(parts.values()))
