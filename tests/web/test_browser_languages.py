"""The pages of the web client in its six languages, in headless Chromium with the
Noto CJK fonts (scripts/browser.sh install): a screenshot of each page in each
language (into $SCREENSHOTS_DIR, else a temporary folder; `make screenshots` fills
docs/screenshots), failing on English left on a page in another language
(tests/web/words.py), and a language switch in the settings taking at once, the
script words included (no catalogue kept from the old language)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import Select

from tests.support import servers

from . import browser, words

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.xdist_group("browser"),  # one server and browsers at a time on a small machine
]

LANGUAGES = ("en", "ja", "ko", "zh-Hans", "zh-Hant", "es")
# The API's reference (Swagger UI and the OpenAPI text) is English by design: screenshots only.
ENGLISH_BY_DESIGN = {"api-docs"}
# The create form's ruleset options are drawn by forms.js from each ruleset's options
# schema, whose titles are not in the rules catalogue yet: read without them.
UNREAD = "#options .field"
# The players' names, and the test-only ruleset the test server registers (no translations).
NAMES = {"hana", "kenji", "Toy auction (test only)"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = servers.server_env(
        tmp_path_factory.mktemp("web-languages"),
        HOOKS_INLINE="1",
        BOTS_INLINE="1",
        BOT_MOVE_SECONDS="0",
        REDIS_URL="",
        CELERY_BROKER_URL="memory://",
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
        p.assert_no_csp_violation()
    finally:
        d.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def with_language(path: str, language: str) -> str:
    return path + ("&" if "?" in path else "?") + "lang=" + language


def visit(page: browser.Page, path: str, language: str, shots: Path, name: str) -> list[str]:
    """Open `path` in `language`, save its screenshot, return its words."""
    page.go(with_language(path, language))
    page.wait(lambda: page.js("return document.readyState") == "complete", what=f"{name} to load")
    if name == "api-docs":
        page.wait(lambda: page.all("#swagger-ui .info"), what="Swagger UI to draw the API")
    else:
        expected = language.lower()
        page.wait(lambda: page.css("html").get_attribute("lang") == expected, what=f"{name} in {language}")
        page.wait(lambda: page.js("return typeof gettext === 'function'"), what="the script catalogue")
    page.assert_no_csp_violation()
    assert not page.unlabelled(), f"controls without a label on {name}: {page.unlabelled()}"
    page.js("window.scrollTo(0, 0)")
    page.d.save_screenshot(str(shots / f"{name}-{language}.png"))
    page.js("document.querySelectorAll(arguments[0]).forEach((e) => e.remove())", UNREAD)
    return words.read(page)


def test_every_page_in_six_languages(page, server, shots):
    # an open game from someone else, so the lobby lists one
    kenji = servers.register(server.port, "kenji")
    st, body, _ = servers.request(
        server.port, "POST", "/games", kenji["token"], {"ruleset": "rising-sun", "players": 3}
    )
    assert st == 201, body
    signed_out = {"lobby-signed-out": "/", "signin": "/accounts/signin", "signup": "/accounts/signup"}
    signed_in = {
        "lobby": "/",
        "settings": "/accounts/settings",
        "join": f"/games/{uuid.uuid4()}?invite=an-invitation",
        "api-docs": "/api/v1/docs",
    }
    left: dict[str, list[str]] = {}

    def each_language(pages: dict[str, str]) -> None:
        for name, path in pages.items():
            english = visit(page, path, "en", shots, name)
            assert english, f"no words read on {name}"
            for language in LANGUAGES[1:]:
                found = visit(page, path, language, shots, name)
                english_here = words.english_left(found, english, allow=NAMES)
                if english_here and name not in ENGLISH_BY_DESIGN:
                    left[f"{name} ({language})"] = english_here

    each_language(signed_out)
    page.sign_up("hana")
    page.create_game("rising-sun", players=3, bots=2)  # "my games" lists it, with its turn
    each_language(signed_in)
    assert len(list(shots.glob("*.png"))) >= len(LANGUAGES) * (len(signed_out) + len(signed_in))
    assert not left, f"English left on pages in another language: {left}"


def test_a_language_switch_takes_at_once_script_words_included(page):
    page.sign_up("aiko")
    page.go("/accounts/settings")
    assert page.js("return gettext('Saved.')") == "Saved."
    for language, saved, heading in (("ja", "保存しました。", "設定"), ("ko", "저장했습니다.", "설정")):
        Select(page.css("#language")).select_by_value(language)
        page.css("#settings-form button[type=submit]").click()
        page.wait(
            lambda language=language: (
                "saved=1" in page.d.current_url and page.css("html").get_attribute("lang") == language
            ),
            what=f"the settings page redrawn in {language}",
        )
        page.wait(lambda: page.js("return typeof gettext === 'function'"), what="the script catalogue")
        assert page.css("h1").text == heading
        assert page.css("#settings-status").text == saved
        assert page.js("return gettext('Saved.')") == saved, "the scripts kept the old language's words"
        # the next page, reached by a link, speaks it too
        page.go("/")
        assert page.css("html").get_attribute("lang") == language
        assert page.js("return gettext('The request failed.')") != "The request failed."
        page.go("/accounts/settings")
