"""An engine bug is answered with its own code (`engine_error`, 422), logged with
the game and the command type, and writes nothing — whether the engine raises
or breaks the salt rule for private events (issue 10 item 1, issue 13 item 3).
Platform private events (press to some seats) are salted by the platform."""

from __future__ import annotations

import logging

import pytest

from events.codec import SALT_RE, platform_salt
from events.models import StoredEvent
from games.models import Game
from games.rules.base import Event
from games.rules.kit import Decided
from tests.support.toy import RULES

pytestmark = pytest.mark.django_db


def _count(game) -> int:
    return StoredEvent.objects.filter(stream=game["id"]).count()


def _bid(api, who, game):
    return api.as_(who).post(
        f"/api/v1/games/{game['id']}/commands", {"command": {"type": "bid", "amount": 1}}
    )


def test_an_engine_crash_is_engine_error_logged_and_writes_nothing(
    api, host, running_game, monkeypatch, caplog
):
    def crash(state, seat, command, rng):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(RULES, "decide", crash)
    monkeypatch.setattr(RULES, "decide_folded", crash)  # what the service calls (one fold)
    before = _count(running_game)
    with caplog.at_level(logging.ERROR):
        r = _bid(api, host, running_game)
    assert r.status_code == 422, r.content
    assert r.json()["code"] == "engine_error" and "ZeroDivisionError" in r.json()["detail"]
    assert _count(running_game) == before
    assert Game.objects.get(id=running_game["id"]).version == running_game["version"]
    line = next(rec.getMessage() for rec in caplog.records if "engine_error" in rec.getMessage())
    assert running_game["id"] in line and "'bid'" in line


@pytest.mark.parametrize("payload", [{"secret": 1}, {"secret": 1, "salt": "abc"}, {"salt": "F" * 32}])
def test_an_unsalted_private_engine_event_is_refused_as_engine_error(
    api, host, running_game, monkeypatch, caplog, payload
):
    monkeypatch.setattr(
        RULES,
        "decide",
        lambda state, seat, command, rng: [Event("toy.Whispered", payload, visible_to=(seat,))],
    )
    monkeypatch.setattr(  # what the service calls: the store refuses the event before any fold
        RULES,
        "decide_folded",
        lambda state, seat, command, rng: Decided(
            [Event("toy.Whispered", payload, visible_to=(seat,))], state
        ),
    )
    before = _count(running_game)
    with caplog.at_level(logging.ERROR):
        r = _bid(api, host, running_game)
    assert r.status_code == 422 and r.json()["code"] == "engine_error", r.content
    assert "toy.Whispered" in r.json()["detail"]
    assert _count(running_game) == before
    assert any(
        "engine_error" in rec.getMessage() and running_game["id"] in rec.getMessage()
        for rec in caplog.records
    )


def test_an_unsalted_private_setup_event_fails_the_start_and_writes_nothing(
    api, host, player, open_game, monkeypatch
):
    real = RULES.start
    monkeypatch.setattr(
        RULES, "start", lambda f, o, rng: [*real(f, o, rng), Event("toy.Dealt", {"card": 3}, visible_to=(0,))]
    )
    assert api.as_(player).post(f"/api/v1/games/{open_game['id']}/seats", {}).status_code == 201
    r = api.as_(host).post(f"/api/v1/games/{open_game['id']}/start")
    assert r.status_code == 422 and r.json()["code"] == "engine_error", r.content
    assert _count(open_game) == 0 and Game.objects.get(id=open_game["id"]).status == "open"


def test_private_press_is_salted_from_the_seed_and_public_press_is_not(api, host, running_game):
    url = f"/api/v1/games/{running_game['id']}/messages"
    secret = api.as_(host).post(url, {"text": "yes", "to": [1]})
    assert secret.status_code == 201, secret.content
    public = api.as_(host).post(url, {"text": "hello all", "to": None})
    assert public.status_code == 201, public.content
    game = Game.objects.get(id=running_game["id"])
    rows = {r.type + str(r.visible_to): r for r in StoredEvent.objects.filter(stream=game.id)}
    private = rows["core.MessageSent[0, 1]"]
    assert SALT_RE.fullmatch(private.payload["salt"])
    assert private.payload["salt"] == platform_salt(game.seed, private.seq)
    assert "salt" not in rows["core.MessageSentNone"].payload
