"""Private games (issue 10 item 6): unlisted for others, joined with an invite
code the host reads and rotates, and every reading endpoint is for seated
players only — also after the end. Outsiders get 404 (the game's existence does
not leak), whatever they try. Public finished games stay readable by anyone
signed in. Personas: owner (creator, seat 0), seated (joined with the code),
outsider (signed in, not seated)."""

from __future__ import annotations

import pytest

from tests.api.helpers import play_to_end
from tests.conftest import create

pytestmark = pytest.mark.django_db

READS = [
    "",
    "/view",
    "/legal-commands",
    "/events",
    "/events?stream=1",
    "/replay?version=1",
    "/audit",
    "/export",
    "/takeback",
]
WRITES = [
    ("/commands", {"command": {"type": "bid", "amount": 0}}),
    ("/messages", {"text": "hi"}),
    ("/pause", None),
    ("/resume", None),
    ("/takeback", None),
    ("/abort", {}),
    ("/start", None),
    ("/invite-code", None),
    ("/seats/1/reclaim", None),
    ("/takeback/3/accept", None),
]


def private_game(api, host):
    g = create(api, host, private=True)
    assert g["private"] is True and isinstance(g["invite_code"], str) and len(g["invite_code"]) >= 16
    return g


@pytest.fixture
def private_running(api, host, player):
    g = private_game(api, host)
    r = api.as_(player).post(f"/api/v1/games/{g['id']}/seats", {"invite_code": g["invite_code"]})
    assert r.status_code == 201, r.content
    r = api.as_(host).post(f"/api/v1/games/{g['id']}/start")
    assert r.status_code == 200, r.content
    return r.json()


def get(api, who, url):
    """The answer's status and headers; a live stream is not consumed (not even
    started: the access check runs before the first byte)."""
    return api.as_(who).get(url)


def test_private_games_are_unlisted_for_others(api, host, player, outsider):
    g = private_game(api, host)
    public = create(api, host)
    for query in ("", "?status=open", "?ruleset=toy-auction", "?mine=true"):
        ids = [x["id"] for x in api.as_(outsider).get(f"/api/v1/games{query}").json()["results"]]
        assert g["id"] not in ids
    seen = api.as_(outsider).get("/api/v1/games").json()
    assert public["id"] in [x["id"] for x in seen["results"]] and seen["count"] == 1
    mine = [x["id"] for x in api.as_(host).get("/api/v1/games").json()["results"]]
    assert g["id"] in mine and public["id"] in mine


def test_invite_code_is_for_the_host_only(api, host, player):
    g = private_game(api, host)
    assert api.as_(host).get(f"/api/v1/games/{g['id']}").json()["invite_code"] == g["invite_code"]
    api.as_(player).post(f"/api/v1/games/{g['id']}/seats", {"invite_code": g["invite_code"]})
    assert api.as_(player).get(f"/api/v1/games/{g['id']}").json()["invite_code"] is None
    assert api.as_(player).post(f"/api/v1/games/{g['id']}/invite-code").status_code == 403
    public = create(api, host)
    assert public["private"] is False and public["invite_code"] is None
    r = api.as_(host).post(f"/api/v1/games/{public['id']}/invite-code")
    assert r.status_code == 409 and r.json()["code"] == "not_private"


def test_joining_needs_the_current_invite_code(api, host, player, outsider, third):
    g = private_game(api, host)
    url = f"/api/v1/games/{g['id']}/seats"
    for body in ({}, {"invite_code": "wrong"}, {"invite_code": None}, {"invite_code": g["invite_code"][:-1]}):
        r = api.as_(outsider).post(url, body)
        assert r.status_code == 404 and r.json()["code"] == "game_not_found", body
    r = api.as_(host).post(f"/api/v1/games/{g['id']}/invite-code")
    assert r.status_code == 200
    code = r.json()["invite_code"]
    assert code != g["invite_code"]
    assert api.as_(outsider).post(url, {"invite_code": g["invite_code"]}).status_code == 404  # rotated away
    assert api.as_(outsider).post(url, {"invite_code": code}).status_code == 201
    # now seated: reads like a player
    assert api.as_(outsider).get(f"/api/v1/games/{g['id']}").status_code == 200
    assert api.as_(third).get(f"/api/v1/games/{g['id']}").status_code == 404


@pytest.mark.parametrize("tail", READS)
def test_reads_of_a_running_private_game(api, host, player, outsider, private_running, tail):
    base = f"/api/v1/games/{private_running['id']}"
    assert get(api, host, base + tail).status_code == 200
    assert get(api, player, base + tail).status_code == 200
    r = get(api, outsider, base + tail)
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"


@pytest.mark.parametrize("tail", READS)
def test_reads_of_a_finished_private_game_stay_private(api, host, player, outsider, private_running, tail):
    meta = play_to_end(api, private_running, [host, player])
    assert meta["status"] == "finished"
    base = f"/api/v1/games/{private_running['id']}"
    assert get(api, host, base + tail).status_code == 200
    assert get(api, player, base + tail).status_code == 200
    r = get(api, outsider, base + tail)
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"


@pytest.mark.parametrize("tail", READS)
def test_reads_of_a_finished_public_game_are_open_to_anyone_signed_in(
    api, host, player, outsider, running_game, tail
):
    play_to_end(api, running_game, [host, player])
    base = f"/api/v1/games/{running_game['id']}"
    assert get(api, outsider, base + tail).status_code == 200
    # the audit (and the scoring) of a finished public game answer visitors too (issues 33, 34)
    assert api.get(base + tail).status_code == (200 if tail in ("/audit", "/scoring") else 401)


@pytest.mark.parametrize("tail,body", WRITES)
def test_outsiders_writes_to_a_private_game_are_404_too(api, outsider, private_running, tail, body):
    r = api.as_(outsider).post(f"/api/v1/games/{private_running['id']}{tail}", body)
    assert r.status_code == 404 and r.json()["code"] == "game_not_found", r.content


def test_an_open_private_game_is_404_for_outsiders_and_unknown_ids_alike(api, host, outsider):
    g = private_game(api, host)
    known = api.as_(outsider).get(f"/api/v1/games/{g['id']}")
    unknown = api.as_(outsider).get("/api/v1/games/11111111-2222-3333-4444-555555555555")
    assert known.status_code == unknown.status_code == 404 and known.json() == unknown.json()


def test_a_stream_request_by_an_outsider_gets_a_json_404(api, outsider, private_running):
    for url in (
        f"/api/v1/games/{private_running['id']}/events",
        f"/api/v1/games/{private_running['id']}/export",
    ):
        r = api.as_(outsider).get(url, HTTP_ACCEPT="text/event-stream, application/x-ndjson")
        assert r.status_code == 404 and r["Content-Type"].startswith("application/json")
        assert r.json()["code"] == "game_not_found"
