"""The commit step every write shares, and what follows it. One
`events.store.Batch` per write holds the events, the game row's new version and
chain head (and other changed fields), the snapshot when one is due and what
the caller adds (a command's receipt); the store writes it in one transaction.
`play.apply`, `append_core` (messages, misses, pauses, takebacks) and the start
of a game all end here, so row, snapshot and background work cannot drift apart.

After the commit (`transaction.on_commit`, so a rolled-back write leaves
nothing behind, not even a cached state): the state is cached, live readers
woken, and the game's background work queued, coalesced to one task per game
through `Game.work_queued_at` (docs/architecture.md, "Background work")."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, cast

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from events import feed, store
from events.codec import platform_salt

from ..core_events import CoreEvent
from ..models import Game
from . import dispatch, observe
from .errors import Conflict, EngineError, ErrorCode
from .state import cache_put, fold_rows, load_state, rules_for, snapshot_due, snapshot_key, stream_seed
from .types import GameId

log = logging.getLogger(__name__)


def batch_of(game: Game, events: list[store.NewEvent]) -> store.Batch:
    """`events` hashed onto the game's chain after its version (game locked): the
    store's batch, for the caller to fill and `commit`. An event that breaks the
    salt rule is an engine (or platform) bug: EngineError, nothing written."""
    try:
        return store.Batch.after(game.id, game.version, events, prev_hash=game.chain_head or None)
    except store.VersionConflict as exc:
        raise _conflict(exc) from exc
    except store.UnsaltedPrivateEvent as exc:  # an engine broke the salt rule (docs/audit.md)
        log.error("engine_error: game %s (%s): %s", game.id, game.ruleset, exc)
        raise EngineError(
            f"the rules engine produced an unsalted private event ({exc.type}); "
            f"nothing was written and the failure was logged"
        ) from exc


def commit(
    game: Game, batch: store.Batch, state: Any, last_write: bool = False, **changes: Any
) -> list[store.Recorded]:
    """Write `batch` (game locked, inside the caller's transaction) with the game
    row's new version and chain head, the further `changes` of the row, and a
    snapshot of `state` (the engine state after the batch) when this write
    crosses a multiple of SNAPSHOT_EVERY.

    `last_write`: the caller writes nothing after this in its transaction, so
    the store may send the COMMIT with the batch (one round trip)."""
    old = game.version
    fields = ["version", "chain_head", "head_at", *changes]
    queue = claim_work(game)
    if queue:
        fields.append("work_queued_at")
    game.version, game.chain_head = batch.version, batch.head
    if batch.rows:  # when the head was committed: its signed checkpoint's issued_at (services/signing.py)
        game.head_at = batch.rows[-1].recorded_at
    for name, value in changes.items():
        setattr(game, name, value)
    batch.update = store.RowUpdate(game, fields)
    if snapshot_due(old, game.version):
        batch.snapshot = store.SnapshotOf(snapshot_key(game), state)
    batch.last_write = last_write
    try:
        rows = store.write(batch)
    except store.VersionConflict as exc:
        raise _conflict(exc) from exc
    after_commit(game, state, rows, queue)
    return rows


def _conflict(exc: store.VersionConflict) -> Conflict:
    return Conflict(
        f"the game moved on to version {exc.current}",
        code=ErrorCode.VERSION_CONFLICT,
        current_version=exc.current,
    )


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


def append_core(game: Game, events: list[store.NewEvent]) -> list[store.Recorded]:
    """Append platform events with `game` locked. Most leave the engine state as
    it was; a `core.TakebackAccepted` folds it back (state.fold_rows), so the
    state is folded, not assumed. A private one (press to some seats, a secret
    missed deadline) is salted here with the game's Rng for its seq
    (events.codec.platform_salt), as the store requires of every private event."""
    old = game.version
    batch = batch_of(game, [_salted(game, old + index, event) for index, event in enumerate(events, start=1)])
    # only committed versions are loaded (and cached): `old` and earlier
    state = fold_rows(rules_for(game), batch.rows, load_state(game, upto=old), game)
    return commit(game, batch, state)


def _salted(game: Game, seq: int, event: store.NewEvent) -> store.NewEvent:
    if event.visible_to is None or "salt" in event.payload:
        return event
    return replace(event, payload={**event.payload, "salt": platform_salt(stream_seed(game), seq)})


# ---------------------------------------------------------------------------------------------
# After the commit

# A flag older than this belongs to a task that was lost (broker restart, worker
# killed before it started): the next commit, or the sweep, queues a new one.
STALE_QUEUED_SECONDS = 60


def hooks_inline() -> bool:
    """Whether after-commit work runs in the committing process (embedded broker, eager tests)."""
    return cast(bool, settings.SENGOKU["HOOKS_INLINE"] or settings.CELERY_TASK_ALWAYS_EAGER)


def bots_inline() -> bool:
    """Whether bot moves are played in the committing process instead of by a task."""
    return cast(bool, settings.SENGOKU["BOTS_INLINE"] or settings.CELERY_TASK_ALWAYS_EAGER)


def bot_interval(actor: Any) -> float:
    """Seconds before the game's next background run: a bot's own move waits
    BOT_MOVE_SECONDS, so bots play at a bounded rate per game."""
    is_bot = isinstance(actor, dict) and ("bot" in actor or "zombie" in actor)
    return float(settings.SENGOKU.get("BOT_MOVE_SECONDS", 0.25)) if is_bot else 0.0


def claim_work(game: Game, now: datetime | None = None) -> bool:
    """With `game` locked and about to be saved: should this commit queue the
    game's background task? Sets `work_queued_at` when it should (the caller
    saves the field with the rest of the row)."""
    if hooks_inline():
        return False
    now = now or timezone.now()
    queued = game.work_queued_at
    if queued is not None and queued > now - timedelta(seconds=STALE_QUEUED_SECONDS):
        return False
    game.work_queued_at = now
    return True


def after_commit(game: Game, state: Any, rows: list[store.Recorded], queue: bool) -> None:
    """Register the after-commit steps of a write (`queue`: claim_work said so)."""
    game_id, version = game.id, rows[-1].seq
    countdown = bot_interval(rows[0].actor)
    observe.events_committed(game, rows)  # sengoku_events_appended_total, on commit

    def _run() -> None:
        cache_put(game_id, version, state)
        feed.publish(game_id, version, (game.status, rows))
        if hooks_inline():
            dispatch.run_here(dispatch.AFTER_EVENTS, str(game_id), version, True, countdown)
        elif queue:
            # Deadlines, notifications and bots are the worker's job: the request
            # answers as soon as its events are committed.
            dispatch.send(dispatch.AFTER_EVENTS, str(game_id), version, countdown=countdown)

    transaction.on_commit(_run)


def request_work(game_id: GameId, countdown: float = 0.0) -> bool:
    """Queue the game's background task from outside a write (the inline path
    handing bots to the worker, the sweep's repair): the same flag, claimed
    with a conditional UPDATE since the row is not locked here."""
    now = timezone.now()
    stale = now - timedelta(seconds=STALE_QUEUED_SECONDS)
    free = Game.objects.filter(Q(work_queued_at__isnull=True) | Q(work_queued_at__lt=stale), id=game_id)
    if not free.update(work_queued_at=now):
        return False
    return dispatch.send(dispatch.AFTER_EVENTS, str(game_id), None, countdown=countdown)
