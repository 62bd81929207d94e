"""What happens after a game's events commit: remember the new state, wake live
readers, then the game's background work (deadlines, notifications, bots).

Everything runs in `transaction.on_commit`, so nothing leaves the transaction
for a rolled-back write — not even the in-process state cache, which would
otherwise serve a version that never existed.

Background work is coalesced per game: the committing transaction holds the
game row locked, so it can see and set `Game.work_queued_at` in the UPDATE it
makes anyway. Only the commit that finds it empty queues a task; the task
clears it first and then takes all of the game's work up to the newest
version (services/background.py). One game therefore never has more than one
task waiting in the queue, however fast it commits.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from events import feed
from events.store import Recorded
from games import observe

from ..models import Game
from . import dispatch
from .state import cache_put
from .types import GameId

# A flag older than this belongs to a task that was lost (broker restart, worker
# killed before it started): the next commit, or the sweep, queues a new one.
STALE_QUEUED_SECONDS = 60


def hooks_inline() -> bool:
    """Whether after-commit work runs in the committing process (embedded broker, eager tests)."""
    return bool(settings.SENGOKU["HOOKS_INLINE"] or settings.CELERY_TASK_ALWAYS_EAGER)


def bots_inline() -> bool:
    """Whether bot moves are played in the committing process instead of by a task."""
    return bool(settings.SENGOKU["BOTS_INLINE"] or settings.CELERY_TASK_ALWAYS_EAGER)


def bot_interval(actor: object) -> float:
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


def after_commit(game: Game, state: object, rows: list[Recorded], queue: bool) -> None:
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
