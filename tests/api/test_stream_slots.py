"""A live stream keeps its place in its account's count (api/live/slots.py) for
as long as it is open, busy or idle. Slots used to be renewed only at a
keep-alive, which a stream with an event every few seconds never sends: its
slot lapsed after slot_ttl() and the account could open more than the cap."""

from __future__ import annotations

import asyncio
import os
import time
import uuid

import pytest
import redis

from api.live import hub as live_hub
from api.live import slots
from events import feed

REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.fixture
def shared_slots(settings):
    if not REDIS_URL:
        pytest.skip("the shared slot count needs Redis (the PostgreSQL + Redis pass)")
    settings.REDIS_URL = REDIS_URL
    user_id = 10**9 + uuid.uuid4().int % 10**6  # an account no other test counts streams for
    client = redis.Redis.from_url(REDIS_URL)
    yield user_id, client
    client.delete(slots._key(user_id))


def test_refresh_open_renews_every_open_slot_in_one_go_and_never_revives_a_released_one(shared_slots):
    user_id, client = shared_slots
    key = slots._key(user_id)
    kept, gone = slots.acquire(user_id), slots.acquire(user_id)
    gone.release()
    soon = time.time() + 1
    client.zadd(key, {kept.member: soon})  # about to lapse: a busy stream never sent a keep-alive

    assert slots.refresh_open() >= 1
    score = client.zscore(key, kept.member)
    assert score is not None and score > time.time() + slots.slot_ttl() - 5
    assert client.zscore(key, gone.member) is None
    kept.release()
    assert kept not in slots._open and gone not in slots._open


def test_a_slot_lapsed_elsewhere_is_not_brought_back(shared_slots):
    user_id, client = shared_slots
    slot = slots.acquire(user_id)
    client.zrem(slots._key(user_id), slot.member)  # expired and swept by another process
    slots.refresh_open()
    assert client.zscore(slots._key(user_id), slot.member) is None
    slot.release()


def test_the_hub_renews_the_slots_while_it_has_streams_and_stops_after_the_last(monkeypatch):
    calls: list[float] = []
    monkeypatch.setattr(slots, "refresh_interval", lambda: 0.02)
    monkeypatch.setattr(slots, "refresh_open", lambda: calls.append(time.monotonic()) or 0)
    monkeypatch.setattr(live_hub, "in_background", lambda fn, *args: fn(*args))

    async def quiet(self):  # no listener: this test is about the renewal clock
        await asyncio.Event().wait()

    monkeypatch.setattr(live_hub.Hub, "_listen", quiet)

    async def run():
        hub = live_hub.Hub(asyncio.get_running_loop())
        ev = hub.subscribe("user:1")
        await asyncio.sleep(0.15)
        assert len(calls) >= 3, "renewed on its own clock, events or not"
        hub.unsubscribe("user:1", ev)
        assert hub.renewer is None
        n = len(calls)
        await asyncio.sleep(0.1)
        assert len(calls) == n

    asyncio.run(run())


def test_a_busy_wsgi_stream_still_ticks_every_keepalive_interval(settings, monkeypatch):
    """events.feed.sse: an event every 0.6 s (keep-alive 1 s) sends no keep-alive,
    yet on_tick (the slot's renewal) runs about once a second."""
    settings.SENGOKU = {**settings.SENGOKU, "SSE_KEEPALIVE_SECONDS": 1}
    clock = [1000.0]
    monkeypatch.setattr(feed.time, "monotonic", lambda: clock[0])

    class Waiter:
        def __init__(self, stream):
            pass

        def wait(self, after, timeout):
            clock[0] += 0.6

        def close(self):
            pass

    monkeypatch.setattr(feed, "Waiter", Waiter)
    ticks: list[float] = []
    seq = [0]

    def fetch(after):
        seq[0] += 1
        return [(seq[0], "e", {"n": seq[0]})], False

    body = feed.sse("g", 0, fetch, on_tick=lambda: ticks.append(clock[0]))
    frames = [next(body) for _ in range(12)]
    body.close()
    assert not any(f.startswith(":") for f in frames), "a busy stream sends no keep-alive"
    assert len(ticks) >= 4 and all(b - a <= 1.3 for a, b in zip(ticks, ticks[1:], strict=False))


def test_lifetime_ticks_on_its_own_clock_not_the_keepalives():
    life = feed.Lifetime(0.0)
    every = life.keepalive
    life.sent_event(every * 0.9)
    assert life.tick_due(every) and not life.keepalive_due(every)
    assert not life.tick_due(every * 1.5) and life.tick_due(every * 2)
