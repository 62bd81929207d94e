"""Structured logs: JSON lines with timestamp, level, logger, event, a request
id (echoed as X-Request-ID, taken from a trusted proxy only), the game, seat
and command type of commands; and never a token, password, salt or seed."""

from __future__ import annotations

import io
import json
import logging

import pytest

from events.models import StoredEvent
from telemetry.logs import formatter, redact
from tests.conftest import register

from .helpers import play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def logs():
    """Every log line of the test, rendered by the production JSON formatter, DEBUG and up."""
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    handler.setFormatter(formatter("json"))
    root = logging.getLogger()
    old = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield buf
    finally:
        root.removeHandler(handler)
        root.setLevel(old)


def lines(buf) -> list[dict]:
    out = []
    for raw in buf.getvalue().splitlines():
        out.append(json.loads(raw))  # every line is one JSON object
    return out


def test_a_full_game_logs_no_secret(api, logs, settings):
    settings.PBEM_INLINE = True  # deliveries (email) run here, so their logging is captured too
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice, bob = register("alice"), register("bob")
    # a webhook that cannot be reached: its failed deliveries are logged, its secret must not be
    hook_secret = "whsec-" + "q7" * 20
    assert (
        api.as_(alice)
        .patch(
            "/api/v1/accounts/me", {"webhook_url": "http://127.0.0.1:9/hook", "webhook_secret": hook_secret}
        )
        .status_code
        == 200
    )
    g = api.as_(alice).post("/api/v1/games", {"ruleset": "toy-auction", "players": 2}).json()
    assert api.as_(bob).post(f"/api/v1/games/{g['id']}/seats", {}).status_code == 201
    assert api.as_(alice).post(f"/api/v1/games/{g['id']}/start").status_code == 200
    # one refused command too: its reason is logged, not its content
    assert (
        api.as_(bob)
        .post(f"/api/v1/games/{g['id']}/commands", {"command": {"type": "bid", "amount": 999}})
        .status_code
        == 422
    )
    # a login: the password travels in a request body
    assert api.post(
        "/api/v1/accounts/token", {"username": "alice", "password": alice.password}
    ).status_code in (200, 201)
    assert play_to_the_end(api, {"alice": alice, "bob": bob}, g["id"]) > 0
    from accounts.models import Profile

    bob_unsub = Profile.objects.get(user__username="bob").unsubscribe_token
    assert api.get(f"/api/v1/accounts/unsubscribe?token={bob_unsub}").status_code == 200
    assert api.get("/api/v1/accounts/unsubscribe?token=NoSuchToken0123").status_code == 404

    text = logs.getvalue()
    records = lines(logs)
    assert len(records) > 20
    salts = {e.payload["salt"] for e in StoredEvent.objects.filter(stream=g["id"]) if "salt" in e.payload}
    seed = StoredEvent.objects.get(stream=g["id"], type="core.SeedRevealed").payload["seed"]
    secrets = {
        "token " + alice.name: alice.token,
        "token " + bob.name: bob.token,
        "password": alice.password,
        "seed": seed,
        "webhook secret": hook_secret,
        "unknown unsubscribe token": "NoSuchToken0123",
        **{f"salt {i}": s for i, s in enumerate(sorted(salts))},
    }
    assert len(salts) >= 6  # 3 rounds x 2 seats: the test looked at real secrets
    from games.models import WebhookDelivery

    assert WebhookDelivery.objects.filter(ok=False).exists()  # the failing webhook was really tried
    for p in Profile.objects.all():
        secrets[f"unsubscribe {p.user_id}"] = p.unsubscribe_token
    leaked = [name for name, s in secrets.items() if s and s in text]
    assert not leaked, f"secrets in the logs: {leaked}"

    for r in records:
        assert {"timestamp", "level", "logger", "event"} <= set(r), r
    requests = [r for r in records if r["event"] == "request"]
    assert requests and all(len(r["request_id"]) >= 16 for r in requests)
    accepted = [r for r in records if r["event"] == "command accepted"]
    assert accepted and all(
        r["game_id"] == g["id"] and isinstance(r["seat"], int) and r["command_type"] for r in accepted
    )
    illegal = [r for r in records if r["event"] == "command illegal"]
    assert illegal and illegal[0]["code"] == "illegal_command" and illegal[0]["command_type"] == "bid"
    # the lines logged inside a request carry that request's id
    cmd_req = next(r for r in requests if r["path"].endswith("/commands") and r["status"] == 201)
    assert any(r["event"] == "command accepted" and r["request_id"] == cmd_req["request_id"] for r in records)


def test_request_id_is_returned_and_only_trusted_from_a_proxy(api, logs, settings):
    r = api.get("/api/v1/health", HTTP_X_REQUEST_ID="client-chosen-id")
    assert r["X-Request-ID"] != "client-chosen-id" and len(r["X-Request-ID"]) == 32
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]
    r = api.get("/api/v1/health", HTTP_X_REQUEST_ID="proxy-id-123")
    assert r["X-Request-ID"] == "proxy-id-123"
    r = api.get("/api/v1/health", HTTP_X_REQUEST_ID="bad id\nwith newline")
    assert r["X-Request-ID"] != "bad id\nwith newline"
    assert any(x.get("request_id") == "proxy-id-123" and x["event"] == "request" for x in lines(logs))


def test_redact_blanks_sensitive_keys_and_bearer_tokens():
    out = redact(
        None,
        "info",
        {
            "event": "auth with Bearer abcdef0123456789 ok",
            "password": "pw",
            "nested": {"webhook_secret": "x", "fine": 1},
            "path": "/u?token=abc123&x=1",
        },
    )
    assert out["password"] == "[redacted]" and out["nested"] == {"webhook_secret": "[redacted]", "fine": 1}
    assert "abcdef0123456789" not in out["event"] and out["path"] == "/u?token=[redacted]&x=1"


def test_console_format_for_make_run(capsys):
    handler = logging.StreamHandler(io.StringIO())
    handler.setFormatter(formatter("console"))
    rec = logging.LogRecord("sengoku.x", logging.INFO, __file__, 1, "hello %s", ("world",), None)
    line = handler.format(rec)
    assert "hello world" in line and "[info" in line and "sengoku.x" in line and not line.startswith("{")
