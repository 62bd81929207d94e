"""Property over many seeded random games (2p and 2 vs 2), engine invariants checked
after every command (imjin_helpers.play_checked): every event private to some seats
carries a salt of 32 lowercase hex characters (128 bits), unique within the game,
so its hash cannot be brute-forced from the few values the payload could take
(issue 10 item 1)."""

import re

import pytest
from imjin_helpers import play_checked

from games.rules.imjin import events as ev
from games.rules.imjin.rules import RULES

SALT = re.compile(r"^[0-9a-f]{32}$")


@pytest.mark.parametrize("n,seed", [(2, s) for s in range(100, 108)] + [(4, s) for s in range(200, 208)])
def test_every_private_event_is_salted_uniquely(n, seed):
    events, state = play_checked(n, seed, default_share=0.2)
    assert RULES.outcome(state) is not None
    private = [e for e in events if e.visible_to is not None]
    assert any(e.type == ev.GENERAL_PICKED for e in private)
    for e in private:
        assert SALT.match(str(e.payload.get("salt"))), (e.type, dict(e.payload))
    salts = [e.payload["salt"] for e in private]
    assert len(salts) == len(set(salts))


def test_team_mates_picks_are_salted_too():
    """2 vs 2: a team-mate's picks were the brute-forceable case (few candidates)."""
    events, _ = play_checked(4, 7)
    picks = [e for e in events if e.type == ev.GENERAL_PICKED and e.visible_to is not None]
    assert {e.visible_to for e in picks} == {(0,), (1,), (2,), (3,)}
    assert all(SALT.match(e.payload["salt"]) for e in picks)
