"""The per-user notice stream: SSE with keep-alives and Last-Event-ID resume
over the user's notification ids; the list endpoint."""

from __future__ import annotations

import json

import pytest

from games.models import Notification

from .conftest import start_game, sweep

pytestmark = pytest.mark.django_db(transaction=True)


def frames(response, count):
    """The first `count` SSE frames (retry: line first)."""
    out, buf = [], ""
    it = iter(response.streaming_content)
    while len(out) < count:
        buf += next(it).decode()
        while "\n\n" in buf:
            frame, buf = buf.split("\n\n", 1)
            out.append(frame)
    response.close()
    return out


def parse(frame):
    fields = dict(
        line.split(": ", 1) for line in frame.splitlines() if ": " in line and not line.startswith(":")
    )
    return int(fields["id"]), fields["event"], json.loads(fields["data"])


def test_stream_resumes_after_last_event_id(api, clock, host, player):
    start_game(api, host, [player], {"seconds_per_decision": 60})
    clock.shift(61)
    sweep()
    mine = list(Notification.objects.filter(user_id=player.id, channel="stream").order_by("id"))
    assert [n.kind for n in mine if n.kind != "inbox"][:3] == ["your_turn", "game_started", "default_applied"]
    assert "inbox" in [n.kind for n in mine]  # the inbox changes are announced on the same stream
    r = api.as_(player).get("/api/v1/accounts/me/stream", HTTP_LAST_EVENT_ID=str(mine[0].id))
    assert r.status_code == 200 and r["Content-Type"].startswith("text/event-stream")
    got = [parse(f) for f in frames(r, len(mine))[1:]]
    assert [i for i, _, _ in got] == [n.id for n in mine[1:]]
    assert [k for _, k, _ in got] == [n.kind for n in mine[1:]]
    first = got[0][2]
    assert first["payload"]["game"]["chain_head"] and first["payload"]["user"] == "kenji"
    # ?after= works too, and nobody sees another user's notices
    hosts = list(
        Notification.objects.filter(user_id=host.id, channel="stream")
        .order_by("id")
        .values_list("id", flat=True)
    )
    r = api.as_(host).get(f"/api/v1/accounts/me/stream?after={hosts[0]}")
    assert [parse(f)[0] for f in frames(r, len(hosts))[1:]] == hosts[1:]


def test_stream_keepalive_and_live_wake_up(api, clock, host, player, settings):
    settings.SENGOKU = {**settings.SENGOKU, "SSE_KEEPALIVE_SECONDS": 1, "SSE_POLL_SECONDS": 0.05}
    last = Notification.objects.order_by("-id").values_list("id", flat=True).first() or 0
    r = api.as_(player).get(f"/api/v1/accounts/me/stream?after={last}", HTTP_ACCEPT="text/event-stream")
    it = iter(r.streaming_content)
    assert next(it).decode().startswith("retry:")
    assert next(it).decode() == ": keep-alive\n\n"
    start_game(api, host, [player])  # a notice arrives while the stream is open
    seen = ""
    for _ in range(5):
        seen += next(it).decode()
        if "event: your_turn" in seen:
            break
    r.close()
    assert "event: your_turn" in seen


def test_stream_needs_a_token_and_a_valid_resume_id(api, player):
    assert api.get("/api/v1/accounts/me/stream").status_code == 401
    r = api.as_(player).get("/api/v1/accounts/me/stream", HTTP_LAST_EVENT_ID="abc")
    assert r.status_code == 400 and r.json()["code"] == "invalid"


def test_notification_list(api, clock, host, player):
    start_game(api, host, [player])
    r = api.as_(player).get("/api/v1/accounts/me/notifications")
    assert r.status_code == 200
    res = r.json()["results"]
    assert [n["kind"] for n in res] == ["your_turn", "game_started", "inbox"]
    r = api.as_(player).get(f"/api/v1/accounts/me/notifications?after={res[0]['id']}&limit=5")
    assert [n["kind"] for n in r.json()["results"]] == ["game_started", "inbox"]
    assert api.as_(player).get("/api/v1/accounts/me/notifications?limit=x").status_code == 400
