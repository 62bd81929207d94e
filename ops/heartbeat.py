"""Heartbeats of the Celery worker and beat, written to `ops.Heartbeat`.

Connected from config/celery.py (`connect()`):
  * worker: a daemon thread of the worker's main process writes every
    HEARTBEAT_SECONDS from `worker_ready` until shutdown; the same signal
    starts the worker's own metrics exporter when WORKER_METRICS_PORT is set;
  * beat (the scheduler): every time it publishes a task, at most once per
    HEARTBEAT_SECONDS.
The deadline sweeper's own `SweeperState.last_run_at` completes the picture:
it only moves when beat sent a sweep *and* a worker ran it.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 10.0
_last: dict[str, float] = {}
_stop = threading.Event()
_state = {"beat_process": False}


def beat(role: str, name: str | None = None, force: bool = False) -> bool:
    """Record a sign of life (throttled per role in this process). Never raises."""
    now = time.monotonic()
    if not force and now - _last.get(role, -1e9) < HEARTBEAT_SECONDS:
        return False
    _last[role] = now
    try:
        import django
        from django.apps import apps

        if not apps.ready:
            django.setup()
        from django.db import close_old_connections
        from django.utils import timezone

        from .models import Heartbeat

        close_old_connections()
        Heartbeat.objects.update_or_create(role=role, name=(name or f"{socket.gethostname()}:{os.getpid()}")[:200],
                                           defaults={"at": timezone.now()})
        return True
    except Exception:  # a heartbeat must never take its process down
        log.warning("could not record the %s heartbeat", role, exc_info=True)
        return False


def _worker_loop(name: str) -> None:
    while not _stop.is_set():
        beat("worker", name, force=True)
        _stop.wait(HEARTBEAT_SECONDS)


def connect() -> None:
    from celery import signals

    @signals.worker_ready.connect(weak=False)
    def _worker_ready(sender=None, **_kw):
        name = getattr(sender, "hostname", None) or f"{socket.gethostname()}:{os.getpid()}"
        _stop.clear()
        threading.Thread(target=_worker_loop, args=(name,), name="sengoku-heartbeat", daemon=True).start()
        port = os.environ.get("WORKER_METRICS_PORT")
        if port:
            from config.metrics import start_exporter

            try:
                start_exporter(int(port))
                log.info("worker metrics exporter listening on :%s", port)
            except (OSError, ValueError):  # a second worker on the host: the first one serves them
                log.warning("worker metrics exporter not started on :%s", port, exc_info=True)

    @signals.worker_shutdown.connect(weak=False)
    def _worker_shutdown(**_kw):
        _stop.set()

    @signals.beat_init.connect(weak=False)
    def _beat_init(**_kw):
        _state["beat_process"] = True
        beat("scheduler", force=True)

    @signals.before_task_publish.connect(weak=False)
    def _published(**_kw):
        if _state["beat_process"]:
            beat("scheduler")
