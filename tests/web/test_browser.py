"""The web client in a real browser: headless Chromium (Debian's package) driven
by Selenium against the ASGI server as deployed (gunicorn + uvicorn worker), bots
playing inline. Screenshots of every page land in var/screenshots/.

Skipped, saying why, only when chromium/chromedriver are not installed and
could not be (scripts/browser.sh install runs before the test passes)."""

from __future__ import annotations

import json
import random

import pytest
from selenium.webdriver.support.ui import Select

from tests.support import servers

from . import browser

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.xdist_group("browser"),  # one server and browsers at a time on a small machine
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = servers.server_env(
        tmp_path_factory.mktemp("web"),
        HOOKS_INLINE="1",
        BOTS_INLINE="1",
        BOT_MOVE_SECONDS="0",
        REDIS_URL="",
        CELERY_BROKER_URL="memory://",
        SSE_KEEPALIVE_SECONDS="2",
    )
    env.pop("DATABASE_URL", None)  # its own SQLite file on both passes
    servers.migrate(env)
    s = servers.Server(env, workers=1)
    yield s
    s.stop()


@pytest.fixture
def page(server):
    d = browser.chrome()
    p = browser.Page(d, f"http://127.0.0.1:{server.port}")
    try:
        yield p
        # whatever the test did last (clicks, live updates, form posts) ran under the policy too
        p.assert_no_csp_violation()
    finally:
        d.quit()


def play(page: browser.Page, rnd: random.Random, moves: int | None) -> int:
    """Click moves until `moves` were made or the game ended; returns how many."""
    made = 0
    while moves is None or made < moves:
        if page.wait_my_turn_or_end(timeout=60) != "running":
            break
        page.play_one(rnd)
        made += 1
    return made


# The whole Rising Sun game, clicked to its end, is played in Japanese with a real
# war bid and a gift: tests/web/test_browser_moves.py.


@pytest.mark.parametrize("ruleset,players,moves", [("shogun", 3, 10), ("imjin", 2, 6)])
def test_a_few_turns_of_each_ruleset(page, ruleset, players, moves):
    """Shogun's first ten moves reach its first plan: a form of fourteen choices."""
    page.sign_up(f"p-{ruleset}")
    page.create_game(ruleset, players=players, bots=players - 1)
    made = play(page, random.Random(3), moves)
    assert made == moves or page.body("status") == "finished"
    if ruleset == "shogun":
        assert page.forms_played >= 1, "no plan was made through its form"
    page.shot(f"game-{ruleset}")


def test_a_move_at_another_seat_shows_up_without_reloading(page, server):
    page.sign_up("aiko")
    gid = page.create_game("rising-sun", players=3, bots=1)  # one seat left for a second person
    assert page.body("status") == "open" or page.wait(lambda: page.body("status") == "open")
    other = servers.register(server.port, "kenji")
    st, body, _ = servers.request(server.port, "POST", f"/games/{gid}/seats", other["token"], {})
    assert st == 201, body
    page.wait(lambda: page.css("#start").is_displayed(), what="the start button once every seat is taken")
    page.js("window.__sameDocument = true")
    page.css("#start").click()
    page.wait(lambda: page.body("status") == "running", what="the game to start on the page")
    # whoever must act at the other seat acts through the API; this page hears it live
    for _ in range(20):
        st, legal, _ = servers.request(server.port, "GET", f"/games/{gid}/legal-commands", other["token"])
        if legal["pending"]:
            break
        if page.body("turn") == "me" and page.settled():
            page.play_one(random.Random(1))
        page.wait(lambda: page.settled(), what="the page to settle")
    assert legal["pending"], "the other seat never had to act"
    before = page.body("version")
    lines = len(page.all("#log li"))
    cmd = legal["commands"][0] if legal["commands"] else legal["samples"][0]
    st, res, _ = servers.request(
        server.port,
        "POST",
        f"/games/{gid}/commands",
        other["token"],
        {"command": cmd, "expected_version": legal["version"]},
    )
    assert st == 201, res
    # the stream wakes the page: it reads the new version (the log gains the
    # move's public lines; a move that is secret to the others adds none)
    page.wait(lambda: page.body("version") != before, what="the live update")
    assert len(page.all("#log li")) >= lines
    assert page.js("return window.__sameDocument === true"), "the page reloaded"
    page.shot("live-update")
    # press: a message from the other seat arrives live too
    st, _, _ = servers.request(
        server.port, "POST", f"/games/{gid}/messages", other["token"], {"text": "Greetings, Koi."}
    )
    assert st == 201
    page.wait(lambda: "Greetings, Koi." in page.css("#press").text, what="the message")
    page.css("#press-text").send_keys("And to you.")
    page.css("#press-form button[type=submit]").click()
    page.wait(lambda: "And to you." in page.css("#press").text, what="my own message")
    # on a phone: one column, nothing wider than the screen
    page.d.set_window_size(390, 844)
    page.wait(
        lambda: page.js("return document.documentElement.scrollWidth <= window.innerWidth"),
        what="no sideways scrolling",
    )
    page.shot("game-phone")


