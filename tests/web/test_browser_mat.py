"""The seat panel as a player mat, the board in words and "since you last looked", in a
real browser (the helpers and server of tests/web/test_browser.py): one Imjin game of two
people, the page's player against a second account playing through the API."""

from __future__ import annotations

import json
import random

import pytest

from tests.support import servers

from . import browser
from .test_browser import page, server  # noqa: F401  # the same server and browser fixtures

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.xdist_group("browser"),  # one server and browsers at a time on a small machine
]


def other_moves(running, gid, token, at_most: int, prefer: str | None = None) -> int:
    """The second account plays its first legal command (its first of type `prefer`
    when it has one) while it must act; how many."""
    made = 0
    for _ in range(at_most):
        st, legal, _ = servers.request(running.port, "GET", f"/games/{gid}/legal-commands", token)
        assert st == 200, legal
        if not legal["pending"]:
            break
        cmd = legal["commands"][0] if legal["commands"] else legal["samples"][0]
        cmd = next((c for c in legal["commands"] if c["type"] == prefer), cmd)
        st, res, _ = servers.request(
            running.port,
            "POST",
            f"/games/{gid}/commands",
            token,
            {"command": cmd, "expected_version": legal["version"]},
        )
        assert st == 201, res
        made += 1
    return made


def my_view(browser_page) -> dict:
    st, text = browser_page.fetch_text(f"/api/v1/games/{browser_page.gid}/view")
    assert st == 200, text
    return json.loads(text)["state"]


def units_by_area(view) -> dict:
    """Each area's units as the board list says them: owner, troops, general."""
    out: dict = {}
    for unit in view["units"].values():
        out.setdefault(unit["area"], []).append((unit["owner"], unit["troops"], unit["general"] or ""))
    return {area: sorted(units) for area, units in out.items()}


def jun_view(running, gid, token) -> dict:
    st, body, _ = servers.request(running.port, "GET", f"/games/{gid}/view", token)
    assert st == 200, body
    return body["state"]


def test_the_mat_the_board_in_words_and_since_you_last_looked(page, server):  # noqa: F811
    page.sign_up("mina")
    page.gid = gid = page.create_game("imjin", players=2, bots=0)
    other = servers.register(server.port, "jun")
    st, body, _ = servers.request(server.port, "POST", f"/games/{gid}/seats", other["token"], {})
    assert st == 201, body
    page.wait(lambda: page.css("#start").is_displayed(), what="the start button")
    page.css("#start").click()
    page.wait(lambda: page.body("status") == "running", what="the game to start")
    rnd = random.Random(5)
    # both draft their generals: until the page's player holds a hand
    for _ in range(40):
        other_moves(server, gid, other["token"], 5)
        page.go(f"/games/{gid}")
        page.wait(page.settled, what="the page to settle")
        view = my_view(page)
        seat = view["header"]["seat"]
        if view["hands"][seat]["cards"] and page.body("turn") != "me":
            break
        if page.body("turn") == "me":
            page.play_one(rnd)
    view = my_view(page)  # the page is settled: what it drew
    hand = view["hands"][seat]["cards"]
    assert hand and f"hands.{seat}" in view["header"]["private"]
    # the mat: every general of the hand with its text, marked as seen by this seat only
    page.wait(lambda: len(page.all("#private .secret [data-card]")) == len(hand), what="the hand on the mat")
    shown = sorted(c.get_attribute("data-card") for c in page.all("#private .secret [data-card]"))
    assert shown == sorted(hand), (
        page.body("version"),
        page.js("return document.getElementById('private').innerText"),
        view,
    )
    assert all(t.text.strip() for t in page.all("#private .secret [data-card] .card-text"))
    assert len(page.all("#private .secret [data-card] .card-text")) == len(hand)
    assert "only you see this" in page.css("#private .secret .only-you").text
    assert not page.all("#view-json"), "the raw JSON dump is gone"
    # the board in words: one line per province with pieces, by name, as the view has them
    areas = {u["area"] for u in view["units"].values()}
    listed = {li.get_attribute("data-province") for li in page.all("#board-list li[data-province]")}
    assert listed == areas and len(listed) > 3
    first = page.css(f'#board-list li[data-province="{sorted(areas)[0]}"]').text
    assert "troops" in first and sorted(areas)[0] not in first.split(":")[0]  # a name, not an id
    page.shot("mat-imjin")
    # leave; the other seat moves; come back: what changed is marked. Until its moves have
    # moved a unit (some decisions move none), the page's player takes its turns in between.
    expected: set = set()
    for _ in range(15):
        page.go(f"/games/{gid}")
        page.wait(page.settled, what="the page to settle")
        while page.body("turn") == "me" and page.body("status") == "running":
            page.play_one(rnd)
        page.go("/")
        before = units_by_area(my_view(page))  # this look is recorded: the last before coming back
        # a unit moved when it can: the first command of a turn is often "done" (Imjin lists it first)
        other_moves(server, gid, other["token"], 10, prefer="move")
        after = units_by_area(jun_view(server, gid, other["token"]))
        expected = {area for area in set(before) | set(after) if before.get(area) != after.get(area)}
        if expected:
            break
    assert expected, "the other seat's moves never moved a unit"
    page.go(f"/games/{gid}")
    page.wait(page.settled, what="the page to settle")
    page.wait(lambda: page.css("#since-note").is_displayed(), what="the since-you-last-looked note")
    assert "new since you last looked" in page.css("#since-note").text
    new_lines = page.all("#log li.new")
    assert new_lines and int(page.css("#since-note").text.split()[0]) == len(new_lines)
    assert all(int(li.get_attribute("value")) > 0 for li in new_lines)
    page.wait(lambda: page.body("changed") is not None, what="the provinces compared with the last look")
    changed = set(filter(None, page.body("changed").split(" ")))
    assert changed == {li.get_attribute("data-province") for li in page.all("#board-list li.changed")}
    on_map = {p.get_attribute("data-province") for p in page.all("#board-svg [data-province]")}
    assert {p.get_attribute("data-province") for p in page.all("#board-svg .changed")} == changed & on_map
    assert changed == expected
    page.shot("since-you-last-looked")
