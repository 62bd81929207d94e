"""Writing a game stream's batch from the fan-out itself, without waking the stream.

Each delivery used to go: the fan-out queues the batch on the stream's outbox
and sets its Event; the stream's task wakes (leaving and re-entering its
keep-alive timeout), drains the outbox, yields the bytes to api.live.asgi,
which `await`s the ASGI server's `send`. Measured on the streams bench, that
hop cost more of the event loop than the write itself, nine times per command
(docs/benchmarks.md, "Live streams").

Why, with the measurements and history: docs/modules.md, `api/live/writer.py`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

log = logging.getLogger(__name__)

Send = Callable[[Mapping[str, Any]], Coroutine[Any, Any, None]]


class EagerWriter:
    __slots__ = ("send", "busy", "tail", "last")

    def __init__(self) -> None:
        self.send: Send | None = None
        self.busy = False
        self.tail: asyncio.Task[None] | None = None
        self.last = 0.0  # loop time of the last eager write: the stream's keep-alive and idle clocks

    def write_now(self, chunk: bytes, now: float) -> bool:
        """Write `chunk` now if nothing is being written; False: queue it instead."""
        send = self.send
        if send is None or self.busy or (self.tail is not None and not self.tail.done()):
            return False
        step = send({"type": "http.response.body", "body": chunk, "more_body": True})
        try:
            waiting = step.send(None)
        except StopIteration:
            self.last = now
            return True
        except Exception as exc:
            # The server refused before writing (its send checks come first): the
            # stream's task meets the same error on its next write and ends there.
            log.debug("eager stream write refused: %s", exc)
            self.send = None
            return False
        self.tail = asyncio.ensure_future(_finish(step, waiting))
        self.last = now
        return True

    async def settle(self) -> None:
        """Wait for an eager write still waiting on the client (raises its error)."""
        tail = self.tail
        if tail is not None:
            self.tail = None
            await tail

    def close(self) -> None:
        self.send = None
        if self.tail is not None and not self.tail.done():
            self.tail.cancel()


async def _finish(step: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Run the rest of a `send` coroutine that suspended on `waiting` (a future),
    as the task that would have run it: wait until that future is done, then
    resume the coroutine, which reads the future's result itself."""
    try:
        while True:
            if waiting is None:  # a bare yield (sleep(0)): the task would just step again
                await asyncio.sleep(0)
            else:
                await asyncio.wait((waiting,))
            try:
                waiting = step.send(None)
            except StopIteration:
                return
    except asyncio.CancelledError:
        step.close()
        raise