@pytest.fixture(scope="module")
def finished_game(server):
    """A finished public Rising Sun game, its seat 0 played by a signed-up person
    through the API (the browser test above plays one by clicking)."""
    who = servers.register(server.port, "mika")
    st, g, _ = servers.request(
        server.port, "POST", "/games", who["token"], {"ruleset": "rising-sun", "players": 3}
    )
    assert st == 201, g
    for _ in range(2):
        servers.request(server.port, "POST", f"/games/{g['id']}/seats", who["token"], {"bot": "random"})
    st, _, _ = servers.request(server.port, "POST", f"/games/{g['id']}/start", who["token"])
    rnd = random.Random(5)
    for _ in range(500):
        st, legal, _ = servers.request(server.port, "GET", f"/games/{g['id']}/legal-commands", who["token"])
        st, meta, _ = servers.request(server.port, "GET", f"/games/{g['id']}", who["token"])
        if meta["status"] != "running":
            break
        if not legal["pending"]:
            continue
        cmd = rnd.choice(legal["commands"] or legal["samples"])
        servers.request(
            server.port,
            "POST",
            f"/games/{g['id']}/commands",
            who["token"],
            {"command": cmd, "expected_version": legal["version"]},
        )
    assert meta["status"] == "finished"
    return g["id"], who, meta["version"]


def test_replay_a_finished_game_to_a_version_without_signing_in(page, finished_game):
    gid, _, last = finished_game
    page.go(f"/games/{gid}/replay")
    page.wait(lambda: page.body("loaded") == str(last), what="the last version")
    steps = json.loads(page.css("#boot").get_attribute("textContent"))[
        "steps"
    ]  # [from, to, turn] per command
    target = len(steps) - 4
    body = page.css("body")
    for _ in range(3):
        body.send_keys("\ue012")  # ← (Keys.ARROW_LEFT): one step (one command) back
    version = steps[target][1]
    page.wait(lambda: page.body("loaded") == str(version), what=f"step {target}")
    current = page.css("#log li.current")
    assert current.get_attribute("data-step") == str(target)
    st, text = page.fetch_text(f"/games/{gid}/replay/{version}.json")
    assert st == 200 and json.loads(page.css("#view-json").get_attribute("textContent")) == json.loads(text)
    page.css("#next").click()
    page.wait(lambda: page.body("loaded") == str(steps[target + 1][1]), what="the next step")
    if page.fetch_text(f"/games/{gid}/board/{steps[target + 1][1]}.svg")[0] == 200:
        assert page.css("#board").is_displayed(), "no board for a visitor without an account"
    page.shot("replay")


