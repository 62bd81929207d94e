"""The per-user SSE stream of notices (GET /api/v1/accounts/me/stream).

`id:` is the notification id (the user's stream rows, increasing), so a client
resumes with `Last-Event-ID`. Wakes on Redis pub/sub (channel
``sengoku:stream:user:<id>``, see events/feed.py) when REDIS_URL is set, on an
in-process condition otherwise, and polls the database as a fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.contrib.auth.models import User

from events import feed
from events.prepared import Prepared
from games.models import Notification
from games.services.notify import user_channel

# compiled once (events/prepared.py): a user stream reads on every notice it is woken for
_after = Prepared(
    lambda user_id, after, channel: Notification.objects.filter(
        user_id=user_id, channel=channel, id__gt=after
    ).order_by("id")[:200]
)


def notices_after(user_id: int, after: int, limit: int = 200) -> list[Notification]:
    if limit == 200:
        return _after(user_id, after, Notification.Channel.STREAM.value)
    return list(
        Notification.objects.filter(
            user_id=user_id, channel=Notification.Channel.STREAM, id__gt=after
        ).order_by("id")[:limit]
    )


def notice_json(n: Notification) -> dict[str, Any]:
    return {"id": n.id, "kind": n.kind, "created_at": n.payload.get("created_at"), "payload": n.payload}


def user_fetch(user: User) -> Callable[[int], tuple[list[feed.Item], bool]]:
    """`fetch(after) -> (items, finished)` for the SSE loops (events.feed, api.live)."""

    def fetch(after: int) -> tuple[list[feed.Item], bool]:
        return [(n.id, n.kind, notice_json(n)) for n in notices_after(user.id, after)], False

    return fetch


def user_stream(
    user: User, after: int, max_seconds: float | None = None, on_tick: Callable[[], None] | None = None
) -> Iterator[str]:
    return feed.sse(user_channel(user.id), after, user_fetch(user), max_seconds, on_tick)
