"""GET /audit on games in every state, and when the engine itself fails."""

from __future__ import annotations

import pytest

from .conftest import audit_of

pytestmark = pytest.mark.django_db


def test_audit_of_an_open_game(api, host, open_game):
    a = audit_of(api, host, open_game["id"])
    assert a["chain_head"] is None and a["seed"] is None and a["commitments"] == [] and a["version"] == 0


def test_an_engine_crash_during_the_audit_is_a_finding(api, host, finished_toy, monkeypatch):
    from tests.support import toy

    def broken(self, state, event):
        raise RuntimeError("boom")

    monkeypatch.setattr(toy.ToyRules, "evolve", broken)
    a = audit_of(api, host, finished_toy.id)
    assert a["replay_ok"] is False and a["chain_ok"] and "boom" in a["problems"][0]["detail"]


def test_audit_of_a_running_game_hides_the_seed(api, outsider, half_toy):
    a = audit_of(api, outsider, half_toy.id)
    assert a["ok"] and a["seed"] is None and a["seed_ok"] is True and a["replay_ok"] is True
    assert half_toy.seed not in str(a)
    assert [c["revealed"] for c in a["commitments"]] == [False]


def test_audit_needs_a_token_and_a_real_game(api, host):
    assert api.get("/api/v1/games/00000000-0000-0000-0000-000000000000/audit").status_code == 401
    assert api.as_(host).get("/api/v1/games/00000000-0000-0000-0000-000000000000/audit").status_code == 404
    assert api.as_(host).get("/api/v1/games/nope/audit").status_code == 404


def test_the_answer_matches_its_documented_shape(api, host, finished_toy):
    from api.views.audit import AuditReportSerializer

    a = audit_of(api, host, finished_toy.id)
    s = AuditReportSerializer(data=a)
    assert s.is_valid(), s.errors
    assert set(a) == set(AuditReportSerializer().fields)


def test_a_seats_export_of_a_running_game_verifies_as_far_as_it_can(api, player, half_toy):
    from games import verify

    from .conftest import export

    rows = export(api, player, half_toy.id)
    assert any(r.get("redacted") for r in rows)
    report = verify.verify(rows)
    assert report.ok and report.chain_ok and report.replayed is None and report.seed is None
    assert report.chain_head == half_toy.chain_head
