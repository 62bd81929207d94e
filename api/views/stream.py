"""Server-Sent Events: new redacted events as they commit, keep-alive comments,
`Last-Event-ID` resume. Wakes on Redis pub/sub (REDIS_URL) or in-process
notification, and polls the database as a fallback."""

from __future__ import annotations

from events import feed, store
from games.models import Game
from games.services.present import present_event, viewer_for


def wants_stream(request) -> bool:
    return ("text/event-stream" in request.headers.get("Accept", "")
            or request.query_params.get("stream", "").lower() in ("1", "true", "yes"))


def event_stream(game: Game, user, after: int):
    def fetch(after: int):
        game.refresh_from_db(fields=["status", "version"])
        viewer = viewer_for(game, user)
        rows = store.load(game.id, after=after, limit=500)
        last = rows[-1].seq if rows else after
        ended = game.status in (Game.Status.FINISHED, Game.Status.ABORTED) and last >= game.version
        return [(r.seq, r.type, present_event(r, viewer)) for r in rows], ended

    return feed.sse(game.id, after, fetch)
