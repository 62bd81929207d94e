"""Telling live readers that a stream has new events.

With REDIS_URL set, a publish goes to Redis pub/sub channel
``sengoku:stream:<id>`` (so SSE readers in any process wake up); in the
embedded default, an in-process condition wakes readers in this process and
readers elsewhere fall back to polling the database every few hundred ms.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict

from django.conf import settings

_cond = threading.Condition()
_latest: dict[str, int] = defaultdict(int)


def channel(stream) -> str:
    return f"sengoku:stream:{stream}"


def _redis():
    import redis  # imported lazily: the embedded default runs without it

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)


def publish(stream, version: int) -> None:
    with _cond:
        _latest[str(stream)] = max(_latest[str(stream)], version)
        _cond.notify_all()
    if settings.REDIS_URL:
        try:
            _redis().publish(channel(stream), str(version))
        except Exception:  # a broker hiccup must not fail a committed command
            pass


class Waiter:
    """Blocks until the stream may have moved past `known`, or `timeout` passes."""

    def __init__(self, stream):
        self.stream = str(stream)
        self._pubsub = None
        if settings.REDIS_URL:
            try:
                self._pubsub = _redis().pubsub(ignore_subscribe_messages=True)
                self._pubsub.subscribe(channel(stream))
            except Exception:
                self._pubsub = None

    def wait(self, known: int, timeout: float) -> None:
        if self._pubsub is not None:
            try:
                self._pubsub.get_message(timeout=timeout)
                return
            except Exception:
                self._pubsub = None
        poll = settings.SENGOKU["SSE_POLL_SECONDS"]
        end = time.monotonic() + timeout
        with _cond:
            while _latest[self.stream] <= known and time.monotonic() < end:
                # Wake at least every `poll` seconds: another process may have written.
                _cond.wait(min(poll, max(0.0, end - time.monotonic())))
                if _latest[self.stream] <= known:
                    return

    def close(self) -> None:
        if self._pubsub is not None:
            try:
                self._pubsub.close()
            except Exception:
                pass


MAX_STREAM_SECONDS = 3600  # clients reconnect with Last-Event-ID; bounded so web workers are recycled


def sse(stream, after: int, fetch, max_seconds: float = MAX_STREAM_SECONDS):
    """A Server-Sent Events body: `fetch(after) -> (items, finished)` with items
    `(id, event name, JSON-able data)` in id order. Sends what is new, a
    keep-alive comment when idle, wakes on `publish(stream, …)` (or polls), and
    ends with `event: end` once `finished`. Django closes the DB connection when
    the streaming response is closed; only the pub/sub connection is ours."""
    keepalive = settings.SENGOKU["SSE_KEEPALIVE_SECONDS"]
    waiter = Waiter(stream)
    started = last_sent = time.monotonic()
    try:
        yield "retry: 2000\n\n"
        while time.monotonic() - started < max_seconds:
            items, finished = fetch(after)
            for ident, name, data in items:
                yield f"id: {ident}\nevent: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
                after = ident
                last_sent = time.monotonic()
            if finished:
                yield "event: end\ndata: {}\n\n"
                return
            if time.monotonic() - last_sent >= keepalive:
                yield ": keep-alive\n\n"
                last_sent = time.monotonic()
            waiter.wait(after, timeout=min(keepalive, 5))
    finally:
        waiter.close()
