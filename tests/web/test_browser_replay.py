"""The replay and audit pages for a signed-out visitor in headless Chromium
(issue 33): a finished Rising Sun game stepped by command and by turn with the
keyboard, no internal event names, the scoring breakdown, a revealed secret,
and the audit page with its JSON open to the visitor."""

from __future__ import annotations

import json

import pytest

from . import browser
from .test_browser import finished_game, page, server  # noqa: F401 - the same seeded game and browser

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.xdist_group("browser"),
]


def test_a_visitor_steps_by_command_and_turn_and_reads_the_scoring(page, finished_game):  # noqa: F811
    gid, _, last = finished_game
    page.go(f"/games/{gid}/replay")
    page.wait(lambda: page.body("loaded") == str(last), what="the last step")
    boot = json.loads(page.css("#boot").get_attribute("textContent"))
    steps = boot["steps"]
    assert len(steps) < last and len(boot["turns"]) >= 3
    log = page.css("#log").get_attribute("textContent")
    assert "core." not in log and "rising-sun." not in log
    assert page.all("#log .revealed"), "no secret shown as revealed after the end"
    tables = page.all("#scoring table.scoring")
    assert len(tables) == 3
    for table in tables:
        points = [int(td.text) for td in table.find_elements("css selector", "tbody td.points")]
        assert sum(points) == int(table.find_element("css selector", "td.total").text)
    body = page.css("body")
    body.send_keys("\ue011")  # Home: the first step
    page.wait(
        lambda: page.body("step") == "0" and page.body("loaded") == str(steps[0][1]), what="the first step"
    )
    body.send_keys("\ue00f")  # Page Down: the next turn's first step
    second = next(i for i, s in enumerate(steps) if s[2] > steps[0][2])
    page.wait(lambda: page.body("step") == str(second), what="the next turn")
    assert boot["turns"][steps[second][2]] in page.css("#shown").text
    body.send_keys("\ue014")  # →: one command further
    page.wait(lambda: page.body("loaded") == str(steps[second + 1][1]), what="the next step")
    page.css("#prev-turn").click()
    page.wait(lambda: page.body("step") == str(second), what="back to the turn's start")
    page.shot("replay-steps")


def test_a_visitor_reads_the_audit_and_its_json(page, finished_game):  # noqa: F811
    gid, _, _ = finished_game
    page.go(f"/games/{gid}/audit")
    assert "passed" in page.css("#verdict").text
    text = page.css("main").text
    assert "Seat -1" not in text and "commitment" in text.lower()
    st, body = page.fetch_text(page.css("#audit-json").get_attribute("href"))
    assert st == 200 and json.loads(body)["ok"] is True
    st, body = page.fetch_text(f"/api/v1/games/{gid}/scoring")
    assert st == 200 and json.loads(body)["final"] is True
    page.shot("audit-visitor")
