"""Since you last looked (games/services/last_seen.py): the version an account last saw
of a game is recorded when it opens the game's page or view and when it moves (never as
an event), the game page hands the previous one to its script, and the inbox counts the
events since (`unseen_events`)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from events.models import StoredEvent
from games.models import LastSeen
from games.services import last_seen

pytestmark = pytest.mark.django_db


def inbox_entry(api, who, gid):
    r = api.as_(who).get("/api/v1/accounts/me/games")
    assert r.status_code == 200, r.content
    return next(e for e in r.json()["results"] if e["id"] == gid)


def boot_of(persona, gid):
    client = Client()
    client.force_login(get_user_model().objects.get(pk=persona.id))
    page = client.get(f"/games/{gid}")
    assert page.status_code == 200
    found = re.search(rb'<script id="boot" type="application/json">(.*?)</script>', page.content, re.S)
    assert found is not None
    return json.loads(found.group(1))


def bid(api, who, gid):
    r = api.as_(who).post(f"/api/v1/games/{gid}/commands", {"command": {"type": "bid", "amount": 0}})
    assert r.status_code == 201, r.content
    return r.json()["version"]


def test_the_view_records_and_the_inbox_counts_what_came_since(api, host, player, running_game):
    gid = running_game["id"]
    start = api.as_(host).get(f"/api/v1/games/{gid}").json()["version"]
    assert start > 0
    # nobody has looked yet: every event is new to both players
    assert inbox_entry(api, host, gid)["unseen_events"] == start
    assert api.as_(host).get(f"/api/v1/games/{gid}/view").status_code == 200
    assert LastSeen.objects.get(game_id=gid, user_id=host.id).version == start
    assert inbox_entry(api, host, gid)["unseen_events"] == 0
    pending = api.as_(host).get(f"/api/v1/games/{gid}").json()["pending"]
    mover, watcher = (host, player) if pending[0]["seat"] == 0 else (player, host)
    after = bid(api, mover, gid)
    assert after > start
    # the mover has seen its own move; the other counts the events it has not seen
    assert LastSeen.objects.get(game_id=gid, user_id=mover.id).version == after
    assert inbox_entry(api, mover, gid)["unseen_events"] == 0
    looked = (
        LastSeen.objects.filter(game_id=gid, user_id=watcher.id).values_list("version", flat=True).first()
    )
    assert inbox_entry(api, watcher, gid)["unseen_events"] == after - (looked or 0) > 0
    # bookkeeping, not an event: the game's stream is unchanged by looking
    events = StoredEvent.objects.filter(stream=gid).count()
    api.as_(watcher).get(f"/api/v1/games/{gid}/view")
    assert StoredEvent.objects.filter(stream=gid).count() == events
    assert inbox_entry(api, watcher, gid)["unseen_events"] == 0


def test_the_game_page_hands_over_the_previous_version_then_records_this_visit(
    api, host, player, running_game
):
    gid = running_game["id"]
    assert boot_of(host, gid)["last_seen"] is None  # never looked
    start = LastSeen.objects.get(game_id=gid, user_id=host.id).version
    assert boot_of(host, gid)["last_seen"] == start  # the visit just before
    pending = api.as_(host).get(f"/api/v1/games/{gid}").json()["pending"]
    other = player if pending[0]["seat"] == 1 else host
    if other is host:  # the host must move first: then the player is the one who looks again
        after = bid(api, host, gid)
        assert boot_of(player, gid)["last_seen"] is None
        assert boot_of(player, gid)["last_seen"] == after
        return
    after = bid(api, player, gid)
    assert after > start
    # another seat moved: the host's page is told the version it last saw, not the new one
    assert boot_of(host, gid)["last_seen"] == start
    assert boot_of(host, gid)["last_seen"] == after


def test_the_stored_version_never_goes_down(api, host, running_game):
    gid = running_game["id"]
    last_seen.record(gid, get_user_model().objects.get(pk=host.id), 5)
    last_seen.record(gid, get_user_model().objects.get(pk=host.id), 3)
    assert LastSeen.objects.get(game_id=gid, user_id=host.id).version == 5
    assert LastSeen.objects.filter(game_id=gid).count() == 1
