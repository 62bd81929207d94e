"""Sweepers, players, press and the clock all at once: no deadlock, no error
in the after-commit hooks, and no deadline fired twice. Meaningful on
PostgreSQL (real row locks); on SQLite writers serialize."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter

import pytest
from django.db import connection, connections

from tests.conftest import Api

from .conftest import events_of, start_game, sweep

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _until(stop: threading.Event, errors: list, fn):
    """A thread body: `fn` again and again until `stop`; the first exception is kept."""

    def run():
        try:
            while not stop.is_set():
                fn()
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    return run


def _player_step(who, gid: str, acts: bool = True):
    """One player's move: sometimes a legal command (never, if not `acts`), always a message."""
    client = Api().as_(who)

    def step():
        legal = client.get(f"/api/v1/games/{gid}/legal-commands").json()
        if acts and legal["commands"] and int(time.monotonic() * 10) % 3 == 0:
            r = client.post(f"/api/v1/games/{gid}/commands", {"command": legal["commands"][0]})
            assert r.status_code in (201, 409, 422), r.content
        r = client.post(f"/api/v1/games/{gid}/messages", {"text": "hm"})
        assert r.status_code in (201, 409, 429), r.content

    return step


def test_everything_at_once(api, clock, host, player, third, caplog):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    caplog.set_level(logging.ERROR)
    g = start_game(
        api,
        host,
        [player, third],
        {"seconds_per_decision": 60, "reminder_before_seconds": 30, "excused_misses": 1000},
    )
    gid = g["id"]
    stop = threading.Event()
    errors: list = []

    threads = [threading.Thread(target=_until(stop, errors, sweep)) for _ in range(3)]
    # The third player only talks: every decision of theirs ends by a default, so
    # a deadline must fire whatever the others do (a CI run once saw none fire
    # while all three played and the short auction could end without one).
    threads += [
        threading.Thread(target=_until(stop, errors, _player_step(w, gid, acts=w != third)))
        for w in (host, player, third)
    ]
    for t in threads:
        t.start()
    # At least 4 s of racing; on a loaded machine, on until a deadline has fired
    # (at most 20 s), so the checks below always have a default to look at.
    for i in range(200):
        time.sleep(0.1)
        clock.shift(20)
        if i >= 39 and events_of(gid, "core.DeadlineMissed"):
            break
    stop.set()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [
        r.getMessage() for r in caplog.records
    ]
    fired = Counter(e.cause["deadline"] for e in events_of(gid) if (e.cause or {}).get("default"))
    assert fired and max(fired.values()) == 1
    assert len(events_of(gid, "core.DeadlineMissed")) == sum(fired.values())
