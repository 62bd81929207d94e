"""Every command playable through the page with its parameters (issue 33): a real
war bid and a gift in Rising Sun (the whole game, played in Japanese), a plan and
a province click in Shogun, a unit chosen by its area on Imjin's board; each move
checked in the game's events by its `cause` (the command as sent), and the
command area checked for raw ids."""

from __future__ import annotations

import json
import random
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from . import browser
from .test_browser import page, play, server  # noqa: F401 (fixtures shared with the page tests)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.xdist_group("browser"),
]

# raw values a command button must not show: Imjin's units and area ids, "1:bushi"
RAW = re.compile(r"\bu\d+\b|\b[A-Z]{2,3}_[A-Z]\b|\b\d+:[A-Za-z]|\b(chest|tower)\d\b")


def causes(p: browser.Page, gid: str) -> list[dict]:
    """The commands this account sent, as the game's events record them."""
    out, after = [], 0
    while True:
        st, text = p.fetch_text(f"/api/v1/games/{gid}/events?after={after}&limit=1000")
        assert st == 200, text
        page_ = json.loads(text)
        rows = page_["results"]
        out += [e["cause"]["command"] for e in rows if "command" in (e.get("cause") or {})]
        if not page_.get("next") or not rows:
            return out
        after = rows[-1]["seq"]


def api(p: browser.Page, path: str) -> dict:
    st, text = p.fetch_text("/api/v1" + path)
    assert st == 200, text
    return json.loads(text)


def buttons(p: browser.Page):
    return [b for b in p.all("#commands button[data-command]") if b.is_displayed()]


def assert_words_not_ids(p: browser.Page) -> None:
    """No command button says a parameter by its key ("tile: betray") or a raw id."""
    for b in buttons(p):
        text = b.text
        assert not RAW.search(text), f"a raw id on a command button: {text!r}"
        for key in json.loads(b.get_attribute("data-command")):
            assert not re.search(rf"(^|, |— ){re.escape(key)}: ", text), f"a raw key on a button: {text!r}"


def fill_and_send(p: browser.Page, form, values: dict[str, int]) -> None:
    before = p.body("version")
    for name, value in values.items():
        field = form.find_element(By.CSS_SELECTOR, f'[name="{name}"]')
        if field.tag_name == "select":
            Select(field).select_by_value(json.dumps(value))
        else:
            field.clear()
            field.send_keys(str(value))
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    p.wait(lambda: p.settled() and p.body("version") != before, what="the form's move to be applied")


def set_language(p: browser.Page, lang: str) -> None:
    p.go("/accounts/settings")
    Select(p.css("#language")).select_by_value(lang)
    p.css("#settings-form button[type=submit]").click()
    p.wait(lambda: "saved=1" in p.d.current_url and p.all("#language"), what="the settings saved")


def test_rising_sun_to_the_end_in_japanese_with_a_real_bid_and_a_gift(page):  # noqa: F811
    """The whole game clicked through the page (boards, buttons, forms) with the
    account's language set to Japanese; nothing here reads English words."""
    page.sign_up("kiku")
    set_language(page, "ja")
    page.go("/")
    page.shot("lobby")
    gid = page.create_game("rising-sun", players=3, bots=2)
    assert page.js("return document.documentElement.lang") == "ja"
    page.wait_my_turn_or_end()
    # the lobby's default bots play to the score
    assert [s.get("bot") for s in api(page, f"/games/{gid}")["seats"]].count("heuristic") == 2
    page.shot("game-rising-sun")
    rnd, sent, made = random.Random(11), [], 0
    for _ in range(400):
        if page.wait_my_turn_or_end(timeout=60) != "running":
            break
        made += 1
        view = api(page, f"/games/{gid}/view")
        seat = view["seat"]
        me = view["state"]["players"][seat]
        assert_words_not_ids(page)
        bid = page.all('#commands form[data-template="bid"]')
        gift = page.all('#commands form[data-template="gift"]')
        if bid and me["coins"] >= 2:  # a split, not the zero bid the button offers
            values = {"seppuku": 1, "hostage": 0, "ronin": 1, "poets": 0}
            fill_and_send(page, bid[0], values)
            sent.append({"type": "bid", **values})
        elif gift and me["coins"] >= 1 and not any(c["type"] == "gift" for c in sent):
            to = next(s for s in range(3) if s != seat)
            fill_and_send(page, gift[0], {"to": to, "coins": 1, "ronin": 0})
            sent.append({"type": "gift", "to": to, "coins": 1, "ronin": 0})
        else:
            page.play_one(rnd)
    assert page.body("status") == "finished" and made > 10
    assert page.provinces_clicked > 0, "no move was chosen on the board"
    page.shot("game-over")
    recorded = causes(page, gid)
    for command in sent:
        assert command in recorded, f"{command} is not in the game's events"
    assert any(c["type"] == "bid" for c in sent), "no war bid was made through its form"
    # the lobby lists it under finished games, with its replay
    page.go("/")
    assert page.css(f'a[href="/games/{gid}/replay"]')
    page.shot("game-over-ja")


