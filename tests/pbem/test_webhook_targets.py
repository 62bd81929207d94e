"""SSRF guard of webhooks (issue 10 item 5): URLs on loopback, link-local and
private addresses (IPv4 and IPv6) are refused with a 400 when saved unless a
setting allows them, and delivery resolves the host once, checks that address
and connects to it (a second DNS answer — rebinding — is never used)."""

from __future__ import annotations

import socket

import pytest

from games.models import Notification
from games.pbem import webhooks

from .conftest import start_game

pytestmark = pytest.mark.django_db(transaction=True)
ME = "/api/v1/accounts/me"


@pytest.fixture
def strict(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    return settings


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[fe80::1]/hook",
        "http://10.0.0.5/hook",
        "http://172.16.3.4/hook",
        "https://192.168.1.1/hook",
        "http://100.64.0.1/hook",
        "http://[fc00::1]/hook",
        "http://[fd12:3456::1]/hook",
        "http://[::ffff:10.0.0.1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
    ],
)
def test_internal_webhook_urls_are_refused_with_400(api, host, strict, url):
    r = api.as_(host).patch(ME, {"webhook_url": url})
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["code"] == "webhook_refused" and "webhook_url" in body["fields"]
    assert api.as_(host).get(ME).json()["webhook_url"] == ""  # nothing saved


def test_a_name_resolving_inside_is_refused(api, host, strict, monkeypatch):
    real = socket.getaddrinfo

    def fake(name, *a, **k):
        if name == "hooks.example":
            return [
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 80)),
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", 80)),
            ]
        return real(name, *a, **k)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    r = api.as_(host).patch(ME, {"webhook_url": "http://hooks.example/hook"})
    assert r.status_code == 400 and r.json()["code"] == "webhook_refused"


def test_public_addresses_are_accepted(api, host, strict):
    r = api.as_(host).patch(ME, {"webhook_url": "https://93.184.216.34/hook"})
    assert r.status_code == 200 and r.json()["webhook_url"] == "https://93.184.216.34/hook"


def test_settings_open_loopback_only_or_every_private_range(api, host, strict):
    strict.WEBHOOK_ALLOW_LOOPBACK = True
    assert api.as_(host).patch(ME, {"webhook_url": "http://127.0.0.1:9/hook"}).status_code == 200
    assert api.as_(host).patch(ME, {"webhook_url": "http://10.0.0.5/hook"}).status_code == 400
    assert api.as_(host).patch(ME, {"webhook_url": "http://169.254.169.254/"}).status_code == 400
    strict.WEBHOOK_ALLOW_PRIVATE = True
    assert api.as_(host).patch(ME, {"webhook_url": "http://10.0.0.5/hook"}).status_code == 200


def test_the_embedded_default_allows_loopback_and_production_does_not():
    import subprocess
    import sys

    code = "from django.conf import settings as s; print(s.WEBHOOK_ALLOW_LOOPBACK, s.WEBHOOK_ALLOW_PRIVATE)"
    env = {"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"}

    def run(extra):
        out = subprocess.run(
            [sys.executable, "-c", "import django; django.setup(); " + code],
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.split()

    assert run({}) == ["True", "False"]
    assert run({"SENGOKU_PRODUCTION": "true", "SECRET_KEY": "k" * 40}) == ["False", "False"]


def test_delivery_connects_to_the_address_it_checked(
    api, clock, host, player, receiver, settings, monkeypatch
):
    """DNS rebinding: the name answers 127.0.0.1 (allowed here) when checked, then
    an unroutable address. Delivery must use the checked answer, with the
    original Host header."""
    settings.WEBHOOK_ALLOW_PRIVATE = False
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    hook = receiver()
    port = hook.server.server_address[1]
    answers = {"n": 0}
    real = socket.getaddrinfo

    def fake(name, *a, **k):
        if name == "hooks.example":
            answers["n"] += 1
            ip = "127.0.0.1" if answers["n"] % 2 else "10.255.255.1"
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))]
        return real(name, *a, **k)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    url = f"http://hooks.example:{port}/hook"
    assert api.as_(player).patch(ME, {"webhook_url": url, "webhook_secret": "s3cret"}).status_code == 200
    answers["n"] = 0
    result = webhooks.post(url, "s3cret", {"kind": "test"}, 1, {})
    assert result.ok, result
    assert answers["n"] == 1  # resolved once
    assert hook.requests[-1]["headers"]["Host"] == f"hooks.example:{port}"


def test_delivery_refuses_a_name_that_now_points_inside(
    api, clock, host, player, receiver, settings, monkeypatch
):
    """Saved while the name pointed outside; at delivery it points at loopback: refused, nothing sent."""
    settings.WEBHOOK_ALLOW_PRIVATE = False
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    hook = receiver()
    port = hook.server.server_address[1]
    state = {"ip": "93.184.216.34"}
    real = socket.getaddrinfo

    def fake(name, *a, **k):
        if name == "hooks.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (state["ip"], port))]
        return real(name, *a, **k)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    assert api.as_(player).patch(ME, {"webhook_url": f"http://hooks.example:{port}/hook"}).status_code == 200
    state["ip"] = "127.0.0.1"
    start_game(api, host, [player])
    assert hook.requests == []
    rows = Notification.objects.filter(user_id=player.id, channel="webhook")
    assert rows and {n.status for n in rows} == {"failed"}
    assert all("loopback" in d.error for n in rows for d in n.deliveries.all())


def test_the_compose_environment_allows_no_internal_webhook_target():
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[2] / ".env.example").read_text().splitlines()
    active = dict(line.split("=", 1) for line in lines if line and not line.startswith("#") and "=" in line)
    # compose = the active values, overridden by the `# KEY=value   # compose` lines (the image sets those)
    compose = {
        **active,
        **dict(
            line[2:].split("#", 1)[0].strip().split("=", 1)
            for line in lines
            if line.startswith("# ") and line.rstrip().endswith("# compose") and "=" in line
        ),
    }
    assert compose["SENGOKU_PRODUCTION"] == "true"
    assert compose["WEBHOOK_ALLOW_LOOPBACK"] == "false" and compose["WEBHOOK_ALLOW_PRIVATE"] == "false"
