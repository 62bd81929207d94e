"""Pieces every ruleset's ``describe.py`` shares (pure). A log line is the
clauses of a batch's events joined by the language's separator; each clause is a
template from the ruleset's ``data/i18n/<language>.yaml`` (keys ``log.*``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .base import Event
from .i18n import Texts, join

Clause = Callable[["Log", Mapping[str, Any]], "str | list[str] | None"]


class Log:
    """What a clause needs: the texts, the state before the batch (public parts
    only: a clause reads what every seat's view shows), and seat names."""

    def __init__(self, t: Texts, state: Any, who: Callable[[int], str]):
        self.t = t
        self.state = state
        self._who = who

    def who(self, seat: Any) -> str:
        try:
            return self._who(int(seat))
        except (TypeError, ValueError, IndexError, KeyError):
            return self.t("log.seat", n=seat)

    def names(self, items: Iterable[str]) -> str:
        return self.t("log.list_sep").join(items)

    def signed(self, n: int) -> str:
        return f"+{n}" if n > 0 else f"−{-n}"


def core_clause(log: Log, e: Event) -> str | None:
    """The platform's events that a player would notice."""
    p = e.payload
    if e.type == "core.ChoiceCommitted":
        seat = p.get("seat")
        return log.t("log.secret_choice", who=log.who(seat)) if isinstance(seat, int) and seat >= 0 else None
    if e.type == "core.GameFinished":
        winners = (p.get("outcome") or {}).get("winners") or []
        return log.t("log.game_over", winners=log.names(log.who(w) for w in winners))
    if e.type == "core.GameAborted":
        return log.t("log.game_aborted")
    if e.type in ("core.GamePaused", "core.GameResumed"):
        return log.t("log.paused" if e.type == "core.GamePaused" else "log.resumed")
    return None


def describe_with(log: Log, events: Iterable[Event], clauses: Mapping[str, Clause]) -> str:
    out: list[str] = []
    for e in events:
        if e.type.startswith("core."):
            got: str | list[str] | None = core_clause(log, e)
        else:
            clause = clauses.get(e.type)
            got = clause(log, e.payload) if clause is not None else None
        for c in [got] if isinstance(got, str) else got or []:
            if c and c not in out:
                out.append(c)
    return join(log.t.lang, out)