def test_a_bid_over_your_coins_is_refused_next_to_the_form_before_sending(page):  # noqa: F811
    page.sign_up("ren")
    gid = page.create_game("rising-sun", players=3, bots=2)
    rnd = random.Random(2)
    for _ in range(200):
        assert page.wait_my_turn_or_end(timeout=60) == "running"
        if page.all('#commands form[data-template="bid"]'):
            break
        page.play_one(rnd)
    view = api(page, f"/games/{gid}/view")
    coins = view["state"]["players"][view["seat"]]["coins"]
    form = page.css('#commands form[data-template="bid"]')
    before = page.body("version")
    field = form.find_element(By.CSS_SELECTOR, '[name="poets"]')
    field.clear()
    field.send_keys(str(coins + 1))
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    error = form.find_element(By.CSS_SELECTOR, "#cmd-error")  # inside the form that caused it
    assert error.is_displayed() and str(coins) in error.text
    assert page.body("version") == before, "an over-spent bid was sent"


def test_shogun_plan_through_its_form_and_a_province_click(page):  # noqa: F811
    page.sign_up("toshi")
    gid = page.create_game("shogun", players=3, bots=2)
    rnd = random.Random(4)
    for _ in range(40):
        assert page.wait_my_turn_or_end(timeout=60) == "running"
        assert_words_not_ids(page)
        plans = page.all('#commands form[data-template="plan"]')
        if plans:
            break
        page.play_one(rnd)
    assert page.provinces_clicked > 0, "no draft or move was chosen on the board"
    form = plans[0]
    # the plan's choices say provinces and cards by name, not "chest0"
    options = [o.text for o in form.find_elements(By.CSS_SELECTOR, "select option")]
    assert options and not any(re.fullmatch(r"(chest|tower)\d", o) for o in options)
    examples = form.find_elements(By.CSS_SELECTOR, "button.example")
    if examples:
        examples[0].click()  # another legal plan than the one the form starts from
    from_form = page.js(
        "const f = arguments[0]; const out = {};"
        "f.querySelectorAll('select[name^=\"spaces.\"]').forEach(s => out[s.name.slice(7)] = JSON.parse(s.value));"
        "return out;",
        form,
    )
    before = page.body("version")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    page.wait(lambda: page.settled() and page.body("version") != before, what="the plan to be applied")
    assert {"type": "plan", "spaces": from_form} in causes(page, gid)


def test_imjin_a_unit_chosen_by_its_area_with_the_keyboard(page):  # noqa: F811
    """Imjin's commands name units ("u3"), the board areas: an area chooses the
    moves of the units standing in it, by Enter on the focused province."""
    page.sign_up("yun")
    gid = page.create_game("imjin", players=2, bots=1)
    rnd = random.Random(5)
    for _ in range(30):
        assert page.wait_my_turn_or_end(timeout=60) == "running"
        assert_words_not_ids(page)
        units = api(page, f"/games/{gid}/view")["state"].get("units", {})
        named = []
        for b in buttons(page):
            command = json.loads(b.get_attribute("data-command"))
            named += [
                (command, units[v]["area"]) for v in command.values() if isinstance(v, str) and v in units
            ]
        if named:
            break
        page.play_one(rnd)
    assert named, "no command named a unit"
    command, area = rnd.choice(named)
    province = page.css(f'#board-svg [data-province="{area}"]')
    page.js("arguments[0].focus()", province)
    province.send_keys("\ue007")  # Enter (Keys.ENTER)
    page.wait(lambda: page.css("#filter-note").is_displayed(), what="the moves of that area")
    shown = buttons(page)
    assert shown and json.dumps(command, separators=(",", ":")) in {
        json.dumps(json.loads(b.get_attribute("data-command")), separators=(",", ":")) for b in shown
    }
    area_name = province.get_attribute("aria-label")
    assert area_name and area_name in page.css("#filter-note").text
    assert not re.search(r"\b[A-Z]{2}_[A-Z]\b", page.css("#filter-note").text), "an area id in the note"
    target = next(b for b in shown if json.loads(b.get_attribute("data-command")) == command)
    before = page.body("version")
    target.click()
    page.wait(lambda: page.settled() and page.body("version") != before, what="the move")
    assert command in causes(page, gid)
    assert not page.all("#board-svg .picked"), "the province stayed chosen after the move"
