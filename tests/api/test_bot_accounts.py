"""Bot accounts: an account marks itself a bot (/accounts/me is_bot), the host
invites it to a seat of a private game, it finds the invitation (listing and
stream), reads the game, joins without the invite code, and shows as a bot
account in the seat list."""

import pytest

from games.models import Invitation
from tests.conftest import create

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_account_is_marked_a_bot(api, player):
    me = api.as_(player).get("/api/v1/accounts/me").json()
    assert me["is_bot"] is False
    r = api.as_(player).patch("/api/v1/accounts/me", {"is_bot": True})
    assert r.status_code == 200 and r.json()["is_bot"] is True
    assert api.as_(player).patch("/api/v1/accounts/me", {"is_bot": "yes"}).status_code == 400


def test_host_invites_a_bot_account_which_accepts_by_joining(api, host, player):
    api.as_(player).patch("/api/v1/accounts/me", {"is_bot": True})
    g = create(api, host, private=True)
    url = f"/api/v1/games/{g['id']}"
    assert api.as_(player).get(url).status_code == 404  # private: not found before the invitation
    r = api.as_(host).post(f"{url}/invitations", {"username": player.name})
    assert r.status_code == 201 and r.json()["invited_by"] == host.name
    listed = api.as_(player).get("/api/v1/accounts/me/invitations").json()["results"]
    assert [i["game"] for i in listed] == [g["id"]]
    notes = api.as_(player).get("/api/v1/accounts/me/notifications").json()
    kinds = [n["kind"] for n in notes.get("results", notes)]
    assert "invitation" in kinds
    assert api.as_(player).get(url).status_code == 200  # the invitee may read it
    seat = api.as_(player).post(f"{url}/seats", {})
    assert seat.status_code == 201 and seat.json()["user"]["is_bot"] is True
    assert api.as_(player).get("/api/v1/accounts/me/invitations").json()["results"] == []
    seats = api.as_(host).get(url).json()["seats"]
    assert [s["user"]["is_bot"] for s in seats] == [False, True]


def test_invitation_errors_have_codes(api, host, player):
    g = create(api, host)
    url = f"/api/v1/games/{g['id']}/invitations"
    assert api.as_(player).post(url, {"username": host.name}).json()["code"] == "not_creator"
    r = api.as_(host).post(url, {"username": "nobody-here"})
    assert r.status_code == 404 and r.json()["code"] == "user_not_found"
    assert api.as_(host).post(url, {"username": host.name}).json()["code"] == "already_seated"
    assert api.as_(host).post(url, {"user": "x"}).status_code == 400
    r = api.as_(player).delete(f"/api/v1/accounts/me/invitations/{g['id']}")
    assert r.status_code == 404 and r.json()["code"] == "invitation_not_found"


def test_a_declined_invitation_is_gone(api, host, player):
    g = create(api, host)
    api.as_(host).post(f"/api/v1/games/{g['id']}/invitations", {"username": player.name})
    assert api.as_(player).delete(f"/api/v1/accounts/me/invitations/{g['id']}").status_code == 204
    assert not Invitation.objects.exists()
