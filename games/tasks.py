"""Celery tasks of the games app: thin wrappers that call services.

`games.after_events` is one game's coalesced background work (deadline rows,
notifications, one bot move): services/commit.py queues it by name, at most
one per game at a time, and services/background.py does the work.
"""

from __future__ import annotations

from celery import shared_task

from games.services import background


@shared_task(name="games.after_events", acks_late=True, ignore_result=True)
def after_events_task(
    game_id: str, version: int | None = None, inline: bool = False, bot_delay: float = 0.0
) -> int:
    if inline:  # run in the committing process (services/dispatch.run_here)
        return background.after_events(game_id, version, bot_delay=bot_delay)
    return background.run(game_id, version)
