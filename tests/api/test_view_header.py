"""Every view the API serves starts with the kit's common header (issue 32): the
web client reads whose turn it is and the phase from it instead of guessing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

KEYS = {"ruleset", "rules_version", "phase", "to_act", "seat", "ended", "scores", "order", "private"}


def test_the_view_header_agrees_with_the_games_pending_seats(api, host, player, running_game):
    gid = running_game["id"]
    game = api.as_(host).get(f"/api/v1/games/{gid}").json()
    for who, seat in ((host, 0), (player, 1)):
        view = api.as_(who).get(f"/api/v1/games/{gid}/view").json()
        head = view["state"]["header"]
        assert set(head) == KEYS
        assert head["ruleset"] == "toy-auction" and head["ended"] is False
        assert head["to_act"] == sorted({pending["seat"] for pending in game["pending"]})
        assert head["seat"] == seat
        assert head["scores"] == view["state"]["points"] == [0, 0]  # the toy's points, by seat
        assert head["order"] == [0, 1]
        assert head["private"] == []  # no sealed bid yet


def test_the_header_names_the_viewers_own_hidden_information(api, host, player, outsider, running_game):
    """A sealed bid is listed as private to its bidder only; a watcher's list is empty."""
    gid = running_game["id"]
    pending = api.as_(host).get(f"/api/v1/games/{gid}").json()["pending"]
    bidder, other = (host, player) if pending[0]["seat"] == 0 else (player, host)
    r = api.as_(bidder).post(f"/api/v1/games/{gid}/commands", {"command": {"type": "bid", "amount": 1}})
    assert r.status_code in (200, 201), r.content
    mine = api.as_(bidder).get(f"/api/v1/games/{gid}/view").json()["state"]
    assert mine["header"]["private"] == ["my_bid"] and mine["my_bid"] == 1
    theirs = api.as_(other).get(f"/api/v1/games/{gid}/view").json()["state"]
    assert theirs["header"]["private"] == [] and theirs["my_bid"] is None
    watcher = api.as_(outsider).get(f"/api/v1/games/{gid}/view")  # the toy game is public
    assert watcher.status_code == 200 and watcher.json()["state"]["header"]["private"] == []
