"""The per-user SSE stream of notices (GET /api/v1/accounts/me/stream).

`id:` is the notification id (the user's stream rows, increasing), so a client
resumes with `Last-Event-ID`. Wakes on Redis pub/sub (channel
``sengoku:stream:user:<id>``, see events/feed.py) when REDIS_URL is set, on an
in-process condition otherwise, and polls the database as a fallback.
"""

from __future__ import annotations

import json
import time

from django.conf import settings
from django.db import close_old_connections

from events import feed
from games.models import Notification

MAX_STREAM_SECONDS = 3600  # clients reconnect with Last-Event-ID; bounded so web workers are recycled


def notices_after(user_id: int, after: int, limit: int = 200):
    return list(Notification.objects.filter(user_id=user_id, channel=Notification.Channel.STREAM, id__gt=after)
                .order_by("id")[:limit])


def notice_json(n: Notification) -> dict:
    return {"id": n.id, "kind": n.kind, "created_at": n.payload.get("created_at"), "payload": n.payload}


def user_stream(user, after: int, max_seconds: float = MAX_STREAM_SECONDS):
    keepalive = settings.SENGOKU["SSE_KEEPALIVE_SECONDS"]
    from games.services.notify import user_channel

    waiter = feed.Waiter(user_channel(user.id))
    started = last_sent = time.monotonic()
    try:
        yield "retry: 2000\n\n"
        while time.monotonic() - started < max_seconds:
            for n in notices_after(user.id, after):
                data = json.dumps(notice_json(n), separators=(",", ":"))
                yield f"id: {n.id}\nevent: {n.kind}\ndata: {data}\n\n"
                after = n.id
                last_sent = time.monotonic()
            if time.monotonic() - last_sent >= keepalive:
                yield ": keep-alive\n\n"
                last_sent = time.monotonic()
            waiter.wait(after, timeout=min(keepalive, 5))
    finally:
        waiter.close()
        close_old_connections()
