"""Sending background work. Every Celery task the services start leaves from
here, by its registered name (`send_task`), so no service imports a task
module: task modules import services, never the reverse (pyproject's layers
contract). The names are the task modules' `name=`s."""

from __future__ import annotations

import logging

from celery import current_app

log = logging.getLogger(__name__)

AFTER_EVENTS = "games.after_events"  # games/tasks.py: one game's coalesced after-commit work
DELIVER = "games.pbem.deliver"  # games/tasks.py: one notification delivery


def send(name: str, *args: object, countdown: float | None = None) -> bool:
    """Queue a task by name. A broker hiccup is logged, not raised: what calls
    this has committed already, and the sweep repairs what was not queued."""
    try:
        current_app.send_task(name, args=list(args), countdown=countdown or None)
    except Exception:
        log.exception("could not queue %s%r", name, args)
        return False
    return True


def run_here(name: str, *args: object) -> object:
    """Run a task's body in this process (the inline settings of tests and of
    the embedded default): the same code path the worker runs, found by name."""
    if name not in current_app.tasks:  # a web process: task modules are discovered on first use
        current_app.loader.import_default_modules()
    return current_app.tasks[name](*args)
