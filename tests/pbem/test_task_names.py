"""Every Celery task lives in games/tasks.py under the name beat, the routes and
the services send (issue 32 merged games/tasks_pbem.py into it): a message queued
by an older process, or a beat entry, must still find its task after the move."""

from __future__ import annotations

from django.conf import settings

from config.celery import app
from games import tasks
from games.services import dispatch

NAMES = {
    "games.after_events": tasks.after_events_task,
    "games.deadlines.fire": tasks.fire,
    "games.pbem.sweep": tasks.sweep,
    "games.pbem.deliver": tasks.deliver,
}


def test_each_task_keeps_its_registered_name() -> None:
    for name, task in NAMES.items():
        assert task.name == name
        assert app.tasks[name].__module__ == "games.tasks"


def test_beat_routes_and_services_name_registered_tasks() -> None:
    sent = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    sent |= set(settings.CELERY_TASK_ROUTES) | {dispatch.AFTER_EVENTS, dispatch.DELIVER}
    assert sent == set(NAMES)
    assert all(name in app.tasks for name in sent)
