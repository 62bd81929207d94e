"""Anchored heads (docs/audit.md, "Anchored heads"): the checkpoints since the last
anchor become an RFC 6962 tree whose root a local RFC 3161 TSA (`openssl ts -reply`,
tests/support/tsa.py) timestamps; GET /api/v1/anchors lists them, a finished game's
export carries the proof of its final head and the token, and the verifier checks
both against the TSA's certificate."""

from __future__ import annotations

import base64
import copy
import json

import pytest
from cryptography import x509

from games import verify
from games.services import anchors
from games.verify import anchors as verify_anchors
from tests.support.tsa import LocalTsa

from . import driver
from .conftest import export
from .test_verifier import TOY, run_cli

pytestmark = pytest.mark.django_db


@pytest.fixture
def tsa(tmp_path, settings):
    authority = LocalTsa.start(tmp_path / "tsa")
    settings.TSA_URL = authority.url
    yield authority
    authority.stop()


def certificates(authority) -> list[x509.Certificate]:
    return verify_anchors.load_certificates(str(authority.bundle))


def checked(rows, authority) -> verify.Report:
    report = verify.verify(copy.deepcopy(rows))
    verify_anchors.check_anchor(rows, report, certificates(authority))
    return report


def test_a_finished_games_head_is_anchored_and_verifies(api, host, player, finished_toy, tsa, tmp_path):
    game = finished_toy
    leaves = anchors.checkpoints_since(0, 10**9)
    mine = [c for c in leaves if c.game == str(game.id)]
    assert mine[-1].version == game.version and mine[-1].head == game.chain_head
    assert len(mine) < game.version  # one leaf per commit, not per event
    made = anchors.anchor_now()
    assert made is not None and made.tree_size == len(leaves) and tsa.requests == 1
    assert anchors.anchor_now() is None  # nothing new: no tree, no request
    assert tsa.requests == 1

    listed = api.as_(None).get("/api/v1/anchors")  # public
    assert listed.status_code == 200, listed.content
    body = listed.json()
    assert body["enabled"] is True and body["next"] is None
    assert body["results"][0]["root"] == made.root and body["results"][0]["tree_size"] == made.tree_size

    rows = export(api, host, game.id)
    proof = rows[-1]["anchor"]
    assert proof["checkpoint"] == {
        "game": str(game.id),
        "version": game.version,
        "head": game.chain_head,
        "issued_at": mine[-1].issued_at,
    }
    report = checked(rows, tsa)
    assert report.ok and report.anchor_ok is True and report.anchored_at, report.problems

    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    ok = run_cli(str(path), "--ruleset-module", TOY, "--tsa-cert", str(tsa.bundle))
    assert ok.returncode == 0 and "anchor       ok" in ok.stdout, ok.stdout + ok.stderr
    unchecked = run_cli(str(path), "--ruleset-module", TOY)
    assert unchecked.returncode == 0 and "--tsa-cert" in unchecked.stdout


def test_a_forged_anchor_fails(api, host, player, finished_toy, tsa, tmp_path):
    anchors.anchor_now()
    rows = export(api, host, finished_toy.id)
    other = LocalTsa.start(tmp_path / "other")
    try:
        report = verify.verify(copy.deepcopy(rows))
        verify_anchors.check_anchor(rows, report, certificates(other))  # another TSA's certificate
        assert not report.ok and report.anchor_ok is False
    finally:
        other.stop()

    def forged(change):
        copied = copy.deepcopy(rows)
        change(copied[-1]["anchor"])
        return checked(copied, tsa)

    root = rows[-1]["anchor"]["root"]
    cases = {
        "root": lambda a: a.update(root=("0" if root[0] != "0" else "1") + root[1:]),
        "head": lambda a: a["checkpoint"].update(head="f" * 64),
        "version": lambda a: a["checkpoint"].update(version=1),
        "time": lambda a: a["checkpoint"].update(issued_at="2020-01-01T00:00:00Z"),
        "index": lambda a: a.update(leaf_index=a["tree_size"]),
        "token": lambda a: a.update(token=base64.b64encode(b"not a token").decode()),
        "garbage": lambda a: a.update(path="zz"),
    }
    for name, change in cases.items():
        report = forged(change)
        assert not report.ok and report.anchor_ok is False, name
        assert {p.check for p in report.problems} == {"anchor"}, (name, report.problems)
    # the operator rewrites the last event and its chain: the anchored head no longer matches
    rewritten = copy.deepcopy(rows)
    rewritten[-1]["hash"] = "e" * 64
    assert "anchor" in {p.check for p in checked(rewritten, tsa).problems}


def test_pages_and_bad_parameters(api, host, player, tsa):
    for players in (2, 2, 2):
        driver.new_game(players=players)
        assert anchors.anchor_now() is not None
    first = api.as_(None).get("/api/v1/anchors?limit=2").json()
    assert len(first["results"]) == 2 and first["next"]
    second = api.as_(None).get(first["next"]).json()
    ids = [a["id"] for a in first["results"] + second["results"]]
    assert len(ids) == 3 == len(set(ids)) and ids == sorted(ids, reverse=True) and second["next"] is None
    for bad in ("limit=0", "limit=x", "limit=201", "before=0", "before=-1", "before=99999999999999999999"):
        r = api.as_(None).get(f"/api/v1/anchors?{bad}")
        assert r.status_code == 400 and r.json()["code"] == "invalid", bad


def test_no_tsa_url_no_anchoring(api, host, player, finished_toy, settings):
    settings.TSA_URL = ""
    assert anchors.anchor_now() is None
    assert "TSA_URL" in api.as_(None).get("/api/v1/health").json()["anchoring"]
    assert api.as_(None).get("/api/v1/anchors").json() == {"results": [], "next": None, "enabled": False}
    assert "anchor" not in export(api, host, finished_toy.id)[-1]


def test_a_tsa_that_does_not_answer_anchors_nothing(api, host, player, finished_toy, settings):
    settings.TSA_URL = "http://127.0.0.1:9/nothing-listens-here"
    with pytest.raises(anchors.AnchorFailed):
        anchors.anchor_now()
    assert api.as_(None).get("/api/v1/anchors").json()["results"] == []
