"""`/health` answered on the event loop, from checks a thread of its own repeats.

Why, with the measurements and history: docs/modules.md, `api/asgi_health.py`.
"""

from __future__ import annotations

import os
import re
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import orjson
from django.core.handlers.asgi import ASGIHandler

from telemetry import metrics

from . import asgi_sync
from .live import hub
from .views.meta import check

_HEALTH = re.compile(r"^/api/v1/health/?$")
REFRESH_SECONDS = float(os.environ.get("HEALTH_REFRESH_SECONDS", "1"))
STALE_SECONDS = float(os.environ.get("HEALTH_STALE_SECONDS", "5"))
IDLE_SECONDS = 60.0


def handles(scope: asgi_sync.Scope) -> bool:
    # an unknown `?probe=` goes on to the view, which answers it 400 `invalid` (issue 31)
    return (
        scope.get("type") == "http"
        and scope.get("method") == "GET"
        and bool(_HEALTH.match(scope["path"]))
        and _probe(scope) is not None
    )


def _probe(scope: asgi_sync.Scope) -> str | None:
    """The probe asked for: the full check (""), "live" or "ready"; None for anything else."""
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    probe = (query.get("probe") or [""])[0]
    return probe if probe in ("", "live", "ready") else None


class Checks:
    """The last result of each probe kind asked for in this process, kept fresh."""

    def __init__(self, check: Callable[[str], tuple[int, dict[str, Any]]]) -> None:
        self.check = check
        self.lock = threading.Lock()
        self.asked: dict[str, float] = {}
        self.results: dict[str, tuple[float, int, dict[str, Any]]] = {}
        self.thread: threading.Thread | None = None
        self.stopping = threading.Event()

    def answer(self, probe: str) -> tuple[int, dict[str, Any]] | None:
        """The probe's (status, body) from the last run, or None before the first."""
        now = time.monotonic()
        with self.lock:
            self.asked[probe] = now
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="health-checks", daemon=True)
                self.thread.start()
            got = self.results.get(probe)
        if got is None:
            return None
        at, code, body = got
        if now - at > STALE_SECONDS:
            return 503, {"status": "error", "stale": f"no check completed for {now - at:.0f}s"}
        return code, body

    def stop(self) -> None:
        """End the thread (tests; a server's thread ends with its process)."""
        self.stopping.set()
        thread = self.thread
        if thread is not None:
            thread.join(10)

    def _run(self) -> None:
        while not self.stopping.is_set():
            with self.lock:
                now = time.monotonic()
                wanted = [p for p, at in self.asked.items() if now - at < IDLE_SECONDS]
                if not wanted:
                    self.thread = None
                    return
            for probe in wanted:
                try:
                    code, body = hub.guarded(self.check, probe)
                except Exception as exc:  # the checks report failures; this is the unforeseen one
                    code, body = 503, {"status": "error", "check": f"error: {type(exc).__name__}"}
                with self.lock:
                    self.results[probe] = (time.monotonic(), code, body)
            self.stopping.wait(REFRESH_SECONDS)
        with self.lock:
            self.thread = None


_checks: Checks | None = None


def checks() -> Checks:
    global _checks
    if _checks is None:
        _checks = Checks(check)
    return _checks


async def serve(
    django_app: ASGIHandler, scope: asgi_sync.Scope, receive: asgi_sync.Receive, send: asgi_sync.Send
) -> None:
    probe = _probe(scope) or ""
    got = (200, {"status": "ok"}) if probe == "live" else checks().answer(probe)
    if got is None:  # no run has completed yet: the view, in the health lane
        await asgi_sync.serve(django_app, scope, receive, send)
        return
    code, body = got
    data = orjson.dumps(body)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(data)).encode()),
        (b"x-request-id", uuid.uuid4().hex.encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": code, "headers": headers})
    await send({"type": "http.response.body", "body": data})
    metrics.http_requests.labels("HealthView", "GET", str(code)).inc()
