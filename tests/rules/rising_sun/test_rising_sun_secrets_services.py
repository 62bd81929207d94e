"""Alliance proposals through the real services (issue 10 item 1): what the
players not involved and a spectator get from the feed, the view and the game
page is the same before and after a proposal is made and declined (or
withdrawn), but for the anonymous public commitment."""

from __future__ import annotations

import pytest

from games.services import reading
from tests.audit import driver

pytestmark = pytest.mark.django_db

NAMES = ("hana", "kenji", "mitsu", "rin")


def _game():
    game = driver.new_game("rising-sun", 4, names=NAMES)
    assert game.rules_version == 4
    return game


def _page(game) -> dict:
    out = reading.game_json(game)
    return {k: v for k, v in out.items() if k not in ("version", "chain_head")}


def _seen(game, who) -> tuple:
    game.refresh_from_db()
    state = reading.view(game, who)["state"]
    return state, _page(game)


@pytest.mark.parametrize(
    "answer", [(1, {"type": "decline_alliance", "from": 0}), (0, {"type": "withdraw_alliance", "to": 1})]
)
def test_others_see_nothing_of_a_proposal_but_its_anonymous_commitment(answer):
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
        # proposal, commitment, notice to the target, hidden outcome; the answer, hidden outcome
        assert len(rows) == 6
        for row in rows:
            if row.get("redacted"):
                assert set(row) == {"seq", "type", "redacted", "prev_hash", "hash"}
                continue
            # the only public trace: a commitment that names nobody, with no actor or cause
            assert row["type"] == "core.ChoiceCommitted" and row["actor"] is None and "cause" not in row
            assert row["payload"]["seat"] == -1 and set(row["payload"]) == {"seat", "key", "commitment"}
    # the two players do see it
    mine, _ = reading.events_page(game, driver.user("kenji"), after=start, limit=100)
    assert any(r["type"] == "rising-sun.AllianceProposalReceived" and r["payload"]["from"] == 0 for r in mine)
