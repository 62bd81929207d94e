"""Odd input to the play-by-email endpoints is a 4xx with `{code, detail}`, never a 500."""

from __future__ import annotations

import pytest

from .conftest import start_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_odd_input_is_never_a_500(api, host, player):
    g = start_game(api, host, [player])
    gid = g["id"]
    c = api.as_(host).client
    cases = [
        c.post(f"/api/v1/games/{gid}/messages", '{"text": "\\ud800"}', content_type="application/json"),
        c.post(f"/api/v1/games/{gid}/messages", '{"text": "a\\u0000b"}', content_type="application/json"),
        c.post(
            f"/api/v1/games/{gid}/messages",
            '{"text": "hi", "to": [99999999999999999999999]}',
            content_type="application/json",
        ),
        c.post(f"/api/v1/games/{gid}/messages", "not json", content_type="application/json"),
        c.post(f"/api/v1/games/{gid}/seats/99999999999999999999999/reclaim"),
        c.post(f"/api/v1/games/{gid}/seats/1/reclaim"),  # not a zombie
        c.post("/api/v1/games/00000000-0000-0000-0000-000000000000/pause"),
        c.get("/api/v1/accounts/unsubscribe?token=%00"),
        c.get("/api/v1/accounts/unsubscribe?token=" + "a" * 500),
        c.get("/api/v1/accounts/me/notifications?after=99999999999999999999999"),
        c.get("/api/v1/accounts/me/webhook-deliveries?limit=-1"),
        c.get("/api/v1/accounts/me/stream?after=-5"),
        api.as_(host).patch("/api/v1/accounts/me", {"vacation_until": "9999-12-31T00:00:00Z"}),
    ]
    for r in cases:
        assert 400 <= r.status_code < 500, (r.status_code, r.content)
        body = r.json()
        assert {"code", "detail"} <= set(body), body
