"""Commitments never reveal a choice before its time: while a game runs, no
other seat's feed, export, view, replay or the audit carries the choice or the
salt of a secret decision — only its commitment."""

from __future__ import annotations

import random

import pytest

from games.rules import registry
from games.services.lobby import get_game

from . import driver
from .conftest import audit_of, export

pytestmark = pytest.mark.django_db


def everything_seen_by(api, who, gid) -> str:
    parts = [
        api.as_(who).get(f"/api/v1/games/{gid}/events?limit=1000").content.decode(),
        api.as_(who).get(f"/api/v1/games/{gid}/export").content.decode(),
        api.as_(who).get(f"/api/v1/games/{gid}/view").content.decode(),
        api.as_(who).get(f"/api/v1/games/{gid}/audit").content.decode(),
        api.as_(who).get(f"/api/v1/games/{gid}").content.decode(),
    ]
    version = get_game(gid).version
    for v in (version - 1, version):
        parts.append(api.as_(who).get(f"/api/v1/games/{gid}/replay?version={v}").content.decode())
    return "\n".join(parts)


def test_a_secret_bid_stays_secret_until_revealed(api, host, player, outsider, half_toy):
    gid = half_toy.id
    mine = export(api, host, gid)
    private = next(e for e in mine if e["type"] == "toy.BidPlaced")
    salt, commitment = (
        private["payload"]["salt"],
        next(e for e in mine if e["type"] == "core.ChoiceCommitted")["payload"]["commitment"],
    )
    assert private["cause"]["command"] == {"type": "bid", "amount": 4}  # the author sees it
    for who in (player, outsider):
        seen = everything_seen_by(api, who, gid)
        assert salt not in seen
        assert commitment in seen  # the public commitment is there…
        assert '"amount":4' not in seen.replace(" ", "") and '"choice"' not in seen  # …the choice is not
        theirs = export(api, who, gid)
        redacted = next(e for e in theirs if e["seq"] == private["seq"])
        assert redacted == {  # not even the type, which would say a bid was placed (issue 31)
            "seq": private["seq"],
            "type": "core.Redacted",
            "redacted": True,
            "prev_hash": private["prev_hash"],
            "hash": private["hash"],
        }
        assert all("cause" not in e for e in theirs if e["seq"] == private["seq"])
    audit = audit_of(api, player, gid)
    assert audit["seed"] is None and audit["commitments"][0]["revealed"] is False
    # Once both have bid, the reveal is public and checks out.
    driver.play(half_toy, 1, {"type": "bid", "amount": 2})
    seen = everything_seen_by(api, outsider, gid)
    assert salt in seen
    assert all(c["reveal_ok"] for c in audit_of(api, outsider, gid)["commitments"])


def _unrevealed_secrets(rows) -> list[tuple[list, str]]:
    revealed = {
        item["salt"]
        for r in rows
        if r.get("visible_to") is None
        for item in (r["payload"].get("reveals") or [])
    }
    return [
        (r["visible_to"], r["payload"]["salt"])
        for r in rows
        if r.get("visible_to") is not None and "salt" in r["payload"] and r["payload"]["salt"] not in revealed
    ]


def _check_no_seat_sees_others_salts(api, tokens, game) -> int:
    """Every other seat's export, feed and view searched for every unrevealed salt;
    the number of (secret, other seat) pairs checked."""
    from games.services.audit import event_dicts

    checked = 0
    secrets = _unrevealed_secrets(event_dicts(get_game(game.id)))
    for seat, who in tokens.items():
        seen = everything_seen_by(api, who, game.id)
        for owners, salt in secrets:
            if seat not in owners:
                assert salt not in seen, f"seat {seat} sees a salt of seats {owners}"
                checked += 1
    return checked


@pytest.mark.parametrize("ruleset", [r for r in registry.available() if r != "toy-auction"])
def test_no_seat_sees_another_seats_unrevealed_secrets_mid_game(api, ruleset):
    """A real ruleset, stopped at several points mid-game: every other seat's
    export, feed and view is searched for every unrevealed salt."""
    from knox.models import AuthToken

    rules = registry.get(ruleset)
    try:
        game = driver.new_game(ruleset, rules.min_players)
    except Exception as exc:
        pytest.skip(f"the {ruleset} engine failed at start: {exc}")
    rnd = random.Random(5)
    tokens = {}
    for seat in game.seats.select_related("user"):
        tokens[seat.index] = type("P", (), {"token": AuthToken.objects.create(seat.user)[1]})()
    checked = 0
    for step in range(300):
        try:
            if not driver.step(game, rnd):
                break
        except Exception as exc:
            pytest.skip(f"the {ruleset} engine failed during random play: {exc}")
        if step % 60 != 59:
            continue
        if get_game(game.id).status != "running":
            break  # a finished game shows everyone everything: nothing is secret any more
        checked += _check_no_seat_sees_others_salts(api, tokens, game)
    print(f"{ruleset}: {checked} (secret, other seat) pairs checked")
