"""The inbox (issue 16 item 3): GET /accounts/me/games lists the caller's games
with their seat, whether a decision of theirs is pending, its deadline, last
activity and the chain head, sorted by deadline; `inbox` notices on the user
stream announce changes."""

from __future__ import annotations

import pytest

from games.models import Notification
from tests.api.helpers import play_to_end
from tests.conftest import create

pytestmark = pytest.mark.django_db(transaction=True)
INBOX = "/api/v1/accounts/me/games"


def started(api, host, player, seconds=None, **body):
    if seconds is not None:
        body["time_control"] = {"seconds_per_decision": seconds}
    g = create(api, host, **body)
    join = {"invite_code": g["invite_code"]} if g["private"] else {}
    assert api.as_(player).post(f"/api/v1/games/{g['id']}/seats", join).status_code == 201
    r = api.as_(host).post(f"/api/v1/games/{g['id']}/start")
    assert r.status_code == 200, r.content
    return r.json()


def test_inbox_lists_my_games_sorted_by_deadline(api, host, player, outsider):
    slow = started(api, host, player, seconds=3600)
    untimed = started(api, host, player)
    fast = started(api, host, player, seconds=60, private=True)
    waiting = create(api, host)  # open, nobody to act
    done = started(api, host, player)
    play_to_end(api, done, [host, player])
    others = create(api, outsider)  # not mine
    r = api.as_(host).get(INBOX)
    assert r.status_code == 200
    body = r.json()
    ids = [e["id"] for e in body["results"]]
    assert ids[:3] == [fast["id"], slow["id"], untimed["id"]]
    assert set(ids[3:]) == {waiting["id"], done["id"]} and others["id"] not in ids and body["count"] == 5
    first = body["results"][0]
    assert first["seat"] == 0 and first["pending"] is True and first["decision"] == "bid"
    assert first["deadline"] is not None and first["private"] is True and first["status"] == "running"
    game = api.as_(host).get(f"/api/v1/games/{fast['id']}").json()
    assert first["chain_head"] == game["chain_head"] and first["version"] == game["version"]
    assert first["last_activity"] and first["faction"]
    by_id = {e["id"]: e for e in body["results"]}
    assert by_id[untimed["id"]]["deadline"] is None and by_id[untimed["id"]]["pending"] is True
    assert by_id[done["id"]]["pending"] is False and by_id[done["id"]]["status"] == "finished"
    assert by_id[waiting["id"]]["chain_head"] is None and by_id[waiting["id"]]["version"] == 0
    # the outsider sees only their own game
    assert [e["id"] for e in api.as_(outsider).get(INBOX).json()["results"]] == [others["id"]]


def test_awaiting_me_and_status_filters(api, host, player):
    a = started(api, host, player, seconds=600)
    b = started(api, host, player, seconds=300)
    api.as_(host).post(f"/api/v1/games/{b['id']}/commands", {"command": {"type": "bid", "amount": 1}})
    mine = api.as_(host).get(INBOX + "?awaiting=me").json()["results"]
    assert [e["id"] for e in mine] == [a["id"]]  # in b the host has bid: the player must act
    theirs = api.as_(player).get(INBOX + "?awaiting=me").json()["results"]
    assert [e["id"] for e in theirs] == [b["id"], a["id"]]  # b's deadline is sooner
    open_game = create(api, host)
    assert [e["id"] for e in api.as_(host).get(INBOX + "?status=open").json()["results"]] == [open_game["id"]]
    assert len(api.as_(host).get(INBOX + "?status=running").json()["results"]) == 2
    page = api.as_(player).get(INBOX + "?limit=1").json()
    assert len(page["results"]) == 1 and page["count"] == 2 and "offset=1" in page["next"]
    for bad in ("?status=nope", "?awaiting=you", "?limit=0", "?offset=-1"):
        r = api.as_(host).get(INBOX + bad)
        assert r.status_code == 400 and r.json()["code"] == "invalid", bad
    assert api.get(INBOX).status_code == 401


def test_the_user_stream_announces_inbox_changes(api, host, player):
    g = started(api, host, player, seconds=600)

    def notices(who):
        return [
            n.payload
            for n in Notification.objects.filter(user_id=who.id, kind="inbox", game_id=g["id"]).order_by("id")
        ]

    assert [(n["pending"], n["status"]) for n in notices(host)] == [(True, "running")]
    assert notices(host)[0]["deadline"] and notices(host)[0]["channel"] == "stream"
    api.as_(host).post(f"/api/v1/games/{g['id']}/commands", {"command": {"type": "bid", "amount": 1}})
    assert [n["pending"] for n in notices(host)] == [True, False]  # the host's entry changed
    assert [n["pending"] for n in notices(player)] == [True]  # the player's did not
    assert not Notification.objects.filter(kind="inbox").exclude(channel="stream").exists()  # stream only
    listed = api.as_(host).get("/api/v1/accounts/me/notifications").json()["results"]
    assert "inbox" in [n["kind"] for n in listed]
