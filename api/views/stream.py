"""Server-Sent Events: new redacted events as they commit, keep-alive comments,
`Last-Event-ID` resume. Wakes on Redis pub/sub (REDIS_URL) or in-process
notification, and polls the database as a fallback."""

from __future__ import annotations

import json
import time

from django.conf import settings

from events import feed, store
from games.models import Game
from games.services.present import present_event, viewer_for

MAX_STREAM_SECONDS = 3600  # clients reconnect with Last-Event-ID; bounded so workers are recycled


def wants_stream(request) -> bool:
    return ("text/event-stream" in request.headers.get("Accept", "")
            or request.query_params.get("stream", "").lower() in ("1", "true", "yes"))


def event_stream(game: Game, user, after: int):
    keepalive = settings.SENGOKU["SSE_KEEPALIVE_SECONDS"]
    waiter = feed.Waiter(game.id)
    started = last_sent = time.monotonic()
    try:
        yield "retry: 2000\n\n"
        while time.monotonic() - started < MAX_STREAM_SECONDS:
            game.refresh_from_db(fields=["status", "version"])
            viewer = viewer_for(game, user)
            for row in store.load(game.id, after=after, limit=500):
                data = json.dumps(present_event(row, viewer), separators=(",", ":"))
                yield f"id: {row.seq}\nevent: {row.type}\ndata: {data}\n\n"
                after = row.seq
                last_sent = time.monotonic()
            if game.status in (Game.Status.FINISHED, Game.Status.ABORTED) and after >= game.version:
                yield "event: end\ndata: {}\n\n"
                return
            if time.monotonic() - last_sent >= keepalive:
                yield ": keep-alive\n\n"
                last_sent = time.monotonic()
            waiter.wait(after, timeout=min(keepalive, 5))
    finally:
        # Django closes the DB connection itself when the streaming response is
        # closed (request_finished), so only the pub/sub connection is ours.
        waiter.close()
