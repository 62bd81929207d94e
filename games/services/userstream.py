"""The per-user SSE stream of notices (GET /api/v1/accounts/me/stream).

`id:` is the notification id (the user's stream rows, increasing), so a client
resumes with `Last-Event-ID`. Wakes on Redis pub/sub (channel
``sengoku:stream:user:<id>``, see events/feed.py) when REDIS_URL is set, on an
in-process condition otherwise, and polls the database as a fallback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User

from events import feed
from events.prepared import Prepared
from games.models import Notification

# compiled once (events/prepared.py): a user stream reads on every notice it is woken for
_after = Prepared(
    lambda user_id, after, channel: Notification.objects.filter(
        user_id=user_id, channel=channel, id__gt=after
    ).order_by("id")[:200]
)


def notices_after(user_id: int, after: int, limit: int = 200) -> list[Notification]:
    """The user's stream notices after id `after`, oldest first (at most `limit`)."""
    if limit == 200:
        return _after(user_id, after, Notification.Channel.STREAM.value)
    return list(
        Notification.objects.filter(
            user_id=user_id, channel=Notification.Channel.STREAM, id__gt=after
        ).order_by("id")[:limit]
    )


def notice_json(notification: Notification) -> dict[str, Any]:
    """One notice as the API and the stream show it."""
    payload = notification.payload
    return {
        "id": notification.id,
        "kind": notification.kind,
        "created_at": payload.get("created_at"),
        "payload": payload,
    }


def user_fetch(user: User) -> Callable[[int], tuple[list[feed.Item], bool]]:
    """`fetch(after) -> (items, finished)` for the SSE loops (events.feed, api.live.hub)."""

    def fetch(after: int) -> tuple[list[feed.Item], bool]:
        notices = notices_after(user.id, after)
        return [(notice.id, notice.kind, notice_json(notice)) for notice in notices], False

    return fetch
