"""Under ASGI, /health runs in a lane of its own (api/asgi_sync.py): with every web
thread busy, a probe still answers; an ordinary request waits for a web thread."""

import asyncio
import threading

import pytest
from asgiref.testing import ApplicationCommunicator

from api import asgi_health, asgi_sync
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_checks_left(monkeypatch):
    """The probe below starts api/asgi_health.py's checks thread: end it with the test."""
    monkeypatch.setattr(asgi_health, "_checks", None)
    yield
    if asgi_health._checks is not None:
        asgi_health._checks.stop()


def _scope(path: str, query: bytes = b"") -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }


async def _status(path: str, query: bytes, timeout: float) -> int:
    comm = ApplicationCommunicator(application, _scope(path, query))
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await comm.receive_output(timeout)
    await comm.wait(timeout)
    return start["status"]


def test_health_answers_while_every_web_thread_is_busy():
    release = threading.Event()
    web = asgi_sync.pool("web")
    busy = [web.submit(release.wait, 30) for _ in range(web._max_workers)]
    try:
        assert asyncio.run(_status("/api/v1/health", b"probe=ready", timeout=10)) == 200
        with pytest.raises(TimeoutError):  # the same server's ordinary requests are queued
            asyncio.run(_status("/api/v1/rulesets", b"", timeout=1))
    finally:
        release.set()
        for f in busy:
            f.result(10)
