"""The Celery worker's own Prometheus exporter (compose: a separate container
from web, so its counters need their own port). Started on `worker_ready` when
WORKER_METRICS_PORT is set. Heartbeats are the `heartbeats` app's (one source
for /health and /metrics)."""

from __future__ import annotations

import logging
import os

from celery import signals

from telemetry.metrics import start_exporter

log = logging.getLogger(__name__)


def connect() -> None:
    @signals.worker_ready.connect(weak=False)  # type: ignore[untyped-decorator]  # celery's Signal.connect is untyped
    def _worker_ready(sender: object = None, **_kw: object) -> None:
        port = os.environ.get("WORKER_METRICS_PORT")
        if not port:
            return
        try:
            start_exporter(int(port))
            log.info("worker metrics exporter listening on :%s", port)
        except (OSError, ValueError):  # a second worker on the host: the first one serves them
            log.warning("worker metrics exporter not started on :%s", port, exc_info=True)
