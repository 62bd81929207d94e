"""Issue 31: a Content-Security-Policy (and Referrer-Policy) on every kind of
answer -- web pages, API answers, the admin, the API docs -- strict enough that
an injected script cannot run, and pages that need nothing the policy forbids:
no inline script, inline event handler, `javascript:` URL or inline style."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game
from games.services import background, lobby, play, reading

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "web" / "templates"
STATIC = ROOT / "web" / "static"


def policy(response) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def assert_strict(response) -> None:
    p = policy(response)
    assert p.get("script-src") == ["'self'"], p  # no 'unsafe-inline', no 'unsafe-eval', no hosts
    assert p.get("object-src") == ["'none'"], p
    assert p.get("base-uri") == ["'none'"], p
    assert p.get("frame-ancestors") == ["'none'"], p
    assert p.get("default-src") == ["'self'"], p
    # styles too: every page keeps its style in stylesheets (docs/deployment.md)
    assert "'unsafe-inline'" not in p.get("style-src", []), p
    assert response.get("Referrer-Policy") == "same-origin"


@pytest.fixture
def hana():
    return get_user_model().objects.create_user("hana", "", "a-l0ng-passphrase!")


def signed_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def finished_game(user) -> Game:
    g = lobby.create_game(user, "imjin", 2, {}, None)
    lobby.join(g.id, user, bot="random")
    lobby.start(g.id, user)
    game = Game.objects.get(pk=g.pk)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        legal = reading.legal(game, user)
        if legal["pending"]:
            play.submit(game.id, user, (legal["commands"] or legal["samples"])[0], legal["version"])
        else:
            background.play_bots(game.id)
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.parametrize(
    "path",
    [
        "/",  # a web page
        "/accounts/signin",
        "/api/v1/rulesets",  # an API answer
        "/api/v1/games/00000000-0000-0000-0000-000000000000",  # an API error
        "/api/v1/schema",
        "/api/v1/docs",  # Swagger UI
        "/admin/login/",  # the admin
    ],
)
def test_every_kind_of_answer_carries_a_strict_policy(client, path):
    r = client.get(path)
    assert r.status_code in (200, 401, 404), (path, r.status_code)
    assert_strict(r)


def test_signed_in_pages_and_per_viewer_answers_carry_it_too(hana):
    c = signed_in(hana)
    game = finished_game(hana)
    for path in (
        "/",
        f"/games/{game.id}",
        f"/games/{game.id}/replay",
        f"/games/{game.id}/audit",
        f"/games/{game.id}/replay/3.json",
        "/accounts/settings",
        f"/api/v1/games/{game.id}/view",
        "/admin/",
    ):
        r = c.get(path)
        assert r.status_code in (200, 302), (path, r.status_code)
        assert_strict(r)


class _Inline(HTMLParser):
    """What a strict policy would refuse in a page: inline scripts (a JSON data
    block is not executed, so it is allowed), on* handlers, javascript: URLs,
    style attributes and <style> blocks."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._script: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and not a.get("src") and a.get("type") != "application/json":
            self.found.append(f"inline <script {a}>")
        if tag == "style":
            self.found.append("<style> block")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if name == "style":
                self.found.append(f"<{tag} style={value!r}>")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}={value!r}>")


def inline_parts(html: str) -> list[str]:
    p = _Inline()
    p.feed(html)
    return p.found


def test_rendered_pages_have_nothing_inline(client, hana):
    c = signed_in(hana)
    game = finished_game(hana)
    running = lobby.create_game(hana, "rising-sun", 3, {}, None)
    pages = {
        "/": c,
        "/accounts/signin": client,
        "/accounts/signup": client,
        "/accounts/settings": c,
        f"/games/{running.id}": c,
        f"/games/{game.id}": c,
        f"/games/{game.id}/replay": client,
        f"/games/{game.id}/audit": client,
        "/api/v1/docs": client,
        "/admin/login/": client,
    }
    for path, who in pages.items():
        r = who.get(path)
        assert r.status_code == 200, (path, r.status_code)
        assert not inline_parts(r.content.decode()), (path, inline_parts(r.content.decode()))


