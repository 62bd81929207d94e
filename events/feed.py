"""Telling live readers that a stream has new events, and the SSE loop.

`publish(stream, version, news)` is called after every commit. With REDIS_URL set
it goes to Redis pub/sub channel ``sengoku:stream:<id>`` (so readers in any
process wake up); in this process it also wakes the local listeners -- the
async hub of the ASGI server (api/live/hub.py) registers one -- and the threads
blocked in a `Waiter` (the WSGI fallback below).

Why, with the measurements and history: docs/modules.md, `events/feed.py`.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
import redis
from django.conf import settings

from . import sealed
from .store import Recorded

_cond = threading.Condition()
_latest: dict[str, int] = defaultdict(int)
News = tuple[str, list[Recorded]]
"""A commit's (game status, stored rows), as `publish` hands them on."""
Listener = Callable[[str, int, News | None], None]
Item = tuple[int, str, Any]
"""One frame of a stream: (id, event name, JSON-able data)."""
# Called as fn(stream, version, news) on every publish in this process (must not block).
local_listeners: list[Listener] = []
CHANNEL_PREFIX = "sengoku:stream:"


def channel(stream: str | uuid.UUID) -> str:
    return f"{CHANNEL_PREFIX}{stream}"


_clients: dict[tuple[int, str], redis.Redis] = {}


def _redis() -> redis.Redis:
    """One client (and connection pool) per process and URL: a publish per
    commit must not open a connection per commit."""

    key = (os.getpid(), settings.REDIS_URL)
    client = _clients.get(key)
    if client is None:
        client = _clients[key] = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)
    return client


MAX_ANNOUNCEMENT_BYTES = 32 * 1024  # larger commits (a game's setup) are announced by version only


def publish(stream: str | uuid.UUID, version: int, news: News | None = None) -> None:
    with _cond:
        _latest[str(stream)] = max(_latest[str(stream)], version)
        _cond.notify_all()
    for fn in list(local_listeners):
        try:
            fn(str(stream), version, news)
        except Exception:  # a closed event loop must not fail a committed command
            pass
    if settings.REDIS_URL:
        try:
            _redis().publish(channel(stream), announcement(version, news, str(stream)))
        except Exception:  # a broker hiccup must not fail a committed command
            pass


def announcement(version: int, news: News | None, stream: str) -> bytes:
    """The pub/sub message: the version, and the rows when they are few; sealed
    when any row is private (only this deployment's web processes open it)."""
    plain = str(version).encode()
    if news is None or not news[1]:
        return plain
    status, rows = news
    body = orjson.dumps(
        {
            "v": version,
            "s": status,
            "r": [
                [
                    r.seq,
                    r.type,
                    r.version,
                    r.payload,
                    r.actor,
                    r.cause,
                    r.recorded_at.isoformat(),
                    r.prev_hash,
                    r.hash,
                    r.visible_to,
                ]
                for r in rows
            ],
        }
    )
    if len(body) > MAX_ANNOUNCEMENT_BYTES:
        return plain
    if any(r.visible_to is not None for r in rows):
        return sealed.seal(channel(stream), version, body)
    return body


def announced_version(data: object) -> int | None:
    """The version a pub/sub message announces, read without parsing its rows or
    opening its seal (None if it cannot be read so): a process drops its own
    commits, which its local listener already delivered, at this cost."""
    if isinstance(data, str):
        data = data.encode()
    if not isinstance(data, bytes):
        return None
    if sealed.is_sealed(data):
        return sealed.sealed_version(data)
    if data[:5] == b'{"v":':  # orjson keeps announcement()'s key order: "v" first
        end = data.find(b",", 5)
        data = data[5:end] if end > 0 else b""
    return int(data) if data.isdigit() else None


def announced(stream: str, data: str | bytes) -> tuple[int | None, News | None]:
    """(version, news) from a pub/sub message of `announcement`; (None, None) if
    unreadable, (version, None) for a sealed one that does not open here."""
    try:
        if isinstance(data, str):
            data = data.encode()
        if sealed.is_sealed(data):
            opened = sealed.open_sealed(channel(stream), data)
            if opened is None:
                return None, None
            data = opened
        if data[:1] == b"{":
            msg = orjson.loads(data)
            gid = uuid.UUID(stream)
            rows = [
                Recorded(
                    gid,
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    r[5],
                    r[9] if len(r) > 9 else None,
                    datetime.fromisoformat(r[6]),
                    r[7],
                    r[8],
                )
                for r in msg["r"]
            ]
            return int(msg["v"]), (str(msg["s"]), rows)
        return int(data), None
    except (TypeError, ValueError, KeyError, IndexError):
        return None, None


class Waiter:
    """Blocks until the stream may have moved past `known`, or `timeout` passes."""

    def __init__(self, stream: str | uuid.UUID) -> None:
        self.stream = str(stream)
        self._pubsub: redis.client.PubSub | None = None
        if settings.REDIS_URL:
            try:
                # redis-py leaves pubsub() unannotated; it returns a PubSub
                self._pubsub = _redis().pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
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
        if self._pubsub is not None:  # its own connection, returned to the shared pool
            try:
                self._pubsub.close()
            except Exception:
                pass


