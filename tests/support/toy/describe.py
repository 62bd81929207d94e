"""The toy's game log: one line per batch, from the events the viewer may see."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.rules.base import Event
from games.rules.describing import Clause, Log, describe_with
from games.rules.i18n import Texts

from . import events

I18N = Path(__file__).parent / "data" / "i18n"


def texts(lang: str) -> Texts:
    return Texts(I18N, lang)


def describe(state_before: Any, batch: Sequence[Event], locale: str) -> str:
    words = texts(locale)
    log = Log(words, state_before, lambda seat: words("log.seat", n=seat + 1))
    return describe_with(log, batch, CLAUSES)


def _started(log: Log, payload: Mapping[str, Any]) -> str:
    return log.t("log.started", coins=payload.get("coins"))


def _prize_drawn(log: Log, payload: Mapping[str, Any]) -> str:
    return log.t("log.prize_drawn", round=payload.get("round"), prize=payload.get("prize"))


def _revealed(log: Log, payload: Mapping[str, Any]) -> str:
    return log.t("log.bids_revealed", who=log.who(payload.get("winner")), paid=payload.get("paid"))


def _awarded(log: Log, payload: Mapping[str, Any]) -> str:
    return log.t("log.prize_awarded", who=log.who(payload.get("seat")), points=payload.get("points"))


def _ended(log: Log, payload: Mapping[str, Any]) -> str:
    return log.t("log.ended")


CLAUSES: dict[str, Clause] = {
    events.STARTED: _started,
    events.PRIZE_DRAWN: _prize_drawn,
    events.BIDS_REVEALED: _revealed,
    events.PRIZE_AWARDED: _awarded,
    events.ENDED: _ended,
}
