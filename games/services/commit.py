"""The commit step every write after start shares: append the events (expected
version = the locked game row's), move the row's version and chain head,
snapshot on the boundary, and register the after-commit hooks.

`play.apply` (a decided command) and `append_core` (platform events: messages,
misses, pauses, takebacks…) both end here, so the row, the snapshot and the
background work can never drift apart between the two."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.db import connections, models, router
from django.db.models.sql import InsertQuery

from events import store
from events.codec import platform_salt

from ..core_events import CoreEvent
from ..models import Game
from . import hooks
from .errors import Conflict, EngineError, ErrorCode
from .state import fold_rows, load_state, maybe_snapshot, rules_for, snapshot_due

log = logging.getLogger(__name__)


def commit(
    game: Game,
    events: list[store.NewEvent],
    fold: Callable[[list[Any]], Any],
    last_write: bool = False,
    more: Callable[[list[Any]], list[store.Statement]] | None = None,
    **changes,
) -> list[Any]:
    """Append `events` after `game.version` (game locked, inside the caller's
    transaction). `fold(rows)` gives the engine state after them; `changes`
    are further fields of the game row saved with the new version.

    `last_write`: the caller writes nothing after this in its transaction, so
    the COMMIT may ride with the INSERT (store.append's `commit`) — unless a
    snapshot is due, which is written after the append. `more(rows)`: the
    caller's own statements to send in the same pipeline, after the game row's
    (an Idempotency-Key's receipt), made once the rows and the game's new
    fields are known."""
    old = game.version
    fields = ["version", "chain_head", *changes]
    queue = hooks.claim_work(game)
    if queue:
        fields.append("work_queued_at")

    def move_row(rows: list[store.Recorded]) -> list[store.Statement]:
        """The row's new version and chain head, sent with the events' INSERT."""
        game.version, game.chain_head = rows[-1].seq, rows[-1].hash
        for name, value in changes.items():
            setattr(game, name, value)
        return [row_update(game, fields), *(more(rows) if more is not None else ())]

    try:
        rows = store.append(
            game.id,
            old,
            events,
            prev_hash=game.chain_head or None,
            then=move_row,
            commit=last_write and not snapshot_due(old, old + len(events)),
        )
    except store.VersionConflict as exc:
        raise Conflict(
            f"the game moved on to version {exc.current}",
            code=ErrorCode.VERSION_CONFLICT,
            current_version=exc.current,
        ) from exc
    except store.UnsaltedPrivateEvent as exc:  # an engine broke the salt rule (docs/audit.md)
        log.error("engine_error: game %s (%s): %s", game.id, game.ruleset, exc)
        raise EngineError(
            f"the rules engine produced an unsalted private event ({exc.type}); "
            f"nothing was written and the failure was logged"
        ) from exc
    state = fold(rows)
    maybe_snapshot(game, old, game.version, state)
    hooks.after_commit(game, state, rows, queue)
    return rows


def row_update(game: Game, fields: list[str]) -> store.Statement:
    """`game.save(update_fields=fields)` as one statement, without the ORM's
    per-save machinery (Game has no save signals and no save() of its own)."""
    connection = connections[router.db_for_write(Game)]
    quote, meta = connection.ops.quote_name, Game._meta
    columns = [meta.get_field(name) for name in fields]
    sets = ", ".join(f"{quote(column.column)} = %s" for column in columns)
    params = [column.get_db_prep_save(getattr(game, column.attname), connection) for column in columns]
    params.append(meta.pk.get_db_prep_value(game.pk, connection))
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s", params


def row_insert(obj: models.Model) -> store.Statement:
    """`obj.save()` of a new row as one statement (Django's own INSERT compiler:
    defaults, auto_now_add and JSON adaptation as the ORM would), to send in a
    pipeline with other statements instead of a round trip of its own."""
    using = router.db_for_write(type(obj))
    meta = obj._meta
    fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field]
    query = InsertQuery(type(obj))
    query.insert_values(fields, [obj])
    [(sql, params)] = query.get_compiler(using=using).as_sql()
    return sql, params


def new_event(
    event: CoreEvent,
    *,
    visible_to: tuple[int, ...] | None = None,
    actor: dict[str, Any] | None = None,
    cause: dict[str, Any] | None = None,
) -> store.NewEvent:
    """The store's record of a platform event (games/core_events.py): its TYPE,
    VERSION and payload, with who it is visible to and who caused it."""
    return store.NewEvent(
        event.TYPE, event.payload(), event.VERSION, visible_to=visible_to, actor=actor, cause=cause
    )


def append_core(game: Game, events: list[store.NewEvent]) -> list[Any]:
    """Append platform events with `game` locked. Most leave the engine state as
    it was; a `core.TakebackAccepted` folds it back (state.fold_rows), so the
    state is folded, not assumed. A private one (press to some seats, a secret
    missed deadline) is salted here with the game's Rng for its seq
    (events.codec.platform_salt), as the store requires of every private event."""
    old = game.version
    events = [_salted(game, old + i, e) for i, e in enumerate(events, start=1)]
    # only committed versions are loaded (and cached): `old` and earlier
    return commit(
        game,
        events,
        lambda rows: fold_rows(
            rules_for(game), rows, load_state(game, upto=old), lambda v: load_state(game, upto=v)
        ),
    )


def _salted(game: Game, seq: int, e: store.NewEvent) -> store.NewEvent:
    if e.visible_to is None or "salt" in e.payload:
        return e
    return replace(e, payload={**e.payload, "salt": platform_salt(game.seed, seq)})