def test_replayed_board_is_the_board_at_that_version(page, finished_game, server):
    gid, who, last = finished_game
    st, _, _ = servers.request(server.port, "GET", f"/games/{gid}/board.svg?version=1", who["token"])
    if st == 404:
        pytest.skip("GET /games/{id}/board.svg is not on this server yet (the board issue)")
    page.sign_up("board-watcher")
    page.go(f"/games/{gid}/replay?version={last // 2}")
    steps = json.loads(page.css("#boot").get_attribute("textContent"))["steps"]
    target = next(to for frm, to, _ in steps if frm <= last // 2 <= to)  # the step holding that version
    page.wait(lambda: page.body("loaded") == str(target), what=f"version {target}")
    same = page.d.execute_async_script(
        """const [gid, v, done] = arguments;
        fetch(`/api/v1/games/${gid}/board.svg?version=${v}`, {credentials: 'same-origin'}).then(r => r.text()).then(t => {
          const want = new DOMParser().parseFromString(t, 'image/svg+xml').documentElement;
          const got = document.querySelector('#board-svg svg');
          const ids = (n) => [...n.querySelectorAll('[data-province]')].map(p => p.outerHTML.replace(/ xmlns="[^"]*"/g, '')).join('');
          done(got !== null && ids(got) === ids(want) && ids(want).length > 0);
        });""",
        gid,
        target,
    )
    assert same, "the replayed board differs from /board.svg?version=N"


def test_audit_page(page, finished_game, server):
    gid, who, last = finished_game
    page.go(f"/games/{gid}/audit")
    assert "passed" in page.css("#verdict").text
    st, report, _ = servers.request(server.port, "GET", f"/games/{gid}/audit", who["token"])
    assert page.css("#chain-head").text == report["chain_head"]
    assert page.css("#seed").text == report["seed"]
    assert "python -m games.verify" in page.css("#verify-cmd").text
    st, text = page.fetch_text(page.css("#export").get_attribute("href"))
    assert st == 200 and len(text.splitlines()) == last
    page.shot("audit")


def test_settings_and_email_link_sign_in_first(page, finished_game):
    gid, _, _ = finished_game
    page.go(f"/games/{gid}")  # what a notification email links to
    assert "/accounts/signin" in page.d.current_url
    page.go("/accounts/signup?next=/accounts/settings")
    page.css("#id_username").send_keys("sora")
    page.css("#id_password1").send_keys(browser.PASSWORD)
    page.css("#id_password2").send_keys(browser.PASSWORD)
    page.css("form.card button[type=submit]").click()
    # the URL changes when the navigation commits, before the new page's DOM exists:
    # wait for the form too (under load the bare URL check raced the find)
    page.wait(
        lambda: "/accounts/settings" in page.d.current_url and page.all("#email"), what="the settings page"
    )
    page.css("#email").send_keys("sora@example.org")
    languages = page.all("#language")
    if languages:  # the catalogue's six languages
        Select(languages[0]).select_by_value("ja")
        page.css("#settings-form button[type=submit]").click()
        page.wait(
            lambda: "saved=1" in page.d.current_url and page.all("#language"),
            what="the page redrawn in its new language",
        )
        assert page.css("#language").get_attribute("value") == "ja"
    else:
        page.css("#settings-form button[type=submit]").click()
        page.wait(lambda: page.css("#settings-status").text == "Saved.", what="saved")
    st, me = page.fetch_text("/api/v1/accounts/me")
    assert json.loads(me)["email"] == "sora@example.org"
    if languages:
        assert json.loads(me)["language"] == "ja"
    page.shot("settings")


def test_a_policy_violation_fails_the_page_check(page):
    """The check the other tests rely on sees a refusal: an inline script that an
    injection would add is refused by the policy and reported."""
    page.go("/accounts/signin")
    header = page.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(location.href).then(r => done(r.headers.get('content-security-policy')));"
    )
    assert "script-src 'self'" in header
    page.js(
        "const s = document.createElement('script'); s.textContent = 'window.__ran = true';"
        "document.body.appendChild(s);"
        "const d = document.createElement('div'); d.setAttribute('onclick', 'window.__ran = true');"
        "document.body.appendChild(d); d.click();"
    )
    assert page.js("return window.__ran === undefined"), "an inline script ran: no policy?"
    page.wait(lambda: page.csp_violations(), what="the browser to report the refusal")
    with pytest.raises(AssertionError, match="Content-Security-Policy violations"):
        page.assert_no_csp_violation()
    page.logs.clear()  # seen and expected: the fixture's own check must not fail on it


def test_api_docs_and_admin_work_under_the_policy(page):
    """Swagger UI starts from its static script and lists the operations; the
    admin's login page renders; the policy refuses nothing on either."""
    page.go("/api/v1/docs")
    page.wait(lambda: page.all(".swagger-ui .opblock"), what="Swagger UI's operations")
    assert page.css(".swagger-ui .info .title").text.startswith("Sengoku API")
    page.all(".swagger-ui .opblock-summary")[0].click()  # expanding one runs more of its script
    page.wait(lambda: page.all(".swagger-ui .opblock-body"), what="an operation's details")
    page.go("/admin/login/")
    assert page.css("#id_username") and page.css("input[type=submit]")
    page.assert_no_csp_violation()
