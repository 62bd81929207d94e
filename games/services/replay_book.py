"""A replay a reader can follow (issue 33): the game's history as steps (one per
batch: a command, a deadline's default, the start), each in the ruleset's
`describe()` words, grouped by turns (each ruleset's Season, Year or game turn)
and, once the game is over, the scoring breakdown (where each seat's points came
from: games/rules/<ruleset>/breakdown.py). One fold over the stored events,
redacted for the viewer like the feed; secrets a finished game has revealed are
told in words and marked. Cached per game version, viewer and language."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from django.core.cache import cache

from events import store
from events.models import StoredEvent
from games import plugins
from games.rules.base import Event
from games.rules.breakdown import Step, label
from games.rules.replay import Fold

from ..models import Game
from .errors import ErrorCode, Invalid
from .present import Viewer, can_see, viewer_for
from .state import load_state, rules_for, step_of, to_engine_event
from .summaries import starts_batch
from .types import Reader

log = logging.getLogger(__name__)
CACHE_SECONDS = 3600
COMMITTED = "core.ChoiceCommitted"


def book(game: Game, user: Reader, lang: str) -> dict[str, Any]:
    """`{"steps": [...], "turns": [...], "scoring": {...} | None}`: a step is
    `{"index", "from", "version", "turn", "seat", "text", "revealed"}` (versions
    `from`..`version` of the event log; `turn` indexes `turns`, which are
    `{"label", "first"}`, `first` the index of their first step)."""
    if game.version < 1:
        raise Invalid("the game has not started: nothing to replay", code=ErrorCode.INVALID_VERSION)
    viewer = viewer_for(game, user)
    key = f"replay-book:{game.id}:{game.version}:{game.rules_version}:{sorted(viewer.seats)}:{viewer.omniscient}:{lang}"
    found: dict[str, Any] | None = cache.get(key)
    if found is None:
        found = _build(game, viewer, lang)
        cache.set(key, found, CACHE_SECONDS)
    return found


def scoring(game: Game, lang: str) -> dict[str, Any] | None:
    """The scoring breakdown of a finished game (None while it runs, or for a
    ruleset without one): public, so one cache entry per game and language."""
    return book(game, None, lang)["scoring"] if game.status == Game.Status.FINISHED else None


def _batches(rows: list[StoredEvent]) -> Iterator[list[StoredEvent]]:
    batch: list[StoredEvent] = []
    for row in rows:
        if batch and starts_batch(row):
            yield batch
            batch = []
        batch.append(row)
    if batch:
        yield batch


def _build(game: Game, viewer: Viewer, lang: str) -> dict[str, Any]:
    record = plugins.get(game.ruleset)
    rules = rules_for(game)
    turn_of = record.turn if record is not None else None
    texts = record.texts(lang) if record is not None and record.texts is not None else None
    fold = Fold.start(rules)
    engine_steps: list[Step] = []
    steps: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for batch in _batches(list(store.load(game.id))):
        before = fold.state
        for row in batch:
            was = fold.state
            needed = fold.step(step_of(row, rules))
            if needed is not None:
                fold.state = load_state(game, upto=needed)
            if not row.type.startswith("core."):
                engine_steps.append(Step(was, to_engine_event(row, rules), fold.state))
        visible = [row for row in batch if can_see(row, viewer)]
        # a secret choice of another seat, committed in this batch: the end of the game showed it
        revealed = viewer.omniscient and any(
            row.type == COMMITTED and (row.payload or {}).get("seat") not in viewer.seats for row in batch
        )
        text = _text(record, before, visible, rules, lang, revealed)
        if not text and steps:
            steps[-1]["version"] = batch[-1].seq  # a batch with nothing to tell joins the step before
            continue
        chapter = label(texts, *turn_of(before)) if turn_of is not None and texts is not None else ""
        if not turns or turns[-1]["label"] != chapter:
            turns.append({"label": chapter, "first": len(steps)})
        cause = batch[0].cause or {}
        seat = cause.get("seat") if isinstance(cause, dict) else None
        steps.append(
            {
                "index": len(steps),
                "from": batch[0].seq,
                "version": batch[-1].seq,
                "turn": len(turns) - 1,
                "seat": seat if isinstance(seat, int) else None,
                "text": text,
                "revealed": revealed,
            }
        )
    breakdown = None
    if record is not None and record.breakdown is not None and game.status == Game.Status.FINISHED:
        breakdown = record.breakdown(engine_steps, rules.outcome(fold.state), game.players, lang)
    return {"steps": steps, "turns": turns, "scoring": breakdown}


def _text(
    record: plugins.Plugins | None,
    before: Any,
    visible: list[StoredEvent],
    rules: Any,
    lang: str,
    revealed: bool,
) -> str:
    """The batch in describe() words. Once a finished game has shown every seat's
    secrets, the line says the choice itself, not that one was made."""
    describe = record.describe if record is not None else None
    if describe is None or not visible:
        return ""
    events: list[Event] = [to_engine_event(row, rules) for row in visible]
    try:
        if revealed:
            told = describe(before, [e for e in events if e.type != COMMITTED], lang)
            if told:
                return told
        return describe(before, events, lang)
    except Exception:  # broad on purpose: a describer that cannot read an old event shape
        log.warning("replay step not described: %s", [e.type for e in events], exc_info=True)
        return ""
