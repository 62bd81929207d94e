"""Server-Sent Events: new redacted events as they commit, keep-alive comments,
`Last-Event-ID` resume. Wakes on Redis pub/sub (REDIS_URL) or in-process
notification, and polls the database as a fallback."""

from __future__ import annotations

from django.http import StreamingHttpResponse

from events import feed, store
from games.models import Game
from games.services.present import present_event, viewer_for


def wants_stream(request) -> bool:
    return ("text/event-stream" in request.headers.get("Accept", "")
            or request.query_params.get("stream", "").lower() in ("1", "true", "yes"))


def sse_response(request, body) -> StreamingHttpResponse:
    """An SSE response for `body(after)`: resumes after `?after=` or, when sent,
    the `Last-Event-ID` header (which wins); bad values are 400s."""
    from .common import int_param

    after = int_param(request.query_params.get("after"), 0, "after", 0)
    last = request.headers.get("Last-Event-ID")
    if last:
        after = int_param(last, 0, "Last-Event-ID", 0)
    resp = StreamingHttpResponse(body(after), content_type="text/event-stream")
    resp["Cache-Control"] = "no-cache"
    resp["X-Accel-Buffering"] = "no"  # proxies must not buffer a live stream
    return resp


def event_stream(game: Game, user, after: int):
    def fetch(after: int):
        game.refresh_from_db(fields=["status", "version"])
        viewer = viewer_for(game, user)
        rows = store.load(game.id, after=after, limit=500)
        last = rows[-1].seq if rows else after
        ended = game.status in (Game.Status.FINISHED, Game.Status.ABORTED) and last >= game.version
        return [(r.seq, r.type, present_event(r, viewer)) for r in rows], ended

    return feed.sse(game.id, after, fetch)
