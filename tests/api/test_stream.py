import pytest

from tests.api.helpers import play_to_end

pytestmark = pytest.mark.django_db


def read_sse(response, limit=200):
    chunks = []
    for i, chunk in enumerate(response.streaming_content):
        chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if "event: end" in chunks[-1] or i >= limit:
            break
    return "".join(chunks)


def test_sse_resumes_after_last_event_id_and_ends_with_game(api, host, player, running_game):
    meta = play_to_end(api, running_game, [host, player])
    v = meta["version"]
    r = api.as_(host).get(
        f"/api/v1/games/{running_game['id']}/events",
        HTTP_ACCEPT="text/event-stream",
        HTTP_LAST_EVENT_ID=str(v - 2),
    )
    assert r.status_code == 200 and r["Content-Type"].startswith("text/event-stream")
    text = read_sse(r)
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == [v - 1, v]
    assert "event: core.SeedRevealed" in text and "event: end" in text


def test_sse_query_flag_and_redaction(api, host, player, running_game):
    api.as_(host).post(
        f"/api/v1/games/{running_game['id']}/commands", {"command": {"type": "bid", "amount": 9}}
    )
    from games.models import Game

    # End the stream quickly: pretend the game finished so the generator stops after the backlog.
    Game.objects.filter(id=running_game["id"]).update(status="aborted")
    r = api.as_(player).get(f"/api/v1/games/{running_game['id']}/events?stream=1")
    text = read_sse(r)
    assert "id: 1\n" in text and "event: toy.BidPlaced" in text


def test_sse_keepalive_comment(api, host, running_game, settings):
    settings.SENGOKU = {**settings.SENGOKU, "SSE_KEEPALIVE_SECONDS": 1, "SSE_POLL_SECONDS": 0.05}
    r = api.as_(host).get(f"/api/v1/games/{running_game['id']}/events?stream=1&after=1000")
    it = iter(r.streaming_content)
    seen = ""
    for _ in range(10):
        seen += next(it).decode()
        if ": keep-alive" in seen:
            break
    r.close()
    assert ": keep-alive" in seen


def test_stream_cap_per_account_429_retry_after_and_release(api, host, player, running_game, settings):
    settings.SENGOKU = {**settings.SENGOKU, "STREAMS_PER_ACCOUNT": 2, "STREAM_RETRY_AFTER_SECONDS": 7}
    url = f"/api/v1/games/{running_game['id']}/events?stream=1"
    first, second = api.as_(host).get(url), api.as_(host).get(url)
    assert first.status_code == second.status_code == 200
    third = api.as_(host).get(url)
    assert third.status_code == 429 and third["Retry-After"] == "7"
    assert third.json()["code"] == "too_many_streams"
    # one cap for both kinds, and the same answer on the user stream (with the SSE Accept header, too)
    for extra in ({}, {"HTTP_ACCEPT": "text/event-stream"}):
        mine = api.as_(host).get("/api/v1/accounts/me/stream", **extra)
        assert mine.status_code == 429 and mine["Retry-After"] == "7"
        assert mine["Content-Type"].startswith("application/json")
        assert mine.json()["code"] == "too_many_streams"
    assert api.as_(player).get(url).status_code == 200  # per account, not global
    _close(first)
    assert api.as_(host).get(url).status_code == 200


@pytest.mark.parametrize("limit", ["STREAM_IDLE_SECONDS", "STREAM_MAX_SECONDS"])
def test_stream_ends_with_reconnect_after_its_lifetime(api, host, running_game, settings, limit):
    settings.SENGOKU = {**settings.SENGOKU, "SSE_KEEPALIVE_SECONDS": 1, "SSE_POLL_SECONDS": 0.05, limit: 1}
    r = api.as_(host).get(f"/api/v1/games/{running_game['id']}/events?stream=1")
    text = "".join(c.decode() for c in r.streaming_content)  # ends by itself
    reason = "idle" if limit == "STREAM_IDLE_SECONDS" else "lifetime"
    assert text.rstrip().endswith(f'event: reconnect\ndata: {{"reason": "{reason}"}}')
    assert "id: 1\n" in text  # the backlog came first


def _close(response):
    """Close a streaming response as a server would, without letting Django's
    request_finished handler close the test's database connection (what the
    test client itself does around its requests)."""
    from django.core.signals import request_finished
    from django.db import close_old_connections

    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)
