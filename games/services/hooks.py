"""What happens after a game's events commit: wake live readers, let bots and
zombie seats play, refresh deadlines, send notifications. Everything runs in
`transaction.on_commit`, so nothing leaves the process for a rolled-back write."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from events import feed


def after_commit(game, state, rows) -> None:
    game_id, version = game.id, rows[-1].seq

    def _run() -> None:
        feed.publish(game_id, version)
        from games import tasks  # late import: tasks import services

        tasks.after_events(str(game_id), version)

    transaction.on_commit(_run)


def bots_inline() -> bool:
    return settings.SENGOKU["BOTS_INLINE"] or settings.CELERY_TASK_ALWAYS_EAGER
