"""A full turn of each ruleset with the keyboard only (issue 33): Tab, Shift-Tab,
Enter and Space through Selenium's key actions, never a click - every stop of
the focus shows it (:focus-visible), the order runs from the page's top through
the board to the commands, and a province is chosen without a pointer. Also the
table controls against bots: no takeback button, the reason instead."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from . import browser
from .test_browser import server  # noqa: F401 - the shared server fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.xdist_group("browser"),
]

# Where the focus is, in words a failure message can show; and whether it is seen.
FOCUS = """const e = document.activeElement;
  if (!e || e === document.body) return null;
  const region = e.closest('[data-province]') ? 'board'
    : e.closest('#commands') ? 'commands' : e.closest('#controls') ? 'controls'
    : e.closest('#press-form') ? 'press' : e.closest('header, nav, .top') ? 'nav' : 'page';
  const style = getComputedStyle(e);
  return {region: region, tag: e.tagName, province: e.dataset ? e.dataset.province || null : null,
          command: e.dataset ? e.dataset.command || null : null,
          example: e.classList.contains('example'), submit: e.type === 'submit' && !!e.closest('#commands form'),
          visible: e.matches(':focus-visible') && (style.outlineStyle !== 'none' || parseFloat(style.strokeWidth) >= 3)};"""


@pytest.fixture
def page(server):  # noqa: F811 - the server fixture shared with test_browser.py
    d = browser.chrome()
    p = browser.Page(d, f"http://127.0.0.1:{server.port}")
    try:
        yield p
        p.assert_no_csp_violation()
    finally:
        d.quit()


class Keyboard:
    """The player's hands on the keys only; `stops` records every focus stop."""

    def __init__(self, page: browser.Page):
        self.page, self.stops = page, []

    def press(self, key: str, shift: bool = False) -> None:
        chain = ActionChains(self.page.d)
        if shift:
            chain = chain.key_down(Keys.SHIFT).send_keys(key).key_up(Keys.SHIFT)
        else:
            chain = chain.send_keys(key)
        chain.perform()

    def focus(self) -> dict | None:
        return self.page.js(FOCUS)

    def tab_to(self, wanted, limit: int = 400, back: bool = False) -> dict:
        """Tab (Shift-Tab) until the focused element is `wanted`; every stop on
        the way must show its focus."""
        for _ in range(limit):
            now = self.focus()
            if now is not None:
                assert now["visible"], f"focus not visible on {now}"
                self.stops.append(now)
                if wanted(now):
                    return now
            self.press(Keys.TAB, shift=back)
        raise AssertionError(f"the focus never reached it; last stops: {self.stops[-8:]}")


def keyboard_move(page: browser.Page, keys: Keyboard) -> str:
    """One move by the keyboard: a province on the board when a command names
    one, else a command's button, else a template form's example and submit."""
    before = page.body("version")
    named = page.js(
        """const board = new Set([...document.querySelectorAll('#board-svg [data-province]')]
             .map(p => p.dataset.province));
           for (const b of document.querySelectorAll('#commands button[data-command]')) {
             if (b.hidden) continue;
             const seen = JSON.stringify(JSON.parse(b.dataset.command));
             for (const p of board) if (seen.includes('"' + p + '"')) return p;
           }
           return null;"""
    )
    if named:
        keys.tab_to(lambda f: f["province"] == named)
        keys.press(Keys.ENTER)  # pick: the buttons naming it stay, the first one takes the focus
        page.wait(lambda: (keys.focus() or {}).get("command"), what="the focus on a move with the province")
        landed = keys.focus()
        assert landed["visible"], f"focus not visible on {landed}"
        keys.stops.append(landed)
        keys.press(Keys.SPACE)
        how = "province"
    elif page.js(
        "return [...document.querySelectorAll('#commands button[data-command]')].some(b => !b.hidden)"
    ):
        keys.tab_to(lambda f: f["command"] is not None)
        keys.press(Keys.ENTER)
        how = "button"
    else:
        keys.tab_to(lambda f: f["example"])
        keys.press(Keys.ENTER)
        keys.tab_to(lambda f: f["submit"])
        keys.press(Keys.ENTER)
        how = "form"
    page.wait(lambda: page.settled() and page.body("version") != before, what=f"the {how} move to be applied")
    assert not page._error(), page._error()
    return how


def others_moved(page: browser.Page, version: int) -> bool:
    """Whether a seat other than the page's played after `version` (the feed's actors)."""
    gid = page.d.current_url.rstrip("/").rsplit("/", 1)[1]
    status, text = page.fetch_text(f"/api/v1/games/{gid}/events?after={version}&limit=1000")
    assert status == 200, text
    mine = page.js("return JSON.parse(document.getElementById('boot').textContent).seat")
    seats = {(e.get("actor") or {}).get("seat") for e in json.loads(text)["results"]}
    return bool(seats - {mine, None})


@pytest.mark.parametrize("ruleset,players,most", [("rising-sun", 3, 14), ("shogun", 3, 14), ("imjin", 2, 14)])
def test_a_full_turn_with_the_keyboard_only(page, ruleset, players, most):
    page.sign_up(f"keys-{ruleset}")
    page.create_game(ruleset, players=players, bots=players - 1)
    page.wait_my_turn_or_end()
    keys = Keyboard(page)
    # from the top of the page: the focus order runs through the board to the commands
    keys.press(Keys.TAB)
    hows, turns = [], 0
    while len(hows) < most and page.body("status") == "running":
        version = int(page.body("version"))
        hows.append(keyboard_move(page, keys))
        if others_moved(page, version):  # my turn ended: the bots played theirs (at once: inline)
            turns += 1
            if "province" in hows:
                break
        page.wait_my_turn_or_end(timeout=60)
    assert turns >= 1, f"no turn was finished in {most} moves: {hows}"
    regions = [s["region"] for s in keys.stops]
    assert "board" in regions and "commands" in regions
    if "province" in hows:
        first_board, first_commands = regions.index("board"), regions.index("commands")
        assert first_board < first_commands, "the board's provinces come before the commands"
    assert "province" in hows, f"no province was chosen by the keyboard in {hows}"
    # Shift-Tab walks back the same way
    now = keys.focus()
    if now is not None:
        back = keys.tab_to(lambda f: f["region"] == "nav", back=True)
        assert back["visible"]
    if ruleset == "rising-sun":
        # against bots the last move is never yours: no button, the reason instead
        page.wait(lambda: page.css("#takeback-why").is_displayed(), what="the takeback reason")
        assert not page.css("#takeback").is_displayed()
        assert page.css("#takeback-why").text.startswith("Taking back your last move is not possible now")
