"""Prometheus metrics: the definitions and the exposition.

Counters and histograms are counted in the process where things happen (a web
worker, a Celery worker process, beat). With PROMETHEUS_MULTIPROC_DIR set (the
container entrypoint, gunicorn.conf.py and `make run` set it) every process
writes its values to files there and a scrape adds them up, so `/metrics` of
any web worker shows the whole host. Values derived from the database (games
by status, after-commit lag, heartbeat ages) are computed at scrape time by
`ops.collectors`, registered only on the scrape registry.

Names and labels are documented in docs/deployment.md ("Metrics").
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    start_http_server,
)
from prometheus_client import multiprocess as _mp
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

disable_created_metrics()  # type: ignore[no-untyped-call]  # unannotated; the `_created` twin of every series is noise for our dashboards
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    # A one-off process (`manage.py backup` in a container) may start before anyone made it.
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
LATENESS_BUCKETS = (0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 6 * 3600, 86400)

http_requests = Counter(
    "sengoku_http_requests_total",
    "HTTP requests answered, by view, method and status",
    ["view", "method", "status"],
)
http_latency = Histogram(
    "sengoku_http_request_duration_seconds",
    "Time to the response headers, by view, method and status",
    ["view", "method", "status"],
    buckets=LATENCY_BUCKETS,
)
commands = Counter(
    "sengoku_commands_total",
    "Game commands decided (players, bots and deadline defaults)",
    ["ruleset", "outcome"],
)
events_appended = Counter("sengoku_events_appended_total", "Events committed to game streams", ["ruleset"])
deadlines_fired = Counter("sengoku_deadlines_fired_total", "Missed deadlines whose default was applied")
deadline_lateness = Histogram(
    "sengoku_deadline_lateness_seconds",
    "Seconds between a deadline's due time and its firing",
    buckets=LATENESS_BUCKETS,
)
notifications = Counter(
    "sengoku_notifications_total",
    "Notification delivery results, by channel and outcome",
    ["channel", "outcome"],
)
sse_streams_open = Gauge(
    "sengoku_sse_streams_open", "Server-Sent-Event streams being served", multiprocess_mode="livesum"
)


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def _prune_dead(path: str) -> None:
    """Live gauges of processes that died without a hook (a crashed worker,
    uvicorn, `make run`): forget them, as gunicorn's child_exit hook would."""
    for f in Path(path).glob("gauge_live*_*.db"):
        try:
            pid = int(f.stem.rsplit("_", 1)[1])
        except ValueError:
            continue
        if not Path(f"/proc/{pid}").exists():
            _mp.mark_process_dead(pid, path)  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated


def render(extra_collectors: Iterable[Collector] = ()) -> tuple[bytes, str]:
    """The text exposition of this host's metrics plus `extra_collectors`."""
    path = multiprocess_dir()
    if path:
        _prune_dead(path)
        registry = CollectorRegistry()
        _mp.MultiProcessCollector(registry, path=path)  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated
    else:
        registry = CollectorRegistry()
        registry.register(_Forward(REGISTRY))
    for c in extra_collectors:
        registry.register(c)
    return generate_latest(registry), CONTENT_TYPE_LATEST


class _Forward:
    """The process-global registry, seen through a per-scrape registry (so the
    database collectors are never registered globally)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterable[Metric]:
        return self.registry.collect()

    def describe(self) -> list[Metric]:
        return []


def start_exporter(port: int) -> None:
    """A metrics HTTP server for a process without a web server (a Celery
    worker in its own container): its counters, multi-process aware."""
    path = multiprocess_dir()
    if path:
        registry = CollectorRegistry()
        _mp.MultiProcessCollector(registry, path=path)  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated
        start_http_server(port, registry=registry)
    else:
        start_http_server(port)
