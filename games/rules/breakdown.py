"""Where each seat's points came from (issue 33): the pieces every ruleset's
``breakdown.py`` shares (pure). A ruleset attributes each engine event's change
of score to named sources; whatever a ruleset cannot name lands in ``other``, so
the sources of a seat always sum to its final score. Labels come from the
ruleset's ``data/i18n/<language>.yaml`` (keys ``score.*``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .base import Event, Outcome
from .i18n import Texts

# A source: the key of its label in the ruleset's texts, and that label's parameters.
Source = tuple[str, tuple[tuple[str, str], ...]]
OTHER: Source = ("score.other", ())


@dataclass(frozen=True)
class Step:
    """One engine event with the states around it."""

    before: Any
    event: Event
    after: Any


@dataclass
class Tally:
    """Points per seat per source, in the order the sources first scored."""

    points: dict[int, dict[Source, float]] = field(default_factory=dict)
    notes: dict[int, list[tuple[str, tuple[tuple[str, str], ...]]]] = field(default_factory=dict)

    def add(self, seat: int, source: Source, points: float) -> None:
        if points:
            row = self.points.setdefault(seat, {})
            row[source] = row.get(source, 0.0) + points

    def note(self, seat: int, key: str, **params: object) -> None:
        self.notes.setdefault(seat, []).append((key, tuple((k, str(v)) for k, v in params.items())))


def source(key: str, **params: object) -> Source:
    return (key, tuple((k, str(v)) for k, v in params.items()))


def settle(tally: Tally, outcome: Outcome | None) -> None:
    """Whatever the final scores hold beyond the tallied sources goes to ``other``
    (a tie-break share, a rule that moved points outside the state)."""
    if outcome is None:
        return
    for seat, score in outcome.scores.items():
        rest = float(score) - sum(tally.points.get(seat, {}).values())
        if abs(rest) > 1e-9:
            tally.add(seat, OTHER, rest)


def walk(steps: Iterable[Step], attribute: Callable[[Tally, Step], None]) -> Tally:
    tally = Tally()
    for step in steps:
        attribute(tally, step)
    return tally


def render(tally: Tally, outcome: Outcome | None, t: Texts, seats: int) -> dict[str, Any]:
    """The breakdown as the API and the replay page show it: per seat its total
    and labelled sources (largest first), plus notes that score nothing."""
    rows = []
    for seat in range(seats):
        mine = tally.points.get(seat, {})
        sources = [
            {"key": key, "label": label(t, key, params), "points": _number(points)}
            for (key, params), points in sorted(mine.items(), key=lambda kv: -abs(kv[1]))
        ]
        rows.append(
            {
                "seat": seat,
                "total": _number(sum(mine.values())),
                "sources": sources,
                "notes": [label(t, key, params) for key, params in tally.notes.get(seat, [])],
            }
        )
    return {
        "final": outcome is not None,
        # the engines write their reasons in English: a ruleset that can word its
        # reason sets it (Imjin); the others' winners and sources say it all
        "reason": "",
        "winners": list(outcome.winners) if outcome is not None else [],
        "seats": rows,
    }


def label(t: Texts, key: str, params: tuple[tuple[str, str], ...]) -> str:
    """A source's label; a parameter that is itself a text key (a season, a
    card, a Mandate) is put in the same language first."""
    return t(key, **{name: t(value) if t.has(value) else value for name, value in params})


def _number(value: float) -> float | int:
    """Whole points as integers (VP), halves as they are (a shared Imjin draw)."""
    return int(value) if float(value).is_integer() else value


def delta(before: Mapping[str, Any] | Any, after: Mapping[str, Any] | Any, seat: int, key: str) -> int:
    """How `players[seat][key]` changed between two states (0 where either lacks it)."""

    def value(state: Any) -> int:
        try:
            return int(state["players"][seat][key])
        except (KeyError, IndexError, TypeError, ValueError):
            return 0

    return value(after) - value(before)
