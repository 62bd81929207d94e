"""Live streams under ASGI: one shared listener per process, no thread per stream.

A stream (game events, or a user's notices) is an async generator that
subscribes to this process's `Hub` by name (a game id, or "user:<id>") and
sleeps on an `asyncio.Event`. The hub wakes it from

* `events.feed.publish()` in this process (a local listener), at once;
* Redis pub/sub when REDIS_URL is set: ONE pattern subscription per process,
  so a commit in any web process or worker wakes the streams here;
* without Redis (the embedded default): ONE database watcher per process that
  reads the heads of the streams served here every SSE_POLL_SECONDS (a game's
  `version`, a user's newest notice id), so events written by the Celery worker
  or another web process are seen within that interval.

The listener runs only while the process has subscribers and closes its
connection when the last one leaves. Database reads (authentication, the
streams' fetches, the watcher) run in one small thread pool per process
(SSE_DB_THREADS), never in a thread per stream.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from concurrent.futures import ThreadPoolExecutor

import redis.asyncio as aioredis
from django.conf import settings
from django.db import connection
from django.db.models import Max

from events import feed
from games.models import Game, Notification
from games.services import stream_reads

log = logging.getLogger(__name__)

_pool: ThreadPoolExecutor | None = None
_hub: Hub | None = None
# The listener wakes a stream for every commit; this re-read only covers a wake-up lost
# with a dropped Redis connection before the hub noticed (it then wakes everyone anyway).
SAFETY_REFETCH_SECONDS = 60.0
# fetches on their way to the pool, by share key (see _fetch); event-loop state only
_inflight: dict[tuple, asyncio.Future] = {}


def pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(
            max_workers=settings.SENGOKU["SSE_DB_THREADS"], thread_name_prefix="sse-db"
        )
    return _pool


def _guarded(fn, *args):
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


async def db(fn, *args):
    """Await sync (ORM) work from the event loop, in the shared pool."""
    return await asyncio.get_running_loop().run_in_executor(pool(), _guarded, fn, *args)


def in_background(fn, *args) -> None:
    """Sync work whose result nobody waits for (slot refresh/release)."""
    try:
        pool().submit(_guarded, fn, *args)
    except RuntimeError:  # interpreter shutting down
        pass


class Hub:
    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.subs: dict[str, set[asyncio.Event]] = {}
        self.heads: dict[str, int] = {}
        self.listener: asyncio.Task | None = None

    # -- subscribers -----------------------------------------------------------------------
    def subscribe(self, stream: str) -> asyncio.Event:
        ev = asyncio.Event()
        self.subs.setdefault(stream, set()).add(ev)
        if self.listener is None or self.listener.done():
            self.listener = self.loop.create_task(self._listen())
        return ev

    def unsubscribe(self, stream: str, ev: asyncio.Event) -> None:
        subs = self.subs.get(stream)
        if subs is not None:
            subs.discard(ev)
            if not subs:
                del self.subs[stream]
                self.heads.pop(stream, None)
                stream_reads.reads.forget(stream)
        if not self.subs and self.listener is not None:
            self.listener.cancel()
            self.listener = None

    def subscribers(self) -> int:
        return sum(len(s) for s in self.subs.values())

    # -- waking ----------------------------------------------------------------------------
    def wake(self, stream: str) -> None:
        if stream in self.subs and not stream.startswith("user:"):
            stream_reads.reads.changed(stream)  # before the streams run: they must re-read
        for ev in self.subs.get(stream, ()):
            ev.set()

    def wake_all(self) -> None:
        for stream in list(self.subs):
            self.wake(stream)

    def wake_threadsafe(self, stream: str, _version: int) -> None:
        """events.feed local listener: called from whatever thread committed."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.wake, stream)

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
                        self.wake(channel[len(prefix) :])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("stream listener lost Redis (%s); reconnecting", exc)
                self.wake_all()
                await asyncio.sleep(1)
            finally:
                await _quietly(pubsub.aclose())
                await _quietly(client.aclose())

    async def _watch_database(self) -> None:
        poll = settings.SENGOKU["SSE_POLL_SECONDS"]
        while True:
            streams = list(self.subs)
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


async def _quietly(aw) -> None:
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


def stats() -> dict:
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


async def _fetch(fetch, after: int) -> feed.Batch:
    """A fetch whose answer another stream of this process already made (`fetch.peek`,
    memory only) costs no trip to the pool. Otherwise streams that would make the same
    batch (`fetch.share_key(after)`: game, announced generation, position, viewer)
    wait for the one that went to the pool instead of queueing there behind it."""
    peek = getattr(fetch, "peek", None)
    got = peek(after) if peek is not None else None
    if got is not None:
        return feed.as_batch(got)
    share = getattr(fetch, "share_key", None)
    key = share(after) if share is not None else None
    if key is None:
        return feed.as_batch(await db(fetch, after))
    running = _inflight.get(key)
    if running is not None:
        return await asyncio.shield(running)  # a follower that goes away leaves the read alone
    task = asyncio.ensure_future(_lead(fetch, after, key))
    _inflight[key] = task
    return await asyncio.shield(task)


async def _lead(fetch, after: int, key) -> feed.Batch:
    try:
        return feed.as_batch(await db(fetch, after))
    finally:
        _inflight.pop(key, None)


async def sse_body(stream, after: int, fetch, slot=None, max_seconds: float | None = None):
    """The async twin of events.feed.sse: same frames, same Lifetime, but it
    sleeps on the hub instead of holding a thread, and its fetches run in the
    shared pool. Cancelled by the server when the client goes away; the
    finally clause then unsubscribes and frees the account's slot."""
    h = hub()
    stream = str(stream)
    ev = h.subscribe(stream)
    loop = asyncio.get_running_loop()
    life = feed.Lifetime(loop.time(), max_seconds)
    woken, fetched_at = True, loop.time()
    try:
        yield feed.RETRY
        while True:
            # Read only when woken (or, as a safety net, every SAFETY_REFETCH_SECONDS):
            # a keep-alive costs no query, so a thousand idle streams cost nothing.
            if woken or loop.time() - fetched_at >= SAFETY_REFETCH_SECONDS:
                ev.clear()  # a wake during the fetch below is kept for the wait after it
                fetched_at = loop.time()
                got = await _fetch(fetch, after)
                if got.items:
                    yield got.text
                    after = got.items[-1][0]
                    life.sent_event(loop.time())
                if got.finished:
                    yield feed.END
                    return
            now = loop.time()
            reason = life.over(now)
            if reason:
                yield feed.reconnect(reason)
                return
            if life.keepalive_due(now):
                if slot is not None:
                    in_background(slot.refresh)
                yield feed.KEEPALIVE
            woken = ev.is_set() or await _woken(ev, life.wait_for(loop.time()))
    finally:
        h.unsubscribe(stream, ev)
        if slot is not None:
            in_background(slot.release)
