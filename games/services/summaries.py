"""The readable game log (issue 14.3): a one-line localized ``summary`` per
batch (the events from one that carries a ``cause`` — a command, the start, a
platform action — to the next), written by the ruleset's pure
``describe(state_before, events, locale)`` (its record's `describe`,
games/plugins.py) and set on the batch's first event
that the viewer may see (a redacted stub stays bare); no key when the batch
says nothing the viewer may know.

Why, with the measurements and history: docs/modules.md, `games/services/summaries.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events import store
from events.models import StoredEvent
from games import plugins
from games.rules.base import Ruleset

from ..models import Game
from .present import Viewer, can_see
from .state import cache_put, fold_rows, is_cached, load_state, rules_for, to_engine_event

# A batch cut by the end of a page is read on up to this many events.
BATCH_TAIL = 500


def _describer(ruleset_id: str) -> plugins.Describe | None:
    """The record's ``describe``; None for an unknown ruleset or one without a log."""
    record = plugins.get(ruleset_id)
    return record.describe if record is not None else None


def starts_batch(row: StoredEvent) -> bool:
    """A command's batch starts at the event that stores the command as `cause`."""
    return row.cause is not None


def annotate(
    game: Game, viewer: Viewer, rows: Sequence[StoredEvent], out: list[dict[str, Any]], lang: str
) -> None:
    """Sets ``out[i]["summary"]`` for every batch that starts in `rows`."""
    describe = _describer(game.ruleset)
    starts = [i for i, r in enumerate(rows) if starts_batch(r)]
    if describe is None or not starts:
        return
    rules = rules_for(game)
    tail = _tail(game, rows) if rows else []
    every = list(rows) + tail
    state = load_state(game, upto=rows[starts[0]].seq - 1)
    prev = starts[0]
    for i in starts:
        if i > prev:
            state = fold_rows(rules, every[prev:i], state, game)
            prev = i
        end = next((j for j in range(i + 1, len(every)) if starts_batch(every[j])), len(every))
        visible = [j for j in range(i, end) if can_see(every[j], viewer)]
        text = describe(state, [to_engine_event(every[j], rules) for j in visible], lang) if visible else ""
        # on the first event of the batch the viewer may see: a redacted stub stays a bare stub
        if text and visible[0] < len(out):
            out[visible[0]]["summary"] = text
    _carry(game, rules, rows, prev, state)


def _carry(game: Game, rules: Ruleset, rows: Sequence[StoredEvent], start: int, state: Any) -> None:
    """Leave the state at the page's last event in the state cache: the next page
    starts there (a live stream's next commit, the next page of a reader), and
    folding this one batch now is cheaper than a snapshot read and a fold then."""
    last = rows[-1].seq
    if not is_cached(game.id, last):
        # BUG (kept: no behaviour change in a typing pass): fold_rows wants the Game here, not a
        # loader; a takeback of a batch not folded here would fail on this lambda
        cache_put(game.id, last, fold_rows(rules, rows[start:], state, lambda v: load_state(game, upto=v)))  # type: ignore[arg-type]


def _tail(game: Game, rows: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The rest of the page's last batch, when the page ends inside it."""
    last = rows[-1].seq
    if last >= game.version:
        return []
    more = store.load(game.id, after=last, limit=BATCH_TAIL)
    cut = next((j for j, r in enumerate(more) if starts_batch(r)), len(more))
    return more[:cut]
