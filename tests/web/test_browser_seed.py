"""Seat entropy from the browser (web/static/web/entropy.js): creating a game in the
lobby sends 32 bytes from crypto.getRandomValues, and core.GameStarted lists them
for the creator's seat. One game, three page loads."""

from __future__ import annotations

import json
import re

import pytest

from . import browser
from .test_browser import page, server  # noqa: F401 - the same server and browser fixtures

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.xdist_group("browser"),
]


def test_creating_a_game_contributes_the_creators_entropy(page):  # noqa: F811 - the fixture
    page.sign_up("seed-hana")
    gid = page.create_game("imjin", players=2, bots=1)  # full at once: started
    status, text = page.fetch_text(f"/api/v1/games/{gid}/export")
    assert status == 200, text
    started = json.loads(text.splitlines()[0])
    assert started["type"] == "core.GameStarted"
    given = started["payload"]["entropy"]
    assert [g["seat"] for g in given] == [0] and re.fullmatch(r"[0-9a-f]{64}", given[0]["entropy"])
    status, text = page.fetch_text(f"/api/v1/games/{gid}")
    assert json.loads(text)["seats"][0]["entropy_given"] is True
