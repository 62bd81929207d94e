"""Server-Sent Events: new redacted events as they commit, keep-alive comments,
`Last-Event-ID` resume, at most STREAMS_PER_ACCOUNT open per account.

The views run as usual (authentication, throttles, lookups, errors); only the
body differs by server. Under ASGI (config/asgi.py hands stream requests to
api.live.asgi, which marks them `sengoku_live`) the body is the async
generator of api/live/hub.py, fed by the process's one shared listener; under WSGI
(Django's test client, a gthread server) it is the synchronous loop of
events/feed.py."""

from __future__ import annotations

import uuid
from collections.abc import AsyncGenerator, Iterator
from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import SynchronousOnlyOperation
from django.http import StreamingHttpResponse

from events import feed, store
from games.models import Game
from games.services import prepared, signing, stream_reads, summaries
from games.services.present import present_event, viewer_for
from games.services.types import Reader

from ..views.common import int_param
from . import hub, slots
from .fanout import GroupFetch
from .writer import EagerWriter

if TYPE_CHECKING:  # for annotations only: no new import at runtime
    from rest_framework.request import Request


def wants_stream(request: Request) -> bool:
    return "text/event-stream" in request.headers.get("Accept", "") or request.query_params.get(
        "stream", ""
    ).lower() in ("1", "true", "yes")


def sse_response(request: Request, stream: str | uuid.UUID, fetch: hub.Fetch) -> StreamingHttpResponse:
    """An SSE response for `fetch` on `stream` (see events.feed.sse): resumes
    after `?after=` or, when sent, the `Last-Event-ID` header (which wins);
    bad values are 400s; beyond the account's cap, 429 + Retry-After."""
    after = int_param(request.query_params.get("after"), 0, "after", 0)
    last = request.headers.get("Last-Event-ID")
    if last:
        after = int_param(last, 0, "Last-Event-ID", 0)
    slot = slots.acquire(cast(int, request.user.id))  # the stream views require a signed-in user
    live_body: AsyncGenerator[bytes, None] | None = None
    live_writer: EagerWriter | None = None
    body: Iterator[str] | AsyncGenerator[bytes, None]
    if getattr(request, "sengoku_live", False):
        # a game stream is pushed to by its game's fan-out, which writes it itself
        # when it can (api/live/writer.py); a user's notices are pulled
        if getattr(fetch, "group_key", None):
            live_writer = EagerWriter()
            body = live_body = hub.push_body(
                stream, after, cast(GroupFetch, fetch), slot=slot, writer=live_writer
            )  # it has a group_key
        else:
            body = live_body = hub.sse_body(stream, after, fetch, slot=slot)
    else:
        body = feed.sse(stream, after, fetch, on_tick=slot.refresh)
    resp = StreamingHttpResponse(body, content_type="text/event-stream")
    # api.live.asgi writes this body itself (Django's per-chunk wrappers cost more than the write)
    resp.live_body = live_body  # type: ignore[attr-defined]  # read back by api.live.asgi
    resp.live_writer = live_writer  # type: ignore[attr-defined]  # read back by api.live.asgi
    # However the response ends (finished, client gone, never started), the slot is freed.
    resp._resource_closers.append(slot.release)  # type: ignore[attr-defined]  # Django's, absent from django-stubs
    resp["Cache-Control"] = "no-cache"
    resp["X-Accel-Buffering"] = "no"  # proxies must not buffer a live stream
    return resp


def _over(status: str) -> bool:
    return status in (Game.Status.FINISHED, Game.Status.ABORTED)


class EventFetch:
    """`fetch(after) -> (items, finished)` over the game's events, redacted for `user`,
    each batch's `summary` in `lang` as in the paged feed (games/services/summaries.py).

    `shared`: a live (ASGI) stream. The process's streams of a game are fed by one
    fan-out (api/live/fanout.py), which groups them by `group_key(after)` and makes
    each group's batch once; the rows come from games/services/stream_reads.py,
    read once per announced commit, and a batch is kept there per viewer and
    language. The seats are read once: nobody changes seat during a game, and a
    stream's life is bounded."""

    def __init__(self, game: Game, user: Reader, lang: str = "en", shared: bool = False) -> None:
        self.game, self.user, self.lang, self.shared = game, user, lang, shared
        self.seats = prepared.seats(game)
        self.mine = viewer_for(game, user, self.seats).seats
        if not shared:
            self.group_key = None  # type: ignore[method-assign, assignment]  # no group: sse_response pulls it

    def __call__(self, after: int) -> feed.Batch | tuple[list[feed.Item], bool]:
        game = self.game
        if not self.shared:
            game.refresh_from_db(fields=["status", "version"])
            if game.version <= after and not _over(game.status):
                return [], False  # nothing new: one query, not three
            return self._present(after, store.load(game.id, after=after, limit=stream_reads.MAX_ROWS))
        return self._from_head(stream_reads.reads.read(game.id, after), after)

    def from_memory(self, after: int) -> feed.Batch | None:
        """The batch a call would make when all it needs is in memory (the announced
        rows, the state cache), else None. Called on the event loop by the live
        fan-out, which so spares the usual commit a hop to the stream pool and back:
        a database read it would need raises SynchronousOnlyOperation there (Django
        refuses queries on a thread running an event loop), and the pool makes it."""
        if not self.shared:
            return None
        head = stream_reads.reads.peek(self.game.id, after)
        if head is None:
            return None
        try:
            got = self._from_head(head, after)
        except SynchronousOnlyOperation:
            return None
        return feed.as_batch(got)

    def _from_head(self, head: stream_reads.Head, after: int) -> feed.Batch | tuple[list[feed.Item], bool]:
        game = self.game
        game.version, game.status = head.version, head.status
        if game.version <= after and not _over(game.status):
            return [], False
        key = (*self.group_key(after), _over(head.status))
        done = head.presented.get(key)
        if done is None:
            done = head.presented[key] = feed.batch(*self._present(after, head.rows))
        return done

    def _present(self, after: int, rows: list[Any]) -> tuple[list[Any], bool]:
        game = self.game
        viewer = viewer_for(game, self.user, self.seats)
        last = rows[-1].seq if rows else after
        out = [present_event(r, viewer) for r in rows]
        summaries.annotate(game, viewer, rows, out, self.lang)
        # each commit's last event carries its signed checkpoint (rows stop at the head, or short of it)
        signing.mark_batches(rows, out, None if last >= game.version else signing.UNKNOWN)
        items = [(r.seq, r.type, o) for r, o in zip(rows, out, strict=True)]
        return items, _over(game.status) and last >= game.version

    def group_key(self, after: int) -> tuple[Any, ...]:
        """Streams with equal keys are sent the same batch: position, seats, language
        (whether the game is over, the rest of what a viewer is, comes with the read)."""
        return (after, self.mine, self.lang)


event_fetch = EventFetch
