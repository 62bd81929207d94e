"""Fixtures of the audit tests: finished games, exports, the verifier."""

from __future__ import annotations

import json

import pytest

from events.codec import GENESIS_HASH, chain_hash
from games import verify
from games.models import Game
from games.services.lobby import get_game

from . import driver

TOY = "tests.support.toy:RULES"


def export(api, who, gid) -> list[dict]:
    r = api.as_(who).get(f"/api/v1/games/{gid}/export")
    assert r.status_code == 200, r.content
    return [json.loads(line) for line in r.content.decode().splitlines()]


def audit_of(api, who, gid) -> dict:
    r = api.as_(who).get(f"/api/v1/games/{gid}/audit")
    assert r.status_code == 200, r.content
    return r.json()


def rehash(rows: list[dict]) -> list[dict]:
    """What a careful forger does after editing events: rebuild the whole chain."""
    prev = GENESIS_HASH
    for r in rows:
        r["prev_hash"] = prev
        r["hash"] = prev = chain_hash(prev, r["seq"], r["type"], r["version"], r["payload"])
    return rows


def play_api_game_to_end(api, host, player, gid, seed=0) -> Game:
    return driver.play_out(get_game(gid), seed)


@pytest.fixture
def finished_toy(api, host, player, running_game):
    """A finished 2-seat toy game played by the personas host (seat 0) and player."""
    game = driver.play_out(get_game(running_game["id"]), seed=7)
    assert game.status == "finished"
    return game


@pytest.fixture
def half_toy(running_game):
    """A running toy game: seat 0 has bid 4 secretly, seat 1 not yet."""
    game = get_game(running_game["id"])
    driver.play(game, 0, {"type": "bid", "amount": 4})
    return game


def verified(rows) -> verify.Report:
    return verify.verify(json.loads(json.dumps(rows)))
