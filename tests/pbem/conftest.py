"""Fixtures of the play-by-email tests: a frozen clock, inline delivery,
timed toy games and a local webhook receiver."""

from __future__ import annotations

import datetime as dt
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.conftest import create

T0 = dt.datetime(2026, 3, 2, 12, 0, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _pbem_settings(settings):
    # Bots, zombie seats and notification deliveries run in this process (no broker).
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.PBEM_INLINE = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # Tests jump the clock by hours; only the outage tests want the guard.
    settings.DEADLINE_OUTAGE_SECONDS = 10**8
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast personas
    yield


@pytest.fixture
def clock(time_machine):
    """A stopped clock at T0; clock.shift(seconds) moves it."""
    time_machine.move_to(T0, tick=False)

    class Clock:
        def now(self):
            from django.utils import timezone

            return timezone.now()

        def shift(self, seconds: float):
            time_machine.shift(dt.timedelta(seconds=seconds))

    return Clock()


def start_game(api, creator, others, time_control=None, players=None, ruleset="toy-auction", **body):
    players = players or 1 + len(others)
    if time_control is not None:
        body["time_control"] = time_control
    g = create(api, creator, ruleset=ruleset, players=players, **body)
    for who in others:
        r = api.as_(who).post(f"/api/v1/games/{g['id']}/seats", {})
        assert r.status_code == 201, r.content
    r = api.as_(creator).post(f"/api/v1/games/{g['id']}/start")
    assert r.status_code == 200, r.content
    return r.json()


def meta(api, who, gid):
    r = api.as_(who).get(f"/api/v1/games/{gid}")
    assert r.status_code == 200, r.content
    return r.json()


def feed(api, who, gid, after=0):
    r = api.as_(who).get(f"/api/v1/games/{gid}/events?after={after}&limit=1000")
    assert r.status_code == 200, r.content
    return r.json()["results"]


def events_of(gid, type_=None):
    from events.models import StoredEvent

    qs = StoredEvent.objects.filter(stream=gid).order_by("seq")
    return [e for e in qs if type_ is None or e.type == type_]


def sweep():
    from games.services import deadlines

    return deadlines.sweep()


def iso(d: dt.datetime) -> str:
    return d.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


class Receiver:
    """A local HTTP server (127.0.0.1, a thread) that records webhook POSTs and
    answers with the next status of `script` (then 200)."""

    def __init__(self, script=()):
        self.script = list(script)
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's naming
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.requests.append({"headers": dict(self.headers), "body": body})
                status = outer.script.pop(0) if outer.script else 200
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def json(self, i: int) -> dict:
        return json.loads(self.requests[i]["body"])

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    made = []

    def make(script=()):
        r = Receiver(script)
        made.append(r)
        return r

    yield make
    for r in made:
        r.close()
