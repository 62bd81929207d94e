"""/health on the event loop (api/asgi_health.py): `live` at once, `ready` and the
full check from results a thread keeps fresh (the first probe goes to the view),
503 `stale` when the checks stop completing, and the thread stops when unprobed."""

import asyncio
import json
import threading
import time

import pytest
from asgiref.testing import ApplicationCommunicator

from api import asgi_health, asgi_sync
from api.views.meta import check
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def _scope(query: bytes) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/v1/health",
        "raw_path": b"/api/v1/health",
        "query_string": query,
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }


def probe(query: bytes, timeout: float = 10) -> tuple[int, dict]:
    async def run():
        comm = ApplicationCommunicator(application, _scope(query))
        await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await comm.receive_output(timeout)
        body = await comm.receive_output(timeout)
        await comm.wait(timeout)
        return start["status"], json.loads(body["body"])

    return asyncio.run(run())


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(asgi_health, "_checks", None)
    monkeypatch.setattr(asgi_health, "REFRESH_SECONDS", 0.05)
    yield
    if asgi_health._checks is not None:
        asgi_health._checks.stop()  # no check may outlive the test's database


def wait_for(pred, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return False


def test_the_first_probe_runs_the_view_then_answers_come_from_the_checks_thread(fresh):
    first = probe(b"probe=ready")
    assert first == (200, {"status": "ok", "database": "ok", "broker": "ok"})
    assert wait_for(lambda: asgi_health.checks().answer("ready") is not None)
    release = threading.Event()
    busy = [asgi_sync.pool(lane).submit(release.wait, 30) for lane in ("web", "health") for _ in range(8)]
    try:
        assert probe(b"probe=ready", timeout=2) == first  # no thread free: the loop answered
        assert probe(b"probe=live", timeout=2) == (200, {"status": "ok"})
    finally:
        release.set()
        for f in busy:
            f.result(10)


def test_the_full_check_is_the_views_answer(fresh):
    probe(b"")
    assert wait_for(lambda: asgi_health.checks().answer("") is not None)
    code, body = probe(b"")
    assert (code, body) == check("")
    assert code == 503 and body["worker"] == "never seen"  # no worker heartbeats in tests


def test_an_unknown_probe_is_the_views_400_not_the_full_check(fresh):
    """A typo such as `?probe=redy` must not run (and 503 on) the full check (issue 31)."""
    code, body = probe(b"probe=whatever")
    assert code == 400 and body["code"] == "invalid"


def test_checks_that_stop_completing_make_the_probe_stale(fresh, monkeypatch):
    monkeypatch.setattr(asgi_health, "STALE_SECONDS", 0.3)
    hang = threading.Event()
    checks = asgi_health.checks()
    real = checks.check
    assert probe(b"probe=ready")[0] == 200
    assert wait_for(lambda: checks.answer("ready") is not None)
    checks.check = lambda p: (hang.wait(30), real(p))[1]  # the database hangs
    try:
        assert wait_for(lambda: probe(b"probe=ready")[0] == 503, 5)
        code, body = probe(b"probe=ready")
        assert body["status"] == "error" and "no check completed" in body["stale"]
    finally:
        hang.set()


def test_the_checks_thread_stops_when_nobody_probes(fresh, monkeypatch):
    monkeypatch.setattr(asgi_health, "IDLE_SECONDS", 0.2)
    probe(b"probe=ready")
    checks = asgi_health.checks()
    assert checks.thread is not None
    assert wait_for(lambda: checks.thread is None, 5)


def test_a_check_that_raises_is_a_503_not_a_dead_thread(fresh):
    checks = asgi_health.checks()
    checks.check = lambda probe: 1 / 0
    assert checks.answer("ready") is None
    assert wait_for(lambda: checks.answer("ready") is not None)
    assert checks.answer("ready") == (503, {"status": "error", "check": "error: ZeroDivisionError"})
    assert checks.thread is not None and checks.thread.is_alive()
