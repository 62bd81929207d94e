"""GET /metrics: Prometheus text that moves with the game, and only for
loopback clients or the configured bearer token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tests.conftest import create

from .helpers import scrape, value

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
TOY = "toy-auction"


def cmd_url(g):
    return f"/api/v1/games/{g['id']}/commands"


def test_commands_events_requests_and_games_are_counted(api, host, player, running_game):
    g = running_game
    before = scrape()
    v = g["version"]
    assert (
        api.as_(host)
        .post(cmd_url(g), {"command": {"type": "bid", "amount": 3}, "expected_version": v})
        .status_code
        == 201
    )
    assert api.as_(player).post(cmd_url(g), {"command": {"type": "bid", "amount": 99}}).status_code == 422
    assert api.as_(player).post(cmd_url(g), {"command": {"type": "teleport"}}).status_code == 400
    assert (
        api.as_(player)
        .post(cmd_url(g), {"command": {"type": "bid", "amount": 1}, "expected_version": v})
        .status_code
        == 409
    )
    after = scrape()

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("sengoku_commands_total", ruleset=TOY, outcome="accepted") == 1
    assert moved("sengoku_commands_total", ruleset=TOY, outcome="illegal") == 2
    assert moved("sengoku_commands_total", ruleset=TOY, outcome="conflict") == 1
    assert moved("sengoku_events_appended_total", ruleset=TOY) == 2  # the private bid + its public commitment
    assert moved("sengoku_http_requests_total", view="CommandsView", method="POST", status="201") == 1
    assert moved("sengoku_http_requests_total", view="CommandsView", method="POST", status="422") == 1
    assert moved("sengoku_http_requests_total", view="CommandsView", method="POST", status="409") == 1
    assert (
        moved("sengoku_http_request_duration_seconds_count", view="CommandsView", method="POST", status="201")
        == 1
    )
    assert value(after, "sengoku_games", ruleset=TOY, status="running") == 1
    # start queued "game started" notices on the user stream channel
    assert value(after, "sengoku_notifications_total", channel="stream", outcome="sent") >= 2


def test_games_gauge_follows_status(api, host):
    create(api, host)
    create(api, host)
    assert value(scrape(), "sengoku_games", ruleset=TOY, status="open") == 2


def test_deadline_fired_and_lateness(api, host, player, settings, time_machine):
    import datetime as dt

    from games.services import deadlines

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.DEADLINE_OUTAGE_SECONDS = 10**8
    t0 = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
    time_machine.move_to(t0, tick=False)
    g = create(api, host, time_control={"seconds_per_decision": 60})
    assert api.as_(player).post(f"/api/v1/games/{g['id']}/seats", {}).status_code == 201
    assert api.as_(host).post(f"/api/v1/games/{g['id']}/start").status_code == 200
    before = scrape()
    time_machine.shift(dt.timedelta(seconds=90))  # 30 s late
    assert deadlines.sweep()["fired"] == 2
    after = scrape()
    assert value(after, "sengoku_deadlines_fired_total") - value(before, "sengoku_deadlines_fired_total") == 2
    late = value(after, "sengoku_deadline_lateness_seconds_sum") - value(
        before, "sengoku_deadline_lateness_seconds_sum"
    )
    assert late == pytest.approx(60.0)  # two deadlines, 30 s late each
    le10 = value(after, "sengoku_deadline_lateness_seconds_bucket", le="10.0") - value(
        before, "sengoku_deadline_lateness_seconds_bucket", le="10.0"
    )
    le30 = value(after, "sengoku_deadline_lateness_seconds_bucket", le="30.0") - value(
        before, "sengoku_deadline_lateness_seconds_bucket", le="30.0"
    )
    assert (le10, le30) == (0, 2)


def test_sse_streams_are_counted_while_open(api, host, running_game):
    url = f"/api/v1/games/{running_game['id']}/events?stream=1"
    base = value(scrape(), "sengoku_sse_streams_open")
    r = api.as_(host).get(url)
    assert r.status_code == 200 and r["Content-Type"].startswith("text/event-stream")
    chunks = iter(r.streaming_content)
    assert next(chunks).startswith(b"retry:")
    assert value(scrape(), "sengoku_sse_streams_open") == base + 1
    r.close()
    assert value(scrape(), "sengoku_sse_streams_open") == base


def test_heartbeat_ages(db):
    from django.utils import timezone

    from heartbeats.beat import beat

    s = scrape()
    assert value(s, "sengoku_heartbeat_age_seconds", component="worker") == float("inf")
    beat("worker", "celery@test", timezone.now())
    beat("scheduler", "beat@test", timezone.now())
    s = scrape()
    assert 0 <= value(s, "sengoku_heartbeat_age_seconds", component="worker") < 60
    assert 0 <= value(s, "sengoku_heartbeat_age_seconds", component="scheduler") < 60
    assert ("sengoku_after_commit_queue_depth", frozenset()) in s


def test_after_commit_backlog_counts_lagging_games(api, host, player, running_game):
    from games.models import Game, PbemCursor

    assert value(scrape(), "sengoku_after_commit_queue_depth") == 0
    PbemCursor.objects.filter(game_id=running_game["id"]).update(notified_version=0)
    Game.objects.filter(id=running_game["id"])  # unchanged: only the cursor lags
    assert value(scrape(), "sengoku_after_commit_queue_depth") == 1


# ---- who may scrape ------------------------------------------------------------------------


def test_refused_from_a_non_loopback_address_without_token(db, settings):
    settings.METRICS_TOKEN = "s3cret-metrics-token-0123"
    far = {"REMOTE_ADDR": "203.0.113.7"}
    r = Client().get("/metrics", **far)
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    assert b"sengoku_" not in r.content
    assert (
        Client().get("/metrics", HTTP_AUTHORIZATION="Bearer wrong-token-wrong-token", **far).status_code
        == 403
    )
    assert (
        Client().get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-metrics-token-0123", **far).status_code
        == 200
    )
    assert Client().get("/metrics").status_code == 200  # the test client is 127.0.0.1


def test_no_token_configured_means_loopback_only(db, settings):
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics", REMOTE_ADDR="10.0.0.5", HTTP_AUTHORIZATION="Bearer ").status_code == 403
    assert Client().get("/metrics", REMOTE_ADDR="::1").status_code == 200


def test_a_loopback_proxy_does_not_make_remote_clients_local(db, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    r = Client().get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.9")
    assert r.status_code == 403
    # ...and an untrusted peer cannot pretend to be local with the header
    settings.TRUSTED_PROXIES = []
    r = Client().get("/metrics", REMOTE_ADDR="198.51.100.9", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert r.status_code == 403


# ---- several processes ---------------------------------------------------------------------

_INC = "from telemetry import metrics; metrics.commands.labels('toy-auction', 'accepted').inc({n})"
_RENDER = "from telemetry import metrics; print(metrics.render()[0].decode())"


def test_counts_from_several_processes_add_up(tmp_path):
    """PROMETHEUS_MULTIPROC_DIR (gunicorn workers, Celery processes): one scrape sums them."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    for n in (2, 3):
        subprocess.run([sys.executable, "-c", _INC.format(n=n)], env=env, cwd=ROOT, check=True, timeout=60)
    out = subprocess.run(
        [sys.executable, "-c", _RENDER],
        env=env,
        cwd=ROOT,
        check=True,
        timeout=60,
        capture_output=True,
        text=True,
    ).stdout
    assert 'sengoku_commands_total{outcome="accepted",ruleset="toy-auction"} 5.0' in out


# ---- under ASGI (the async middleware path) ------------------------------------------------


def test_asgi_requests_are_counted_and_get_a_request_id(db):
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    before = value(scrape(), "sengoku_http_requests_total", view="metrics", method="GET", status="403")
    far = {
        "method": "GET",
        "path": "/metrics",
        "query_string": "",
        "headers": [(b"host", b"testserver")],
        "client": ["203.0.113.9", 50000],
    }  # the ASGI scope's peer address
    r = async_to_sync(AsyncClient().request)(**far)
    assert r.status_code == 403 and len(r["X-Request-ID"]) == 32
    # ?probe=live: the full /health is 503 here (no worker or beat heartbeats in a test)
    r = async_to_sync(AsyncClient().get)("/api/v1/health", {"probe": "live"})
    assert r.status_code == 200 and len(r["X-Request-ID"]) == 32
    after = scrape()
    assert (
        value(after, "sengoku_http_requests_total", view="metrics", method="GET", status="403") == before + 1
    )
    assert value(after, "sengoku_http_requests_total", view="HealthView", method="GET", status="200") >= 1
