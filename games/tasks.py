"""Celery tasks of the games app: thin wrappers that call services.

Why, with the measurements and history: docs/modules.md, `games/tasks.py`.
"""

from __future__ import annotations

import logging

from celery import shared_task

from games.services import anchors, background, deadlines, notify

log = logging.getLogger(__name__)


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


@shared_task(name="games.anchor", acks_late=True, ignore_result=True)
def anchor() -> int:
    """Anchor the checkpoints issued since the last anchor (beat, every ANCHOR_INTERVAL)."""
    try:
        made = anchors.anchor_now()
    except anchors.AnchorFailed as exc:  # tried again at the next interval: the cursor did not move
        log.warning("anchoring failed: %s", exc)
        return 0
    return made.tree_size if made else 0


@shared_task(bind=True, name="games.pbem.deliver", acks_late=True, ignore_result=True, max_retries=None)
def deliver(self, notification_id: int, attempt: int | None = None) -> None:
    retry_in = notify.deliver(notification_id, attempt)
    if retry_in is not None:
        # The row says which attempt is next; a duplicate (sweep requeue) finds it claimed or done.
        raise self.retry(
            args=(notification_id, attempt + 1 if attempt is not None else None), countdown=retry_in
        )
