"""Celery tasks of the games app: thin wrappers that call services.

`games.after_events` is one game's coalesced background work (deadline rows,
notifications, one bot move): services/commit.py queues it by name, at most one
per game at a time, and services/background.py does the work.
`games.deadlines.fire` (every DEADLINE_FIRE_SECONDS, settings
CELERY_BEAT_SCHEDULE) only fires due deadlines, so a busy sweep never delays a
clock; `games.pbem.sweep` (every DEADLINE_SWEEP_SECONDS) also fires, then sends
reminders, thaws vacations, catches up on lost after-commit work and requeues
lost deliveries; `games.pbem.deliver` sends one notification (email or
webhook), retrying webhooks with Celery's retry (countdowns of at most an hour,
well under a Redis visibility timeout). Every task's name is explicit: beat,
the routes and `services/dispatch.py` send them by name.
"""

from __future__ import annotations

from celery import shared_task

from games.services import background, deadlines, notify


@shared_task(name="games.after_events", acks_late=True, ignore_result=True)
def after_events_task(
    game_id: str, version: int | None = None, inline: bool = False, bot_delay: float = 0.0
) -> int:
    if inline:  # run in the committing process (services/dispatch.run_here)
        return background.after_events(game_id, version, bot_delay=bot_delay)
    return background.run(game_id, version)


@shared_task(name="games.deadlines.fire", acks_late=True, ignore_result=True)
def fire() -> int:
    return deadlines.fire_due()


@shared_task(name="games.pbem.sweep", acks_late=True, ignore_result=True)
def sweep() -> dict:
    return deadlines.sweep()


@shared_task(bind=True, name="games.pbem.deliver", acks_late=True, ignore_result=True, max_retries=None)
def deliver(self, notification_id: int, attempt: int | None = None) -> None:
    retry_in = notify.deliver(notification_id, attempt)
    if retry_in is not None:
        # The row says which attempt is next; a duplicate (sweep requeue) finds it claimed or done.
        raise self.retry(
            args=(notification_id, attempt + 1 if attempt is not None else None), countdown=retry_in
        )
