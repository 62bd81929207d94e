"""A game's live streams in one process, fed by pushing: one read and one
presentation per viewer for each announced commit, whatever the number of streams.

Why, with the measurements and history: docs/modules.md, `api/live/fanout.py`.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from events import feed
from games.services import stream_reads

from .writer import EagerWriter

log = logging.getLogger(__name__)

MAX_QUEUED = 8  # batches waiting for a slow client before the stream is left to catch up alone

Runner = Callable[..., Awaitable[Any]]  # api.live.hub.db: sync work in the shared pool


class GroupFetch(Protocol):
    """A game stream's fetch (api.live.sse.EventFetch): a batch after a position,
    and the key of the streams that are sent the same batch."""

    def __call__(self, after: int) -> feed.Batch | tuple[list[feed.Item], bool]: ...

    def group_key(self, after: int) -> tuple[Any, ...]: ...


class Sub:
    """One open stream of the game: where it is, and what waits to be written."""

    __slots__ = ("fetch", "after", "out", "event", "writer")

    def __init__(self, fetch: GroupFetch, after: int, writer: EagerWriter | None = None) -> None:
        self.fetch, self.after, self.writer = fetch, after, writer
        self.out: deque[feed.Batch | BaseException] = deque()
        self.event = asyncio.Event()

    def give(self, got: feed.Batch | BaseException) -> None:
        self.out.append(got)
        self.event.set()


def present_groups(wanted: list[tuple[GroupFetch, int]]) -> list[feed.Batch | BaseException]:
    """Run in a pool thread: each group's batch, made by one of its streams' fetch.
    A group whose fetch fails gets the exception (its streams end with it); the
    others are still served."""
    out: list[feed.Batch | BaseException] = []
    for fetch, after in wanted:
        try:
            out.append(feed.as_batch(fetch(after)))
        except Exception as exc:  # handed to the streams of this group, which raise it
            out.append(exc)
    return out


def _from_memory(fetch: GroupFetch, after: int) -> feed.Batch | None:
    """The group's batch made on the loop, or None: the pool makes it (a fetch
    without `from_memory`, one that needs the database, or one that failed, whose
    error the pool's attempt reports)."""
    try:
        make = getattr(fetch, "from_memory", None)
        return make(after) if make is not None else None
    except Exception:
        log.debug("live fan-out: %r made in the pool after an error on the loop", fetch, exc_info=True)
        return None


class Fanout:
    def __init__(self, stream: str, run: Runner) -> None:
        self.stream, self.run = stream, run
        self.subs: set[Sub] = set()
        self.task: asyncio.Task[None] | None = None
        self.again = False
        self.rounds = 0  # reads made (tests, bench)

    def join(self, fetch: GroupFetch, after: int, writer: EagerWriter | None = None) -> Sub:
        sub = Sub(fetch, after, writer)
        self.subs.add(sub)
        self.kick()  # its catch-up: whatever is after its position
        return sub

    def leave(self, sub: Sub) -> None:
        self.subs.discard(sub)
        if not self.subs and self.task is not None and not self.task.done():
            self.task.cancel()

    def kick(self) -> None:
        """Something may be new: make (or remake, after the current round) the batches."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._rounds())
        else:
            self.again = True

    async def _rounds(self) -> None:
        while True:
            self.again = False
            groups = self._groups()
            if groups:
                self.rounds += 1
                wanted = [(subs[0].fetch, after) for (after, *_), subs in groups.items()]
                made = await self._make(wanted)
                for ((after, *_), subs), got in zip(groups.items(), made, strict=True):
                    self._deliver(subs, after, got)
            if not self.again:
                return

    async def _make(self, wanted: list[tuple[GroupFetch, int]]) -> list[feed.Batch | BaseException]:
        """Each group's batch: from memory on the loop where its fetch can
        (`from_memory`: the commit's rows were announced and the state is cached,
        the usual case), the others in one pool call."""
        made: list[feed.Batch | BaseException | None] = [
            _from_memory(fetch, after) for fetch, after in wanted
        ]
        missing = [i for i, got in enumerate(made) if got is None]
        if missing:
            try:
                got = await self.run(present_groups, [wanted[i] for i in missing])
            except Exception as exc:  # the pool itself failed (shutting down): end these streams
                log.warning("live fan-out for %s failed: %s", self.stream, exc)
                got = [exc] * len(missing)
            for i, batch in zip(missing, got, strict=True):
                made[i] = batch
        return made  # type: ignore[return-value]  # no None left: the pool made the missing ones

    def _groups(self) -> dict[tuple[Any, ...], list[Sub]]:
        groups: dict[tuple[Any, ...], list[Sub]] = {}
        for sub in self.subs:
            if len(sub.out) < MAX_QUEUED:
                groups.setdefault(sub.fetch.group_key(sub.after), []).append(sub)
        return groups

    def _deliver(self, subs: list[Sub], after: int, got: feed.Batch | BaseException) -> None:
        if isinstance(got, BaseException):
            for sub in subs:
                sub.give(got)
            return
        if len(got.items) >= stream_reads.MAX_ROWS:
            self.again = True  # a page of a long backlog: the rest next round
        if not got.items and not got.finished:
            return
        last = got.items[-1][0] if got.items else after
        eager = not got.finished  # a batch that ends the stream goes through its task, which then ends it
        now = asyncio.get_running_loop().time()
        for sub in subs:
            if sub in self.subs and sub.after == after:  # still here, and not moved meanwhile
                sub.after = last
                writer = sub.writer
                # straight to the client when nothing waits before it (api/live/writer.py)
                if eager and writer is not None and not sub.out and writer.write_now(got.data, now):
                    continue
                sub.give(got)
