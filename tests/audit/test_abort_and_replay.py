"""Abort reveals the seed; replay shows each seat what it saw then (everything
once the game is over)."""

from __future__ import annotations

import pytest

from games import verify
from games.rules.base import sha256_hex

from . import driver
from .conftest import audit_of, export

pytestmark = pytest.mark.django_db


def abort(api, who, gid, body=None):
    return api.as_(who).post(f"/api/v1/games/{gid}/abort", body)


def test_creator_aborts_a_running_game_and_the_seed_is_revealed(api, host, player, half_toy):
    gid = half_toy.id
    before = audit_of(api, player, gid)
    assert before["seed"] is None
    assert abort(api, player, gid).status_code == 403
    r = abort(api, host, gid, {"reason": "real life"})
    assert r.status_code == 200 and r.json()["status"] == "aborted"
    events = export(api, player, gid)  # aborted: everyone sees everything
    assert [e["type"] for e in events[-2:]] == ["core.GameAborted", "core.SeedRevealed"]
    assert events[-2]["payload"] == {"by": "hana", "reason": "real life"}
    assert not any(e.get("redacted") for e in events)
    after = audit_of(api, player, gid)
    assert after["ok"] and sha256_hex(after["seed"]) == after["seed_commitment"] == before["seed_commitment"]
    report = verify.verify(events)
    assert report.ok and report.replayed
    r = abort(api, host, gid)
    assert r.status_code == 409 and r.json()["code"] == "game_not_running"
    assert (
        api.as_(player)
        .post(f"/api/v1/games/{gid}/commands", {"command": {"type": "bid", "amount": 1}})
        .status_code
        == 409
    )


def test_abort_an_open_game(api, host, open_game):
    r = abort(api, host, open_game["id"])
    assert r.status_code == 200 and r.json()["status"] == "aborted" and r.json()["version"] == 0
    assert abort(api, host, "not-a-game").status_code == 404


def test_replay_of_a_running_game_shows_each_seat_its_own_past(api, host, player, outsider, half_toy):
    gid = half_toy.id
    v = half_toy.version
    driver.play(half_toy, 1, {"type": "bid", "amount": 2})
    mine = api.as_(host).get(f"/api/v1/games/{gid}/replay?version={v}").json()
    theirs = api.as_(player).get(f"/api/v1/games/{gid}/replay?version={v}").json()
    spectator = api.as_(outsider).get(f"/api/v1/games/{gid}/replay?version={v}").json()
    assert mine["seat"] == 0 and mine["state"]["my_bid"] == 4 and mine["version"] == v
    assert theirs["seat"] == 1 and theirs["state"]["my_bid"] is None and theirs["state"]["bidders"] == [0]
    assert spectator["seat"] is None and spectator["state"]["my_bid"] is None
    now = api.as_(player).get(f"/api/v1/games/{gid}/replay?version={half_toy.version}").json()
    assert now["state"]["awarding"] is not None and now["state"]["coins"] != theirs["state"]["coins"]


def test_replay_of_a_finished_game_shows_everything(api, host, outsider, finished_toy):
    gid = finished_toy.id
    for v in range(1, finished_toy.version + 1):
        r = api.as_(outsider).get(f"/api/v1/games/{gid}/replay?version={v}")
        assert r.status_code == 200
        body = r.json()
        assert body["checkpoint"]["version"] == v  # the version's signed checkpoint (issue 34)
        assert set(body) == {"ruleset", "version", "seat", "state", "seats", "checkpoint"} and set(
            body["seats"]
        ) == {
            "0",
            "1",
        }
        assert body["seat"] is None and body["state"]["my_bid"] is None  # the spectator's own (public) view
    bid = next(e for e in export(api, outsider, gid) if e["type"] == "toy.BidPlaced")
    seen = api.as_(outsider).get(f"/api/v1/games/{gid}/replay?version={bid['seq']}").json()
    assert seen["seats"][str(bid["payload"]["seat"])]["my_bid"] == bid["payload"]["choice"]["amount"]


@pytest.mark.parametrize("version", ["0", "-1", "abc", "", "999"])
def test_replay_versions_out_of_range(api, host, half_toy, version):
    r = api.as_(host).get(f"/api/v1/games/{half_toy.id}/replay?version={version}")
    assert r.status_code == 400 and r.json()["code"] == "invalid_version"
