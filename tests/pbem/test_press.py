"""Press: public and private messages as events, visibility per viewer,
limits and refusals."""

from __future__ import annotations

import pytest
from rest_framework.throttling import SimpleRateThrottle

from .conftest import feed, start_game

pytestmark = pytest.mark.django_db(transaction=True)


def send(api, who, gid, body):
    return api.as_(who).post(f"/api/v1/games/{gid}/messages", body)


def messages(api, who, gid):
    return [e for e in feed(api, who, gid) if e["type"] == "core.MessageSent"]


def test_private_message_visibility(api, host, player, third, outsider):
    g = start_game(api, host, [player, third])
    gid = g["id"]
    r = send(api, host, gid, {"text": "alliance against mitsu?", "to": [1]})
    assert r.status_code == 201, r.content
    ev = r.json()["event"]
    assert ev["type"] == "core.MessageSent" and ev["visibility"] == "private" and ev["visible_to"] == [0, 1]
    assert ev["payload"] == {
        "from": 0,
        "to": [1],
        "text": "alliance against mitsu?",
        "salt": ev["payload"]["salt"],
    }
    assert len(ev["payload"]["salt"]) == 32  # its hash is public: docs/audit.md, salts of private events
    assert ev["actor"] == {"seat": 0, "user": "hana"} and r.json()["version"] == ev["seq"]
    for who in (host, player):  # the sender and the recipient read it
        assert messages(api, who, gid)[0]["payload"]["text"] == "alliance against mitsu?"
    for who in (third, outsider):  # another seat and a spectator see only an anonymous entry
        assert messages(api, who, gid) == []  # not even the type: a message was sent (issue 31)
        m = next(e for e in feed(api, who, gid) if e["seq"] == ev["seq"])
        assert m["redacted"] is True and "payload" not in m and m["type"] == "core.Redacted"


def test_public_message_is_seen_by_everyone_including_spectators(api, host, player, outsider):
    g = start_game(api, host, [player])
    r = send(api, player, g["id"], {"text": "good luck, all", "to": None})
    assert r.status_code == 201 and r.json()["event"]["visibility"] == "public"
    for who in (host, player, outsider):
        assert messages(api, who, g["id"])[0]["payload"] == {"from": 1, "to": None, "text": "good luck, all"}


def test_message_limits_and_refusals(api, host, player, outsider):
    g = start_game(api, host, [player])
    gid = g["id"]
    r = send(api, host, gid, {"text": "x" * 2001})
    assert r.status_code == 400 and r.json()["code"] == "message_too_long"
    assert send(api, host, gid, {"text": "x" * 2000}).status_code == 201
    for bad in (
        {"text": ""},
        {"text": "   "},
        {"text": 5},
        {},
        {"text": "hi", "to": []},
        {"text": "hi", "to": "1"},
        {"text": "hi", "to": [True]},
        {"text": "hi", "to": [0]},
        {"text": "hi", "extra": 1},
    ):
        r = send(api, host, gid, bad)
        assert r.status_code == 400 and set(r.json()) >= {"code", "detail"}, (bad, r.content)
    r = send(api, host, gid, {"text": "hi", "to": [7]})
    assert r.status_code == 400 and r.json()["code"] == "invalid_seat"
    r = api.as_(host).post(f"/api/v1/games/{gid}/messages", "[1, 2]")
    assert r.status_code == 400
    r = send(api, outsider, gid, {"text": "let me in"})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    assert send(api, host, "no-such-game", {"text": "hi"}).status_code == 404
    assert api.post(f"/api/v1/games/{gid}/messages", {"text": "anon"}).status_code == 401


def test_no_messages_before_start_or_after_the_end(api, host, player, open_game):
    r = send(api, host, open_game["id"], {"text": "anyone?"})
    assert r.status_code == 409 and r.json()["code"] == "game_not_running"
    from tests.api.helpers import play_to_end

    g = start_game(api, host, [player])
    play_to_end(api, g, [host, player])
    r = send(api, player, g["id"], {"text": "gg"})
    assert r.status_code == 409 and r.json()["code"] == "game_over"


def test_press_is_rate_limited(api, host, player, monkeypatch):
    from django.core.cache.backends.locmem import LocMemCache

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "press", "3/min")
    # A private cache: with REDIS_URL the default cache is shared by parallel test workers.
    monkeypatch.setattr(SimpleRateThrottle, "cache", LocMemCache("press-test", {}))
    g = start_game(api, host, [player])
    codes = [send(api, host, g["id"], {"text": f"m{i}"}).status_code for i in range(4)]
    assert codes == [201, 201, 201, 429]
    r = send(api, host, g["id"], {"text": "again"})
    assert r.json()["code"] == "rate_limited" and "Retry-After" in r


def test_messages_reach_the_live_stream(api, host, player, settings):
    from games.models import Game

    g = start_game(api, host, [player])
    send(api, host, g["id"], {"text": "to the stream"})
    Game.objects.filter(id=g["id"]).update(status="aborted")  # ends the stream after the backlog
    r = api.as_(player).get(f"/api/v1/games/{g['id']}/events?stream=1", HTTP_LAST_EVENT_ID=str(g["version"]))
    text = "".join(c.decode() for c in r.streaming_content)
    assert "event: core.MessageSent" in text and "to the stream" in text
