"""Accessibility measured (issue 33): axe-core, the test-only npm dependency
(package.json, `npm ci` in scripts/test.sh), injected through the WebDriver into
every page - the lobby signed out and in, sign in, sign up, settings, a running
and a finished game, its replay and audit, the API docs - fails on any serious
or critical violation. Skipped, saying why, without Chromium or node_modules."""

from __future__ import annotations

import random

import pytest

from . import browser
from .test_browser import finished_game, server  # noqa: F401 - the shared fixtures

AXE = browser.ROOT / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or ""),
    pytest.mark.skipif(not AXE.exists(), reason="node_modules/axe-core missing (npm ci)"),
    pytest.mark.xdist_group("browser"),
]


@pytest.fixture
def page(server):  # noqa: F811 - the server fixture shared with test_browser.py
    d = browser.chrome()
    p = browser.Page(d, f"http://127.0.0.1:{server.port}")
    try:
        yield p
        p.assert_no_csp_violation()
    finally:
        d.quit()


def serious_violations(page: browser.Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now: the
    script goes in through the WebDriver, which the page's policy does not govern."""
    page.js(AXE.read_text())
    found = page.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))))"
        ".catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in found if v["impact"] in SERIOUS
    ]


def check(page: browser.Page, name: str, report: dict[str, list[str]]) -> None:
    report[name] = serious_violations(page)


def test_every_page_has_no_serious_accessibility_violation(page, finished_game):  # noqa: F811
    gid, _who, version = finished_game
    report: dict[str, list[str]] = {}
    page.go("/")
    check(page, "lobby (signed out)", report)
    page.go("/accounts/signin")
    check(page, "sign in", report)
    page.go("/accounts/signup")
    check(page, "sign up", report)
    page.go("/api/v1/docs")
    page.wait(lambda: page.all(".swagger-ui .info"), what="the API docs")
    check(page, "api docs", report)
    page.go(f"/games/{gid}/replay?version={version // 2}")
    page.wait(lambda: page.all("#board-svg svg, svg"), what="the replay's board")
    check(page, "replay", report)
    page.go(f"/games/{gid}/audit")
    check(page, "audit", report)
    page.sign_up("axel")
    check(page, "lobby (signed in)", report)
    page.go("/accounts/settings")
    check(page, "settings", report)
    page.go(f"/games/{gid}")
    page.wait(lambda: page.settled() and page.body("status") == "finished", what="the finished game")
    check(page, "game finished (watcher)", report)
    page.create_game("rising-sun", players=3, bots=2)
    page.wait_my_turn_or_end()
    check(page, "game running (my turn)", report)
    page.play_one(random.Random(2))
    page.wait_my_turn_or_end()
    check(page, "game running (after a move)", report)
    bad = {name: found for name, found in report.items() if found}
    assert not bad, "serious accessibility violations:\n" + "\n".join(
        f"- {name}: {v}" for name, found in bad.items() for v in found
    )
