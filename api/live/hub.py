"""Live streams under ASGI: one shared listener per process, no thread per stream.

A stream (game events, or a user's notices) is an async generator that
subscribes to this process's `Hub` by name (a game id, or "user:<id>") and
sleeps on an `asyncio.Event`. The hub wakes it from

Why, with the measurements and history: docs/modules.md, `api/live/hub.py`.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncGenerator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

import redis.asyncio as aioredis
from django.conf import settings
from django.db import connection
from django.db.models import Max

from events import feed
from games.models import Game, Notification
from games.services import stream_reads

from . import slots
from .fanout import MAX_QUEUED, Fanout, GroupFetch, Sub
from .writer import EagerWriter

log = logging.getLogger(__name__)

T = TypeVar("T")
Fetch = Callable[[int], feed.Batch | tuple[list[feed.Item], bool]]  # see events.feed.sse

_pool: ThreadPoolExecutor | None = None
_hub: Hub | None = None
# The listener wakes a stream for every commit; this re-read only covers a wake-up lost
# with a dropped Redis connection before the hub noticed (it then wakes everyone anyway).
SAFETY_REFETCH_SECONDS = 60.0


def pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(
            max_workers=cast(
                int, settings.SENGOKU["SSE_DB_THREADS"]
            ),  # an int setting thread_name_prefix="sse-db"
        )
    return _pool


def guarded(fn: Callable[..., T], *args: Any) -> T:
    """Run fn in a pool thread. Pool threads have no request cycle: with
    psycopg's pool the connection goes back to it after each call; otherwise
    it is kept, and dropped when broken or too old."""
    pooled = bool(connection.settings_dict.get("OPTIONS", {}).get("pool"))
    if not pooled and connection.settings_dict.get("CONN_MAX_AGE"):
        connection.close_if_unusable_or_obsolete()
    try:
        return fn(*args)
    except Exception:
        connection.close()
        raise
    finally:
        if pooled:
            connection.close()


async def db(fn: Callable[..., T], *args: Any) -> T:
    """Await sync (ORM) work from the event loop, in the shared pool."""
    return await asyncio.get_running_loop().run_in_executor(pool(), guarded, fn, *args)


def in_background(fn: Callable[..., object], *args: Any) -> None:
    """Sync work whose result nobody waits for (slot refresh/release)."""
    try:
        pool().submit(guarded, fn, *args)
    except RuntimeError:  # interpreter shutting down
        pass


class Hub:
    """Pull streams (a user's notices) wait on an `asyncio.Event` each; game streams
    join their game's `Fanout` (api/live/fanout.py), which reads and presents each
    announced commit once and pushes the result to them."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.subs: dict[str, set[asyncio.Event]] = {}
        self.fanouts: dict[str, Fanout] = {}
        self.heads: dict[str, int] = {}
        self.listener: asyncio.Task[None] | None = None
        self.renewer: asyncio.Task[None] | None = None

    # -- subscribers -----------------------------------------------------------------------
    def subscribe(self, stream: str) -> asyncio.Event:
        ev = asyncio.Event()
        self.subs.setdefault(stream, set()).add(ev)
        self._listening()
        return ev

    def unsubscribe(self, stream: str, ev: asyncio.Event) -> None:
        subs = self.subs.get(stream)
        if subs is not None:
            subs.discard(ev)
            if not subs:
                del self.subs[stream]
                self._forget(stream)
        self._idle()

    def join(
        self, stream: str, fetch: GroupFetch, after: int, writer: EagerWriter | None = None
    ) -> tuple[Fanout, Sub]:
        fan = self.fanouts.get(stream)
        if fan is None:
            fan = self.fanouts[stream] = Fanout(stream, db)
        self._listening()
        return fan, fan.join(fetch, after, writer)

    def leave(self, stream: str, fan: Fanout, sub: Sub) -> None:
        fan.leave(sub)
        if not fan.subs and self.fanouts.get(stream) is fan:
            del self.fanouts[stream]
            self._forget(stream)
        self._idle()

    def _forget(self, stream: str) -> None:
        if stream not in self.subs and stream not in self.fanouts:
            self.heads.pop(stream, None)
            stream_reads.reads.forget(stream)

    def _listening(self) -> None:
        if self.listener is None or self.listener.done():
            self.listener = self.loop.create_task(self._listen())
        if self.renewer is None or self.renewer.done():
            self.renewer = self.loop.create_task(self._renew_slots())

    def _idle(self) -> None:
        if not self.subs and not self.fanouts:
            for task in (self.listener, self.renewer):
                if task is not None:
                    task.cancel()
            self.listener = self.renewer = None

    async def _renew_slots(self) -> None:
        """The open streams' slots (api/live/slots.py), busy or idle, renewed
        together: one pipelined Redis round trip per interval for the whole
        process, not one command per stream at its keep-alive."""
        while True:
            await asyncio.sleep(slots.refresh_interval())
            in_background(slots.refresh_open)

    def streams(self) -> list[str]:
        return list(self.subs.keys() | self.fanouts.keys())

    def subscribers(self) -> int:
        return sum(len(s) for s in self.subs.values()) + sum(len(f.subs) for f in self.fanouts.values())

    # -- waking ----------------------------------------------------------------------------
    def wake(self, stream: str, version: int | None = None, news: tuple[Any, ...] | None = None) -> None:
        """Something may be new on `stream`. A wake that names a version already seen
        is dropped: with Redis, a commit in this process arrives twice (the local
        listener at once, then its own pub/sub message), and a second round of
        reads for it would double the streams' cost."""
        if version is not None:
            if version <= self.heads.get(stream, 0):
                return
            if stream in self.subs or stream in self.fanouts:
                self.heads[stream] = version
        fan = self.fanouts.get(stream)
        if (fan is not None or stream in self.subs) and not stream.startswith("user:"):
            # before anything reads: it must read again, or take the announced rows
            if news is None or version is None:
                stream_reads.reads.changed(stream)
            else:
                stream_reads.reads.pushed(stream, version, *news)
        if fan is not None:
            fan.kick()
        for ev in self.subs.get(stream, ()):
            ev.set()

    def _wanted(self, stream: str, data: Any) -> bool:
        """Is a pub/sub message worth parsing? Not when no stream of this process
        watches its game, nor when it announces a version already seen (this
        process's own commit, delivered by the local listener): `wake` would drop
        both, after the parse, the seal and the rows it costs."""
        if stream not in self.subs and stream not in self.fanouts:
            return False
        version = feed.announced_version(data)
        return version is None or version > self.heads.get(stream, 0)

    def wake_all(self) -> None:
        for stream in self.streams():
            self.wake(stream)

    def wake_threadsafe(self, stream: str, version: int, news: tuple[Any, ...] | None = None) -> None:
        """events.feed local listener: called from whatever thread committed."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.wake, stream, version, news)

    # -- the one listener ------------------------------------------------------------------
    async def _listen(self) -> None:
        if settings.REDIS_URL:
            await self._listen_redis()
        else:
            await self._watch_database()

    async def _listen_redis(self) -> None:
        prefix = feed.CHANNEL_PREFIX
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=5)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(prefix + "*")
                self.wake_all()  # whatever was published before the subscription took
                async for msg in pubsub.listen():
                    if msg.get("type") == "pmessage":
                        channel = (
                            msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
                        )
                        stream = channel[len(prefix) :]
                        if self._wanted(stream, msg.get("data")):
                            self.wake(stream, *feed.announced(stream, msg.get("data")))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("stream listener lost Redis (%s); reconnecting", exc)
                self.wake_all()
                await asyncio.sleep(1)
            finally:
                await _quietly(pubsub.aclose())  # type: ignore[no-untyped-call]  # redis-py's untyped PubSub.aclose
                await _quietly(client.aclose())

    async def _watch_database(self) -> None:
        poll = settings.SENGOKU["SSE_POLL_SECONDS"]
        while True:
            streams = self.streams()
            try:
                heads = await db(read_heads, streams) if streams else {}
            except Exception as exc:
                log.warning("stream listener could not read the database: %s", exc)
                heads = {}
            for stream, head in heads.items():
                old = self.heads.get(stream)
                self.heads[stream] = head
                # First sight: wake once, in case something landed between the
                # subscriber's first fetch and this read.
                if old is None or head > old:
                    self.wake(stream)
            await asyncio.sleep(poll)


async def _quietly(aw: Awaitable[object]) -> None:
    try:
        await aw
    except Exception:
        pass


def read_heads(streams: list[str]) -> dict[str, int]:
    """The newest version of each game stream and the newest notice id of each
    user stream: two indexed queries whatever the number of streams."""

    games, users = [], []
    for s in streams:
        if s.startswith("user:"):
            users.append(int(s[5:]))
        else:
            try:
                games.append(uuid.UUID(s))
            except ValueError:
                continue
    out: dict[str, int] = {}
    if games:
        for gid, version in Game.objects.filter(id__in=games).values_list("id", "version"):
            out[str(gid)] = version
    if users:
        rows = (
            Notification.objects.filter(user_id__in=users, channel=Notification.Channel.STREAM)
            .values("user_id")
            .annotate(head=Max("id"))
            .values_list("user_id", "head")
        )
        for uid, head in rows:
            out[f"user:{uid}"] = head
    return out


def hub() -> Hub:
    """This process's hub, bound to the running loop (one per uvicorn worker)."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop:
        if _hub is not None and _hub.wake_threadsafe in feed.local_listeners:
            feed.local_listeners.remove(_hub.wake_threadsafe)
        _hub = Hub(loop)
        feed.local_listeners.append(_hub.wake_threadsafe)
    return _hub


def stats() -> dict[str, Any]:
    """Open streams and listener state in this process (bench, tests)."""
    h = _hub
    return {
        "subscribers": h.subscribers() if h else 0,
        "listener": bool(h and h.listener and not h.listener.done()),
    }


async def _woken(ev: asyncio.Event, timeout: float) -> bool:
    """Whether `ev` was set within `timeout`. `asyncio.timeout`, not `wait_for`: the
    latter wraps every wait of every stream in a task of its own."""
    try:
        async with asyncio.timeout(timeout):
            await ev.wait()
        return True
    except TimeoutError:
        return False


async def _fetch(fetch: Fetch, after: int) -> feed.Batch:
    return feed.as_batch(await db(fetch, after))


async def sse_body(
    stream: object, after: int, fetch: Fetch, slot: slots.Slot | None = None, max_seconds: float | None = None
) -> AsyncGenerator[bytes, None]:
    """The async twin of events.feed.sse: same frames, same Lifetime, but it
    sleeps on the hub instead of holding a thread, and its fetches run in the
    shared pool; it yields bytes (api.live.asgi writes them as they are). Cancelled by the server when the client goes away; the
    finally clause then unsubscribes and frees the account's slot."""
    h = hub()
    stream = str(stream)
    ev = h.subscribe(stream)
    loop = asyncio.get_running_loop()
    life = feed.Lifetime(loop.time(), max_seconds)
    woken, fetched_at = True, loop.time()
    try:
        yield feed.RETRY.encode()
        while True:
            # Read only when woken (or, as a safety net, every SAFETY_REFETCH_SECONDS):
            # a keep-alive costs no query, so a thousand idle streams cost nothing.
            if woken or loop.time() - fetched_at >= SAFETY_REFETCH_SECONDS:
                ev.clear()  # a wake during the fetch below is kept for the wait after it
                fetched_at = loop.time()
                got = await _fetch(fetch, after)
                if got.items:
                    yield got.data
                    after = got.items[-1][0]
                    life.sent_event(loop.time())
                if got.finished:
                    yield feed.END.encode()
                    return
            now = loop.time()
            reason = life.over(now)
            if reason:
                yield feed.reconnect(reason).encode()
                return
            if life.keepalive_due(now):
                yield feed.KEEPALIVE.encode()
            woken = ev.is_set() or await _woken(ev, life.wait_for(loop.time()))
    finally:
        h.unsubscribe(stream, ev)
        if slot is not None:
            in_background(slot.release)


def _drain(sub: Sub) -> tuple[bytes, bool]:
    """What the fan-out queued for a stream, as one write; and whether the game is
    over. A failed read queued for it is raised (the stream ends with it)."""
    parts: list[bytes] = []
    finished = False
    while sub.out and not finished:
        got = sub.out.popleft()
        if isinstance(got, BaseException):
            raise got
        parts.append(got.data)
        finished = got.finished
    return b"".join(parts), finished


def _count_eager_writes(life: feed.Lifetime, writer: EagerWriter | None) -> None:
    """Events the fan-out wrote meanwhile count for the keep-alive and idle clocks."""
    if writer is not None and writer.last > life.last_event:
        life.sent_event(writer.last)


async def push_body(
    stream: object,
    after: int,
    fetch: GroupFetch,
    slot: slots.Slot | None = None,
    max_seconds: float | None = None,
    writer: EagerWriter | None = None,
) -> AsyncGenerator[bytes, None]:
    """A game stream fed by its game's Fanout: the same frames and Lifetime as
    sse_body, but the stream itself never reads; it writes what the fan-out
    queued for it (bytes, so the ASGI sender writes them as they are). With a
    `writer` (api.live.asgi gives it the server's send) the fan-out writes
    most batches itself and this task wakes only for the rest: keep-alives, the
    end, a client too slow to take a batch at once."""
    h = hub()
    stream = str(stream)
    fan, sub = h.join(stream, fetch, after, writer)
    loop = asyncio.get_running_loop()
    life = feed.Lifetime(loop.time(), max_seconds)
    kicked_at = loop.time()
    try:
        yield feed.RETRY.encode()
        while True:
            sub.event.clear()
            full = len(sub.out) >= MAX_QUEUED
            data, finished = _drain(sub)
            if data:
                yield data
                life.sent_event(loop.time())
            if finished:
                yield feed.END.encode()
                return
            now = loop.time()
            _count_eager_writes(life, writer)
            if full or now - kicked_at >= SAFETY_REFETCH_SECONDS:
                kicked_at = now  # left behind while slow, or a wake-up lost with Redis: catch up
                fan.kick()
            reason = life.over(now)
            if reason:
                yield feed.reconnect(reason).encode()
                return
            if life.keepalive_due(now):
                yield feed.KEEPALIVE.encode()
            if not sub.event.is_set():
                await _woken(sub.event, min(life.wait_for(loop.time()), SAFETY_REFETCH_SECONDS))
    finally:
        h.leave(stream, fan, sub)
        if slot is not None:
            in_background(slot.release)
