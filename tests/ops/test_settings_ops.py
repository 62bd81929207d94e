"""Settings that work where they are copied: `.env.example` as it is runs the
embedded default (`make run`); the compose values (commented `# compose` lines
plus the image's defaults) pass `manage.py check --deploy`. And the monitoring
files (Prometheus, Grafana) fit the metrics we export."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / ".env.example").read_text()


def active_vars() -> dict[str, str]:
    return dict(re.findall(r"^([A-Z][A-Z0-9_]*)=(.*)$", EXAMPLE, re.M))


def compose_vars() -> dict[str, str]:
    """The `# KEY=value   # compose` lines, plus the image's ENV defaults."""
    out = dict(re.findall(r"^#\s*([A-Z][A-Z0-9_]*)=(\S*)\s+# compose\b", EXAMPLE, re.M))
    block = re.search(
        r"^ENV SENGOKU_PRODUCTION=.*?(?=^\S)", (ROOT / "docker" / "Dockerfile").read_text(), re.M | re.S
    ).group(0)
    out.update(re.findall(r"([A-Z][A-Z0-9_]*)=(\S+)", block))
    return out


def _clean_env(tmp_path, extra: dict) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "PROMETHEUS_MULTIPROC_DIR")
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings", PYTHONPATH=str(ROOT), **extra)
    env["SENGOKU_VAR_DIR"] = str(tmp_path)
    return env


def _run(args, env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )


def test_env_example_works_for_make_run_as_it_is(tmp_path):
    ex = active_vars()
    assert "DATABASE_URL" not in ex and "REDIS_URL" not in ex and "CELERY_BROKER_URL" not in ex
    assert ex["LOG_FORMAT"] == "console"
    env = _clean_env(tmp_path, ex)
    r = _run(["manage.py", "migrate", "--noinput"], env)
    assert r.returncode == 0, r.stderr[-1500:]
    code = (
        "import django, json; django.setup(); from django.test import Client; "
        "r = Client().get('/api/v1/health?probe=ready', HTTP_HOST='127.0.0.1:8000'); print(r.status_code, json.dumps(r.json())); Client().get('/api/v1/rulesets', HTTP_HOST='127.0.0.1:8000'); "
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'], settings.CELERY_BROKER_URL == settings.EMBEDDED_BROKER_URL)"
    )
    r = _run(["-c", code], env)
    assert r.returncode == 0, r.stderr[-1500:]
    status, body = r.stdout.splitlines()[0].split(" ", 1)
    assert status == "200" and json.loads(body)["status"] == "ok"
    assert "sqlite3 True" in r.stdout  # SQLite database, the embedded SQLite broker
    # console logs for a terminal, not JSON
    assert "[info" in r.stderr and not r.stderr.lstrip().startswith("{")


def test_compose_settings_pass_check_deploy(tmp_path):
    cv = compose_vars()
    assert cv["SENGOKU_PRODUCTION"] == "true" and cv["LOG_FORMAT"] == "json"
    ex = active_vars()
    env = _clean_env(
        tmp_path,
        {
            **ex,
            **cv,
            "SECRET_KEY": secrets.token_urlsafe(50),
            "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        },
    )
    env["DATABASE_URL"] = (
        f"postgres://{ex['POSTGRES_USER']}:{ex['POSTGRES_PASSWORD']}@postgres:5432/{ex['POSTGRES_DB']}"
    )
    assert env["DATABASE_URL"] == cv["DATABASE_URL"]
    r = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert r.returncode == 0, r.stdout + r.stderr[-2000:]
    assert "no issues" in r.stdout
    # the same check has teeth: DEBUG on, or plain HTTP, is reported
    r = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], {**env, "DEBUG": "true"})
    assert r.returncode != 0 and "security.W018" in r.stderr
    r = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], {**env, "SECURE_SSL_REDIRECT": "false"}
    )
    assert r.returncode != 0 and "security.W008" in r.stderr


def test_production_refuses_the_example_secret_key(tmp_path):
    env = _clean_env(tmp_path, {**active_vars(), "SENGOKU_PRODUCTION": "true"})
    r = _run(["manage.py", "check"], env)
    assert r.returncode != 0 and "example value" in r.stderr


def test_entrypoint_builds_the_compose_database_url():
    text = (ROOT / "docker" / "entrypoint.sh").read_text()
    assert (
        "postgres://${POSTGRES_USER:-sengoku}:${POSTGRES_PASSWORD}@${POSTGRES_HOST:-postgres}:5432/" in text
    )
    assert "REDIS_URL:-redis://redis:6379/0" in text and compose_vars()["REDIS_URL"] == "redis://redis:6379/0"


# ---- monitoring files ---------------------------------------------------------------------

EXPORTED = {
    "sengoku_http_requests_total",
    "sengoku_http_request_duration_seconds",
    "sengoku_commands_total",
    "sengoku_events_appended_total",
    "sengoku_games",
    "sengoku_deadlines_fired_total",
    "sengoku_deadline_lateness_seconds",
    "sengoku_after_commit_queue_depth",
    "sengoku_sse_streams_open",
    "sengoku_notifications_total",
    "sengoku_heartbeat_age_seconds",
    "sengoku_celery_queue_length",
}


def test_grafana_dashboard_queries_only_exported_metrics():
    dash = json.loads((ROOT / "docker" / "grafana" / "dashboards" / "sengoku.json").read_text())
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    used = {
        re.sub(r"_(bucket|sum|count)$", "", m) for e in exprs for m in re.findall(r"\bsengoku_[a-z_]+", e)
    }
    assert used == EXPORTED, used ^ EXPORTED
    from telemetry import metrics

    defined = {m._name for m in vars(metrics).values() if hasattr(m, "_name") and hasattr(m, "_type")}
    db = {
        "sengoku_games",
        "sengoku_after_commit_queue_depth",
        "sengoku_heartbeat_age_seconds",
        "sengoku_celery_queue_length",
    }  # ops.collectors
    assert {n.removesuffix("_total") for n in EXPORTED - db} == defined


def test_compose_has_an_optional_monitoring_profile():
    compose = yaml.safe_load((ROOT / "docker" / "compose.yml").read_text())
    svc = compose["services"]
    for name in ("prometheus", "grafana"):
        assert svc[name]["profiles"] == ["monitoring"], name
        assert all(p.startswith("127.0.0.1:") for p in svc[name]["ports"]), "monitoring stays on loopback"
    prom = yaml.safe_load((ROOT / "docker" / "prometheus.yml").read_text())
    jobs = {j["job_name"]: j for j in prom["scrape_configs"]}
    assert jobs["sengoku-web"]["authorization"]["credentials_file"] == "/prometheus/metrics_token"
    assert "METRICS_TOKEN" in " ".join(svc["prometheus"]["entrypoint"])
    assert jobs["sengoku-worker"]["dns_sd_configs"][0]["port"] == int(compose_vars()["WORKER_METRICS_PORT"])


@pytest.mark.parametrize("script", ["entrypoint.sh"])
def test_entrypoint_still_parses(script):
    assert subprocess.run(["sh", "-n", str(ROOT / "docker" / script)]).returncode == 0
