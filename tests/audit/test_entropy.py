"""Seat entropy (docs/audit.md, "Seat entropy"): each person's seat may add 32
random bytes before the start; the streams are keyed by the seed mixed with them,
core.GameStarted lists them, the verifier re-derives the key, and a changed
contribution in an export fails verification."""

from __future__ import annotations

import copy

import pytest

from games import verify
from games.models import Game
from games.rules import seeding
from games.rules.base import sha256_hex
from games.services.lobby import get_game
from games.services.state import stream_seed
from tests.conftest import create

from . import driver
from .conftest import export, rehash

pytestmark = pytest.mark.django_db

A, B = "a1" * 32, "0f" * 32


def contribute(api, who, gid, index, entropy):
    return api.as_(who).post(f"/api/v1/games/{gid}/seats/{index}/entropy", {"entropy": entropy})


def twin_games(api, host, player, ruleset="toy-auction", players=2, entropies=(None, None)):
    """Two games with the same server seed: one without contributions, one with `entropies`."""
    out = []
    seed = "61" * 32  # fixed, so the comparison below is deterministic (this pair deals other factions)
    for given in ((None, None), entropies):
        g = create(api, host, ruleset=ruleset, players=players)
        Game.objects.filter(pk=g["id"]).update(seed=seed)
        if given[0]:
            assert contribute(api, host, g["id"], 0, given[0]).status_code == 200
        body = {"entropy": given[1]} if given[1] else {}
        assert api.as_(player).post(f"/api/v1/games/{g['id']}/seats", body).status_code == 201
        r = api.as_(host).post(f"/api/v1/games/{g['id']}/start")
        assert r.status_code == 200, r.content
        out.append(get_game(g["id"]))
    return out


def test_the_formula_is_the_documented_one():
    seed = "sengoku"
    assert seeding.stream_seed(seed, []) == seed  # no contribution: the game plays as before
    want = sha256_hex(f"sengoku-seed/1\n{seed}\n0:{A}\n1:{B}\n")
    assert seeding.stream_seed(seed, [(1, B), (0, A)]) == want  # seat order, whatever the order given
    assert seeding.stream_seed(seed, [(0, A)]) != seeding.stream_seed(seed, [(0, B)])


def test_entropy_changes_the_dealt_game_and_is_listed_at_start(api, host, player):
    plain, mixed = twin_games(api, host, player, "imjin", 2, (A, B))
    assert plain.mixed_seed == "" and stream_seed(plain) == plain.seed
    assert stream_seed(mixed) == seeding.stream_seed(mixed.seed, [(0, A), (1, B)])
    first_plain, first_mixed = export(api, host, plain.id)[0], export(api, host, mixed.id)[0]
    assert "entropy" not in first_plain["payload"]
    assert first_mixed["payload"]["entropy"] == [{"seat": 0, "entropy": A}, {"seat": 1, "entropy": B}]
    assert first_plain["payload"]["seed_commitment"] == first_mixed["payload"]["seed_commitment"]
    setup = [
        [e["payload"] for e in export(api, host, g.id)[1:] if "salt" not in e["payload"]]
        for g in (plain, mixed)
    ]
    assert setup[0] != setup[1]  # the same server seed deals another game


def test_commitment_is_published_before_entropy_and_seats_say_who_gave(api, host, player):
    g = create(api, host)
    gid = g["id"]
    commitment = g["seed_commitment"]
    assert commitment == sha256_hex(Game.objects.get(pk=gid).seed)
    assert [s["entropy_given"] for s in g["seats"]] == [False]
    r = contribute(api, host, gid, 0, A.upper())
    assert r.status_code == 200 and r.json() == {"seat": 0, "entropy": A, "seed_commitment": commitment}
    assert api.as_(host).get(f"/api/v1/games/{gid}").json()["seats"][0]["entropy_given"] is True


@pytest.mark.parametrize(
    "entropy", ["ab" * 31, "ab" * 33, "zz" * 32, 42, None, "", "0x" + "a" * 62, "é" * 64]
)
def test_bad_entropy_is_a_clear_400(api, host, player, entropy):
    g = create(api, host)
    r = contribute(api, host, g["id"], 0, entropy)
    assert r.status_code == 400 and r.json()["code"] in {"invalid_entropy", "invalid"}, r.content
    if isinstance(entropy, str) and entropy:
        assert r.json()["code"] == "invalid_entropy"
        j = api.as_(player).post(f"/api/v1/games/{g['id']}/seats", {"entropy": entropy})
        assert j.status_code == 400 and j.json()["code"] == "invalid_entropy"
    assert get_game(g["id"]).seats.get(index=0).entropy == ""


def test_who_and_when(api, host, player, outsider):
    g = create(api, host)
    gid = g["id"]
    assert api.as_(player).post(f"/api/v1/games/{gid}/seats", {}).status_code == 201
    r = contribute(api, player, gid, 0, A)  # another's seat
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
    assert contribute(api, outsider, gid, 1, A).status_code == 403
    for index in (2, 9, 2**63 - 1):
        r = contribute(api, player, gid, index, A)
        assert r.status_code == 404 and r.json()["code"] == "seat_not_found"
    assert contribute(api, player, gid, 2**64, A).status_code == 404  # no route at all
    assert contribute(api, player, gid, 1, A).status_code == 200
    r = contribute(api, player, gid, 1, B)  # once: a second draw would let a seat choose
    assert r.status_code == 409 and r.json()["code"] == "entropy_given"
    assert contribute(api, None, gid, 0, A).status_code == 401
    r = api.as_(host).post(f"/api/v1/games/{gid}/seats", {"bot": "random", "entropy": A})
    assert r.status_code == 400 and r.json()["code"] == "invalid_entropy"
    assert api.as_(host).post(f"/api/v1/games/{gid}/start").status_code == 200
    r = contribute(api, host, gid, 0, B)  # after the start
    assert r.status_code == 409 and r.json()["code"] == "game_not_open"
    assert contribute(api, host, "not-a-game", 0, B).status_code == 404


def test_a_changed_contribution_fails_verification(api, host, player):
    _, game = twin_games(api, host, player, entropies=(A, B))
    game = driver.play_out(game, seed=3)
    rows = export(api, host, game.id)
    report = verify.verify(copy.deepcopy(rows))
    assert report.ok and report.replayed, report.problems
    assert report.entropy == [{"seat": 0, "entropy": A}, {"seat": 1, "entropy": B}]
    assert report.stream_seed == seeding.stream_seed(report.seed, [(0, A), (1, B)])
    forged = copy.deepcopy(rows)
    forged[0]["payload"]["entropy"][1]["entropy"] = "0e" * 32
    report = verify.verify(rehash(forged))  # the forger rebuilt the chain too
    assert not report.ok and {p.check for p in report.problems} & {"replay", "salt"}, report.problems
    dropped = copy.deepcopy(rows)
    del dropped[0]["payload"]["entropy"]
    assert not verify.verify(rehash(dropped)).ok
    for bad in (
        [{"seat": 5, "entropy": A}],
        [{"seat": 0, "entropy": "x"}],
        [{"seat": 1, "entropy": B}, {"seat": 0, "entropy": A}],
    ):
        odd = copy.deepcopy(rows)
        odd[0]["payload"]["entropy"] = bad
        assert "entropy" in {p.check for p in verify.verify(rehash(odd)).problems}
    audit = api.as_(host).get(f"/api/v1/games/{game.id}/audit").json()
    assert audit["ok"] and audit["replay_ok"]
