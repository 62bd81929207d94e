"""Celery tasks of the play-by-email layer: thin wrappers that call services.

`games.deadlines.fire` runs every DEADLINE_FIRE_SECONDS (settings
CELERY_BEAT_SCHEDULE) and only fires due deadlines, so a busy sweep never
delays a clock. `games.pbem.sweep` runs every DEADLINE_SWEEP_SECONDS: it also
fires, then sends reminders, thaws ended vacations, catches up on lost
after-commit work and requeues lost deliveries. `games.pbem.deliver` sends
one notification (email or webhook), retrying webhooks with exponential
backoff via Celery's retry (short countdowns only: at most an hour, well
under a Redis visibility timeout).
"""

from __future__ import annotations

from celery import shared_task

from games.services import deadlines, notify


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