def test_templates_have_no_inline_script_handler_or_style():
    """The source, too: a branch of a template no test renders cannot slip one in."""
    problems = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text()
        for m in re.finditer(r"<script\b([^>]*)>", text, re.I):
            attrs = m.group(1)
            if "src=" not in attrs and 'type="application/json"' not in attrs:
                problems.append(f"{path.name}: inline script {m.group(0)}")
        for pattern, what in (
            (r"\son[a-z]+\s*=", "event handler attribute"),
            (r"javascript:", "javascript: URL"),
            (r"\sstyle\s*=", "style attribute"),
            (r"<style\b", "<style> block"),
        ):
            problems += [f"{path.name}: {what} {m.group(0)!r}" for m in re.finditer(pattern, text, re.I)]
    assert not problems, problems


def test_scripts_do_not_evaluate_strings_or_write_inline_style_or_handlers():
    problems = []
    for path in sorted(STATIC.rglob("*.js")):
        text = path.read_text()
        for pattern in (
            r"\beval\s*\(",
            r"new\s+Function\s*\(",
            r"setTimeout\s*\(\s*['\"`]",
            r"setAttribute\(\s*['\"](style|on[a-z]+)['\"]",
            r"\.innerHTML\s*=",
            r"insertAdjacentHTML",
            r"javascript:",
        ):
            problems += [f"{path.name}: {m.group(0)!r}" for m in re.finditer(pattern, text)]
    assert not problems, problems


def test_the_docs_start_from_a_static_script_with_no_secret_in_it(client):
    """Swagger UI's start-up script is a static file (the policy allows no inline
    script) that reads the schema URL from the page; the per-request CSRF token is
    not in it, so another site including it as a script learns nothing."""
    page = client.get("/api/v1/docs")
    html = page.content.decode()
    sources = re.findall(r'<script[^>]*\bsrc="([^"]+)"', html)
    assert len(sources) == 3 and sources[-1].startswith("/static/"), sources
    assert 'data-schema-url="/api/v1/schema"' in html
    init = (STATIC / sources[-1].removeprefix("/static/")).read_text()
    assert "SwaggerUIBundle" in init and "csrf" in init.lower()
    styles = re.findall(r'<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"', html)
    assert any("swagger-ui.css" in s for s in styles) and len(styles) == 2, styles


def _settings_under(env_extra: dict, tmp_path) -> dict:
    """The security settings as a fresh interpreter reads them from this environment."""
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    for name in ("SENGOKU_PRODUCTION", "SENGOKU_TLS", "PUBLIC_BASE_URL", "SECURE_HSTS_SECONDS"):
        env.pop(name, None)
    env.update(DJANGO_SETTINGS_MODULE="config.settings", SENGOKU_VAR_DIR=str(tmp_path), **env_extra)
    names = "SESSION_COOKIE_SECURE CSRF_COOKIE_SECURE SECURE_HSTS_SECONDS SECURE_REFERRER_POLICY"
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({{n: getattr(s, n) for n in {names.split()!r}}}))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr[-800:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "env,secure",
    [
        ({}, False),  # make run: plain HTTP on loopback
        ({"SENGOKU_TLS": "true"}, True),
        ({"PUBLIC_BASE_URL": "https://sengoku.example.org"}, True),
        ({"PUBLIC_BASE_URL": "https://sengoku.example.org", "SENGOKU_TLS": "false"}, False),
    ],
)
def test_secure_cookies_and_hsts_follow_the_tls_setting(env, secure, tmp_path):
    s = _settings_under(env, tmp_path)
    assert s["SESSION_COOKIE_SECURE"] is secure and s["CSRF_COOKIE_SECURE"] is secure
    assert (s["SECURE_HSTS_SECONDS"] > 0) is secure
    assert s["SECURE_REFERRER_POLICY"] == "same-origin"


@pytest.mark.django_db
def test_hsts_is_sent_over_tls(client, settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    r = client.get("/accounts/signin", HTTP_X_FORWARDED_PROTO="https")
    assert r["Strict-Transport-Security"].startswith("max-age=31536000")
    assert "Strict-Transport-Security" not in client.get("/accounts/signin")


def test_the_board_picture_needs_nothing_inline(hana):
    """board.svg is also opened on its own (a link, a new tab): it is drawn with
    presentation attributes, no script, no style block or attribute, no handler."""
    game = finished_game(hana)
    r = signed_in(hana).get(f"/api/v1/games/{game.id}/board.svg")
    assert r.status_code == 200 and r["Content-Type"].startswith("image/svg+xml")
    svg = r.content.decode()
    assert "<svg" in svg and not inline_parts(svg), inline_parts(svg)
    assert_strict(r)
