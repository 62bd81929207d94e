"""What happens after a game's events commit: remember the new state, wake live
readers, let bots and zombie seats play, refresh deadlines, send notifications.
Everything runs in `transaction.on_commit`, so nothing leaves the transaction
for a rolled-back write — not even the in-process state cache, which would
otherwise serve a version that never existed."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from events import feed
from games import observe


def after_commit(game, state, rows) -> None:
    game_id, version = game.id, rows[-1].seq
    observe.events_committed(game, rows)  # sengoku_events_appended_total, on commit

    def _run() -> None:
        from .state import cache_put

        cache_put(game_id, version, state)
        feed.publish(game_id, version)
        from games import tasks  # late import: tasks import services

        if hooks_inline():
            tasks.after_events(str(game_id), version)
        else:
            # Deadlines, notifications and bots are the worker's job: the request
            # answers as soon as its events are committed. A lost message is
            # repaired by the deadline sweeper's catch-up.
            try:
                tasks.after_events_task.delay(str(game_id), version)
            except Exception:  # a broker hiccup must not fail a committed command
                import logging

                logging.getLogger(__name__).exception("could not queue after_events for %s", game_id)

    transaction.on_commit(_run)


def hooks_inline() -> bool:
    return settings.SENGOKU["HOOKS_INLINE"] or settings.CELERY_TASK_ALWAYS_EAGER


def bots_inline() -> bool:
    return settings.SENGOKU["BOTS_INLINE"] or settings.CELERY_TASK_ALWAYS_EAGER