class Lifetime:
    """When a stream sends a keep-alive, and when it ends: after
    STREAM_IDLE_SECONDS without an event (keep-alives do not count) or
    STREAM_MAX_SECONDS in all. Either way the client reconnects with
    Last-Event-ID and misses nothing; the bound recycles dead or forgotten
    streams and the per-account slots they hold."""

    def __init__(self, now: float, max_seconds: float | None = None) -> None:
        cfg = settings.SENGOKU
        self.keepalive = float(cfg["SSE_KEEPALIVE_SECONDS"])
        self.idle = float(cfg["STREAM_IDLE_SECONDS"])
        self.total = float(max_seconds if max_seconds is not None else cfg["STREAM_MAX_SECONDS"])
        self.started = self.last_sent = self.last_event = self.last_tick = now

    def sent_event(self, now: float) -> None:
        self.last_sent = self.last_event = now

    def over(self, now: float) -> str | None:
        """The reason to end now ("lifetime" / "idle"), else None."""
        if now - self.started >= self.total:
            return "lifetime"
        if now - self.last_event >= self.idle:
            return "idle"
        return None

    def keepalive_due(self, now: float) -> bool:
        if now - self.last_sent >= self.keepalive:
            self.last_sent = now
            return True
        return False

    def tick_due(self, now: float) -> bool:
        """Every keep-alive interval, events or not: the stream's slot is renewed on
        this clock (a busy stream sends no keep-alive, but must keep its slot)."""
        if now - self.last_tick >= self.keepalive:
            self.last_tick = now
            return True
        return False

    def wait_for(self, now: float) -> float:
        """How long to sleep before something is due."""
        return max(
            0.0,
            min(
                self.keepalive - (now - self.last_sent),
                self.total - (now - self.started),
                self.idle - (now - self.last_event),
            ),
        )


RETRY = "retry: 2000\n\n"
END = "event: end\ndata: {}\n\n"
KEEPALIVE = ": keep-alive\n\n"


def frame(ident: int | str, name: str, data: Any) -> str:
    # orjson: compact like json.dumps(separators=(",", ":")) at a fifth of its cost
    # (a commit's frames are made once per viewer group and process); non-ASCII
    # text goes out as UTF-8 rather than \u escapes, the same JSON to a parser.
    return (
        f"id: {ident}\nevent: {name}\ndata: {orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()}\n\n"
    )


@dataclass(frozen=True)
class Batch:
    """What one fetch found: its items `(id, event name, data)`, whether the stream
    is over, and their frames as one string (one write to the client, not one per
    event; streams that share a fetch share its encoding too)."""

    items: list[Item]
    finished: bool
    text: str
    data: bytes  # the text as written to the client (the live streams write bytes)


def batch(items: list[Item], finished: bool) -> Batch:
    text = "".join(frame(*item) for item in items)
    return Batch(items, finished, text, text.encode())


def as_batch(got: Batch | tuple[list[Item], bool]) -> Batch:
    """A fetch returns a Batch, or `(items, finished)`."""
    return got if isinstance(got, Batch) else batch(*got)


def reconnect(reason: str) -> str:
    """The last frame of a stream the server ends while the game goes on."""
    return f"event: reconnect\ndata: {json.dumps({'reason': reason})}\n\n"


def sse(
    stream: str | uuid.UUID,
    after: int,
    fetch: Callable[[int], Batch | tuple[list[Item], bool]],
    max_seconds: float | None = None,
    on_tick: Callable[[], None] | None = None,
) -> Iterator[str]:
    """A Server-Sent Events body: `fetch(after) -> (items, finished)` (or a Batch)
    with items `(id, event name, JSON-able data)` in id order. Sends what is new, a
    keep-alive comment when idle, wakes on `publish(stream, …)` (or polls), and
    ends with `event: end` once `finished` (or `event: reconnect` at the end of
    its `Lifetime`). `on_tick()` runs every keep-alive interval, events or not (slot
    refresh). Django
    closes the DB connection when the streaming response is closed; only the
    pub/sub connection is ours."""
    waiter = Waiter(stream)
    life = Lifetime(time.monotonic(), max_seconds)
    try:
        yield RETRY
        while True:
            got = as_batch(fetch(after))
            if got.items:
                yield got.text
                after = got.items[-1][0]
                life.sent_event(time.monotonic())
            if got.finished:
                yield END
                return
            now = time.monotonic()
            reason = life.over(now)
            if reason:
                yield reconnect(reason)
                return
            if on_tick is not None and life.tick_due(now):
                on_tick()
            if life.keepalive_due(now):
                yield KEEPALIVE
            waiter.wait(after, timeout=min(life.wait_for(time.monotonic()), 5))
    finally:
        waiter.close()
