"""Writing and reading heartbeats.

The worker starts its heartbeat thread on Celery's `worker_ready`, beat on
`beat_init`: a daemon thread in the process's main process, so a kill -9 (or
a crash) stops it at once and the row goes stale."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from datetime import datetime, timedelta

from celery.signals import beat_init, worker_ready
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from .models import Heartbeat

log = logging.getLogger(__name__)
_started: set[str] = set()


def beat(role: str, node: str, started_at: datetime) -> None:
    now = timezone.now()
    Heartbeat.objects.update_or_create(
        node=node, defaults={"role": role, "pid": os.getpid(), "started_at": started_at, "beat_at": now}
    )
    # rows of nodes gone for a day (renamed hosts, scaled-down workers) are dropped
    Heartbeat.objects.filter(beat_at__lt=now - timedelta(days=1)).delete()


def _loop(role: str, node: str, interval: float) -> None:
    started_at = timezone.now()
    while True:
        try:
            close_old_connections()
            beat(role, node, started_at)
        except Exception as exc:  # the database is away: /health will say so
            log.warning("heartbeat of %s failed: %s", node, exc)
            connection.close()
        time.sleep(interval)


def start(role: str, node: str) -> None:
    """Start the heartbeat thread of this process (once)."""
    if node in _started:
        return
    _started.add(node)
    threading.Thread(
        target=_loop, args=(role, node, settings.HEARTBEAT_SECONDS), name=f"heartbeat-{role}", daemon=True
    ).start()
    log.info("heartbeat of %s (%s) every %ss", node, role, settings.HEARTBEAT_SECONDS)


def connect_celery_signals() -> None:
    def on_worker_ready(sender: object = None, **_: object) -> None:
        start("worker", getattr(sender, "hostname", None) or f"celery@{socket.gethostname()}")

    def on_beat_init(sender: object = None, **_: object) -> None:
        start("scheduler", f"beat@{socket.gethostname()}:{os.getpid()}")

    worker_ready.connect(on_worker_ready, weak=False)
    beat_init.connect(on_beat_init, weak=False)


def status(role: str) -> tuple[str, float | None]:
    """("ok" | "down" | "never seen", seconds since the freshest heartbeat of the role)."""
    last = Heartbeat.objects.filter(role=role).order_by("-beat_at").values_list("beat_at", flat=True).first()
    if last is None:
        return "never seen", None
    age = max(0.0, (timezone.now() - last).total_seconds())
    return ("ok" if age <= settings.HEARTBEAT_STALE_SECONDS else "down"), age
