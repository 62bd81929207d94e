"""Alliance proposals through the real services (issue 10 item 1, issue 31):
what the players not involved and a spectator get from the feed (events and
their game log lines), the view, the game page (pending seats, deadlines), the
inbox and the audit of the running game is the same before and after a
proposal is made and declined (or withdrawn), but for the redacted entries
every private event leaves; the two players see its commitment, and the
audit verifies it once the game is over."""

from __future__ import annotations

import json

import pytest

from games import verify
from games.services import audit, inbox, reading, signing
from tests.audit import driver

pytestmark = pytest.mark.django_db

NAMES = ("hana", "kenji", "mitsu", "rin")
STUB = {"seq", "type", "redacted", "prev_hash", "hash"}
CHECKPOINT = {"game", "version", "head", "issued_at", "kid", "signature"}


def _game():
    game = driver.new_game("rising-sun", 4, names=NAMES)
    assert game.rules_version == 6
    return game


# what moves with every event, private ones too (their redacted stubs are public):
# the version, the chain head, the signed checkpoint of both (and the commit time),
# the last activity, and the inbox's count of events since the caller last looked
MOVING = ("version", "chain_head", "checkpoint", "last_activity", "unseen_events")


def _moving(game, out: dict) -> dict:
    # the checkpoint says no more than the game's own version and head
    assert out["checkpoint"] == signing.of_game(game)
    assert (out["checkpoint"]["version"], out["checkpoint"]["head"]) == (game.version, game.chain_head)
    return {k: v for k, v in out.items() if k not in MOVING}


def _page(game) -> dict:
    return _moving(game, reading.game_json(game))


def _inbox(game, user) -> list:
    entries = inbox.entries(user)
    assert all(e["unseen_events"] <= game.version for e in entries)
    return [_moving(game, e) for e in entries]


def _audit_commitments(game) -> list:
    """The running game's audit: the commitments anyone may read."""
    return audit.audit(game)["commitments"]


def _seen(game, who) -> tuple:
    game.refresh_from_db()
    state = reading.view(game, who)["state"]
    return state, _page(game), _inbox(game, who), _audit_commitments(game)


@pytest.mark.parametrize(
    "answer", [(1, {"type": "decline_alliance", "from": 0}), (0, {"type": "withdraw_alliance", "to": 1})]
)
def test_others_see_nothing_of_a_proposal_but_redacted_entries(answer):
    game = _game()
    others = [driver.user("mitsu"), driver.user("rin"), driver.user("outsider")]
    before = {u.username: _seen(game, u) for u in others}
    start = game.version
    driver.play(game, 0, {"type": "propose_alliance", "to": 1})
    assert {u.username: _seen(game, u) for u in others} == before
    driver.play(game, *answer)
    assert {u.username: _seen(game, u) for u in others} == before
    for u in others:
        rows, _ = reading.events_page(game, u, after=start, limit=100)
        # proposal, commitment, notice to the target, hidden outcome; the answer, hidden outcome:
        # all of them bare stubs (no actor, no cause, no game log line, no public commitment)
        assert len(rows) == 6
        assert all(row.get("redacted") and set(row) - {"checkpoint"} == STUB for row in rows), rows
        # each commit's last stub carries the signed checkpoint of its own seq and hash, nothing more
        signed = [row for row in rows if "checkpoint" in row]
        assert [row["seq"] for row in signed] == [start + 4, start + 6], rows
        for row in signed:
            assert set(row["checkpoint"]) == CHECKPOINT
            assert (row["checkpoint"]["version"], row["checkpoint"]["head"]) == (row["seq"], row["hash"])
    # the two players do see it, the commitment included
    for name in ("hana", "kenji"):
        mine, _ = reading.events_page(game, driver.user(name), after=start, limit=100)
        (committed,) = [r for r in mine if r["type"] == "core.ChoiceCommitted"]
        assert not committed["redacted"] and committed["visible_to"] == [0, 1]
        assert committed["payload"]["seat"] == 0 and committed["payload"]["key"].startswith("alliance:")
    mine, _ = reading.events_page(game, driver.user("kenji"), after=start, limit=100)
    assert any(r["type"] == "rising-sun.AllianceProposalReceived" and r["payload"]["from"] == 0 for r in mine)


def test_the_audit_verifies_a_secret_proposal_after_the_game():
    game = _game()
    driver.play(game, 0, {"type": "propose_alliance", "to": 1})
    driver.play(game, 1, {"type": "decline_alliance", "from": 0})
    running = audit.audit(game)
    assert running["ok"] and not any(c["key"].startswith("alliance:") for c in running["commitments"])
    driver.play_out(game, seed=31)
    assert game.status == "finished"
    rows = driver.full_export(game)
    report = verify.verify(rows)
    assert report.ok and report.salts_ok and report.replayed, verify.format_report(report)
    secret = [c for c in report.commitments if c["key"].startswith("alliance:")]
    assert secret and all(c["private"] and c["revealed"] and c["reveal_ok"] for c in secret)
    assert secret[0]["seat"] == 0
    finished = audit.audit(game)
    assert finished["ok"] and any(c["key"] == secret[0]["key"] for c in finished["commitments"])


def test_another_seats_export_checks_with_the_accepted_commitment_redacted():
    """While the game runs, an accepted proposal's reveal is public but its
    commitment is still private to the two players: another seat's verifier
    notes it (committed in a redacted line) instead of calling it forged."""
    game = _game()
    driver.play(game, 0, {"type": "propose_alliance", "to": 1})
    driver.play(game, 1, {"type": "accept_alliance", "from": 0})
    rows = [json.loads(line) for line in audit.export_lines(game, driver.user("mitsu"))]
    (reveal,) = [i for r in rows if not r.get("redacted") for i in r["payload"].get("reveals", ())]
    assert reveal["choice"] == {"from": 0, "to": 1}
    report = verify.verify(rows)
    assert report.chain_ok and report.reveals_ok, verify.format_report(report)
    assert any(reveal["key"] in note and "redacted" in note for note in report.notes)
    # the target's export holds the commitment: checked in full
    rows = [json.loads(line) for line in audit.export_lines(game, driver.user("kenji"))]
    report = verify.verify(rows)
    (checked,) = [c for c in report.commitments if c["key"] == reveal["key"]]
    assert report.reveals_ok and checked["revealed"] and checked["reveal_ok"]
