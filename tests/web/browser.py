"""Headless Chromium from Debian's packages driven by Selenium, and the moves a
player makes on the game page: what tests/web/test_browser.py needs."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "var" / "screenshots"
PASSWORD = "a-l0ng-passphrase!"
# What Chromium writes to the console when the Content-Security-Policy refuses something
# (an inline script or style, eval, a handler attribute, a source not allowed).
CSP_MARKERS = ("Content Security Policy", "Refused to")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for name in ("chromium", "chromedriver"):
        if shutil.which(name) is None:
            return f"{name} is not installed (scripts/browser.sh install: apt-get chromium chromium-driver)"
    return None


def chrome() -> webdriver.Chrome:
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for arg in (
        "--headless=new",
        "--no-sandbox",  # root in CI containers
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,1000",
        "--lang=en",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(options=opts, service=Service(shutil.which("chromedriver")))
    d.set_script_timeout(30)
    return d


class Page:
    """One browser, signed in as one person, on a server at `base`."""

    def __init__(self, driver: webdriver.Chrome, base: str):
        self.d, self.base = driver, base
        self.logs: list[dict] = []  # every console entry so far (reading the browser's log empties it)
        self.forms_played = 0  # moves made through a command template's form
        self.provinces_clicked = 0  # moves chosen by clicking a province on the board

    def go(self, path: str) -> None:
        self.assert_no_csp_violation()  # the page being left, and any it came through
        self.d.get(self.base + path)
        self.assert_no_csp_violation()

    def css(self, selector: str):
        return self.d.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector: str):
        return self.d.find_elements(By.CSS_SELECTOR, selector)

    def wait(self, predicate, timeout: float = 30, what: str = "the page"):
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.1).until(lambda d: predicate())
        except TimeoutException as exc:
            raise AssertionError(f"timed out waiting for {what}; console: {self.console()}") from exc

    def _read_log(self) -> list[dict]:
        try:
            self.logs += self.d.get_log("browser")
        except WebDriverException:
            pass
        return self.logs

    def console(self) -> list[str]:
        return [e["message"] for e in self._read_log() if e["level"] == "SEVERE"]

    def csp_violations(self) -> list[str]:
        return [e["message"] for e in self._read_log() if any(m in e["message"] for m in CSP_MARKERS)]

    def assert_no_csp_violation(self) -> None:
        """Fails on anything the Content-Security-Policy refused on the pages seen so far."""
        found = self.csp_violations()
        assert not found, f"Content-Security-Policy violations (now at {self.d.current_url}): {found}"

    def shot(self, name: str, strict: bool = True) -> Path:
        """Save a screenshot, after checking every visible control has a name and
        (`strict`) that the policy refused nothing on the way."""
        if strict:
            self.assert_no_csp_violation()
        assert not self.unlabelled(), f"controls without a label on {name}: {self.unlabelled()}"
        self.js("window.scrollTo(0, 0)")  # the page as it opens, not where the last click left it
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.d.save_screenshot(str(path))
        return path

    def unlabelled(self) -> list[str]:
        """Visible form controls and buttons a screen reader could not name."""
        return self.js(
            """return [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
              .filter(e => e.offsetParent !== null)
              .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                           && !(e.tagName === 'BUTTON' && e.textContent.trim()))
              .map(e => e.outerHTML.slice(0, 80));"""
        )

    def body(self, key: str) -> str | None:
        return self.css("body").get_attribute(f"data-{key}")

    def js(self, script: str, *args):
        return self.d.execute_script(script, *args)

    def fetch_text(self, path: str) -> tuple[int, str]:
        """GET from inside the page (its session cookie)."""
        status, text = self.d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0], {credentials: 'same-origin'})"
            ".then(r => r.text().then(t => done([r.status, t]))).catch(e => done([0, String(e)]));",
            path,
        )
        return status, text

    # -- accounts and lobby ------------------------------------------------------------------
    def sign_up(self, username: str) -> None:
        self.go("/accounts/signup")
        self.css("#id_username").send_keys(username)
        self.css("#id_password1").send_keys(PASSWORD)
        self.css("#id_password2").send_keys(PASSWORD)
        self.css("form.card button[type=submit]").click()
        self.wait(lambda: self.d.current_url.rstrip("/") == self.base, what="the lobby after sign-up")

    def create_game(self, ruleset: str, players: int, bots: int) -> str:
        self.go("/")
        Select(self.css("#id_ruleset")).select_by_value(ruleset)
        field = self.css("#id_players")
        field.clear()
        field.send_keys(str(players))
        self.js("arguments[0].dispatchEvent(new Event('change'))", field)
        bots_field = self.css("#id_bots")
        bots_field.clear()
        bots_field.send_keys(str(bots))
        self.css("#create-form button[type=submit]").click()
        self.wait(lambda: "/games/" in self.d.current_url, what="the new game's page")
        return self.d.current_url.rstrip("/").rsplit("/", 1)[1]

    # -- the game page -------------------------------------------------------------------------
    def settled(self) -> bool:
        return self.body("version") is not None and self.body("busy") is None

    def wait_my_turn_or_end(self, timeout: float = 30) -> str:
        self.wait(
            lambda: self.settled() and (self.body("turn") == "me" or self.body("status") != "running"),
            timeout,
            what="my turn or the end of the game",
        )
        return self.body("status")

    def play_one(self, rnd: random.Random) -> None:
        """Make one move by clicking: a province on the board when the board and a
        command name one, else a command button, else a template's form as filled.
        A live update may redraw the buttons under the pointer: then look again."""
        for _ in range(5):
            try:
                return self._play_one(rnd)
            except StaleElementReferenceException:
                self.wait(self.settled, what="the page to settle")
        raise AssertionError("the commands kept changing under the pointer")

    def _play_one(self, rnd: random.Random) -> None:
        before = self.body("version")
        buttons = [b for b in self.all("#commands button[data-command]") if b.is_displayed()]
        if buttons:
            self._click_command(buttons, rnd)
        else:
            forms = self.all("#commands form[data-template]")
            assert forms, f"my turn but nothing to click; console: {self.console()}"
            example = forms[0].find_elements(By.CSS_SELECTOR, "button.example")
            if example:  # a legal example, as a person would start from one
                example[0].click()
            forms[0].find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            self.forms_played += 1
        self.wait(
            lambda: self.settled() and (self.body("version") != before or self._error()),
            what="the move to be applied",
        )
        err = self._error()
        assert not err or self.body("version") != before, f"the move was refused: {err}"

    def _click_command(self, buttons, rnd: random.Random) -> None:
        provinces = {p.get_attribute("data-province") for p in self.all("#board-svg [data-province]")}
        named = []
        for b in buttons:
            values = _values(json.loads(b.get_attribute("data-command")))
            named += [(b, p) for p in values & provinces]
        if named:
            button, province = rnd.choice(named)
            target = self.css(f'#board-svg [data-province="{province}"]')
            try:
                target.click()  # a real click at the province's centre
                hit = "picked" in (target.get_attribute("class") or "")
            except (ElementClickInterceptedException, ElementNotInteractableException):
                hit = False
            if not hit:  # the centre of a curved province lies outside it: click its own shape
                self.js("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
            self.provinces_clicked += 1
            shown = [b for b in self.all("#commands button[data-command]") if b.is_displayed()]
            # a command names the province itself, or a unit standing in it (Imjin's "u3")
            areas = self._unit_areas()
            off = [
                b.get_attribute("data-command")
                for b in shown
                if province not in _provinces(json.loads(b.get_attribute("data-command")), areas)
            ]
            assert shown and not off, f"{province} chosen, but these shown moves do not involve it: {off}"
            rnd.choice(shown).click()
            return
        rnd.choice(buttons).click()

    def _unit_areas(self) -> dict[str, str]:
        """The view's units (Imjin's) and the area each stands in, as the page reads them."""
        status, text = self.fetch_text("/api/v1" + self.js("return location.pathname").rstrip("/") + "/view")
        assert status == 200, text
        units = (json.loads(text).get("state") or {}).get("units") or {}
        return {uid: u["area"] for uid, u in units.items() if isinstance(u, dict) and u.get("area")}

    def _error(self) -> str:
        box = self.css("#cmd-error")
        return box.text if box.is_displayed() else ""


def _values(obj) -> set[str]:
    out: set[str] = set()
    items = obj.values() if isinstance(obj, dict) else obj
    for v in items:
        if isinstance(v, (dict, list)):
            out |= _values(v)
        else:
            out.add(str(v))
    return out


def _provinces(command: dict, areas: dict[str, str]) -> set[str]:
    """What a command involves on the board, as the page says (moves.js provincesOf): its
    values, the area of each unit it names, the province of a "seat:province" pair."""
    values = _values(command)
    pairs = {m.group(1) for v in values if (m := re.match(r"^\d+:(.+)$", v))}
    return values | pairs | {areas[v] for v in values if v in areas}
