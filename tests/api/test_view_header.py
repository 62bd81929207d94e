"""Every view the API serves starts with the kit's common header (issue 32): the
web client reads whose turn it is and the phase from it instead of guessing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

KEYS = {"ruleset", "rules_version", "phase", "to_act", "seat", "ended", "scores", "order"}


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
