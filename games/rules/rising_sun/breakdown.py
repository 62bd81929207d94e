"""Where each clan's Victory Points came from (issue 33), for every rules
version: each engine event's change of `players[seat].vp` (rules versions 4-5
record it in the event's outcome; earlier ones are read off the folded states)
goes to the source the event names: the War of a Season, a Mandate, a Betray,
the question a seat answered (Seppuku, Imperial Poets, a Kami…), and Winter
scoring by category (each Form card, War tokens, the set bonus). Pure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..base import Outcome
from ..breakdown import Source, Step, Tally, delta, render, settle, source, walk
from .catalogue import texts

SEASONS = ("spring", "summer", "autumn", "winter")
WAR = "rising-sun.WarBidsRevealed"
MANDATE = "rising-sun.MandatePlayed"
COMMAND = "rising-sun.CommandApplied"


def breakdown(steps: Iterable[Step], outcome: Outcome | None, seats: int, lang: str) -> dict[str, Any]:
    t = texts(lang)
    tally = walk(steps, _attribute)
    settle(tally, outcome)
    return render(tally, outcome, t, seats)


def turn(state: Any) -> Source:
    """The chapter a replay groups steps by: the Season being played."""
    return source("turn.season", season=_season(state if isinstance(state, Mapping) else {}))


def _season(state: Mapping[str, Any]) -> str:
    index = state.get("season") if isinstance(state.get("season"), int) else 0
    return f"season.{SEASONS[min(max(int(index or 0), 0), len(SEASONS) - 1)]}"


def _event_source(step: Step) -> Source:
    """The source named by the event itself (outside Winter scoring)."""
    state = step.before if isinstance(step.before, Mapping) else {}
    payload = step.event.payload
    kind = step.event.type
    if kind == WAR:
        return source("score.war", season=_season(state))
    if kind == MANDATE:
        return source("score.mandate", mandate=f"mandate.{payload.get('declared')}")
    if kind == COMMAND:
        cmd = payload.get("cmd") if isinstance(payload.get("cmd"), Mapping) else {}
        assert isinstance(cmd, Mapping)
        if cmd.get("type") == "betray":
            return source("score.betray")
        stack = state.get("position") or []
        what = stack[-1].get("what") if stack and isinstance(stack[-1], Mapping) else None
        if what:
            return source("score.prompt", prompt=f"prompt.{what}")
        if cmd.get("type"):
            return source("score.command", command=f"command.{cmd.get('type')}")
    return ("score.other", ())


def _winter(before: Mapping[str, Any], after: Mapping[str, Any], seat: int) -> dict[Source, int]:
    """Winter scoring of one seat, by category, when this event scored it."""
    if before.get("winter") or not isinstance(after.get("winter"), Mapping):
        return {}
    mine = after["winter"].get(str(seat)) or after["winter"].get(seat) or {}
    out: dict[Source, int] = {}
    for category, points in sorted(mine.items()):
        if not isinstance(points, int) or not points:
            continue
        if category == "tokens":
            out[source("score.winter_tokens")] = points
        elif category == "set_bonus":
            out[source("score.winter_set")] = points
        else:
            out[source("score.winter_card", card=f"card.{category}")] = points
    return out


def _attribute(tally: Tally, step: Step) -> None:
    before = step.before if isinstance(step.before, Mapping) else {}
    after = step.after if isinstance(step.after, Mapping) else {}
    for seat in range(len(after.get("players") or [])):
        change = delta(before, after, seat, "vp")
        winter = _winter(before, after, seat)
        for where, points in winter.items():
            tally.add(seat, where, points)
        tally.add(seat, _event_source(step), change - sum(winter.values()))
