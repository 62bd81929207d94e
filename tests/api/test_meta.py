import re
from pathlib import Path

import pytest
import redis
import yaml

from api.views import meta

ROOT = Path(__file__).resolve().parents[2]


def _heartbeat(role, seconds_ago=0):
    from datetime import timedelta

    from django.utils import timezone

    from heartbeats.models import Heartbeat

    at = timezone.now() - timedelta(seconds=seconds_ago)
    Heartbeat.objects.update_or_create(
        node=f"{role}@test", defaults={"role": role, "started_at": at, "beat_at": at}
    )


@pytest.mark.django_db
def test_health_ok(api):
    _heartbeat("worker")
    _heartbeat("scheduler")
    r = api.get("/api/v1/health")
    assert r.status_code == 200 and r.json() == {
        "status": "ok",
        "database": "ok",
        "broker": "ok",
        "worker": "ok",
        "scheduler": "ok",
        "anchoring": "off: TSA_URL is not set, heads are not anchored",
    }


@pytest.mark.django_db
def test_health_is_503_when_worker_or_beat_is_silent(api, settings):
    settings.HEARTBEAT_STALE_SECONDS = 20
    r = api.get("/api/v1/health")
    assert (
        r.status_code == 503 and r.json()["worker"] == "never seen" and r.json()["scheduler"] == "never seen"
    )
    _heartbeat("worker")
    _heartbeat("scheduler", seconds_ago=60)
    r = api.get("/api/v1/health")
    assert r.status_code == 503 and r.json()["worker"] == "ok"
    assert r.json()["scheduler"].startswith("down (last heartbeat 60s ago")
    # the liveness probe of a web pod does not depend on them
    r = api.get("/api/v1/health?probe=live")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    r = api.get("/api/v1/health?probe=ready")
    assert r.status_code == 200 and r.json() == {"status": "ok", "database": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_health_names_failing_broker(api, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    r = api.get("/api/v1/health")
    assert r.status_code == 503 and r.json()["broker"].startswith("error") and r.json()["database"] == "ok"


@pytest.mark.django_db
def test_schema_yaml_and_json_and_docs(api):
    r = api.get("/api/v1/schema")
    assert r.status_code == 200 and yaml.safe_load(r.content)["openapi"].startswith("3")
    j = api.get("/api/v1/schema?format=json")
    assert j.status_code == 200 and j.json()["info"]["title"] == "Sengoku API"
    assert api.get("/api/v1/docs").status_code == 200


def test_every_path_of_the_contract_is_in_the_committed_schema():
    contract = (
        Path("/work/shared/design/api.md")
        if Path("/work/shared/design/api.md").exists()
        else ROOT.parent / "shared" / "design" / "api.md"
    )
    schema = yaml.safe_load((ROOT / "schema.yml").read_text())
    paths = set(schema["paths"])
    wanted = set()
    if contract.exists():
        for m in re.finditer(r"`(GET|POST|PATCH|GET/PATCH) (/api/v1/[^`? ]+)", contract.read_text()):
            wanted.add(m.group(2).replace("{id}", "{game_id}"))
    else:  # the contract as of v1, should shared/ be missing
        wanted = {"/api/v1/games/{game_id}/commands", "/api/v1/health"}
    # the schema and docs endpoints serve the document itself (tested above), not part of it
    missing = {w for w in wanted if w not in paths} - {"/api/v1/schema", "/api/v1/docs"}
    assert not missing, missing


def test_committed_schema_is_current(tmp_path):
    from django.core.management import call_command

    out = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(out), "--validate", "--fail-on-warn")
    assert out.read_text() == (ROOT / "schema.yml").read_text(), "run `make schema` and commit schema.yml"


@pytest.mark.django_db
def test_docs_page_assets_are_served_by_us(api):
    """Swagger UI works offline: every script, stylesheet and icon the docs page
    references is a local URL that this server answers (no CDN, no @latest)."""
    html = api.get("/api/v1/docs").content.decode()
    refs = set(re.findall(r'(?:src|href)\s*=\s*"([^"]+)"', html))
    refs |= set(re.findall(r"(?:src|href)\s*=\s*\'([^\']+)\'", html))
    refs |= set(re.findall(r'\burl:\s*"([^"]+)"', html))  # the schema Swagger UI loads
    assert not [r for r in refs if "//" in r], f"external assets: {refs}"
    assets = [r for r in refs if r.endswith((".js", ".css", ".png", ".ico", ".svg"))]
    assert any("swagger-ui-bundle" in a for a in assets) and any(a.endswith(".css") for a in assets)
    for ref in sorted(refs):
        r = api.get(ref)
        body = b"".join(r.streaming_content) if r.streaming else r.content
        assert r.status_code == 200 and body, ref
    assert "@latest" not in html and "cdn" not in html.lower()


def test_the_broker_check_keeps_one_client_per_process(monkeypatch):
    """The check runs every second while probes come: one client and its pooled
    connection, not a new connection (and a metadata lookup) per check."""
    made = []

    class Client:
        def __init__(self, url):
            made.append(url)
            self.down = False

        def ping(self):
            if self.down:
                raise redis.ConnectionError("gone")
            return True

    monkeypatch.setattr(meta, "_broker_clients", {})
    monkeypatch.setattr(meta.redis.Redis, "from_url", staticmethod(lambda url, **kw: Client(url)))
    monkeypatch.setattr(meta.settings, "CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    assert [meta._broker() for _ in range(3)] == ["ok"] * 3 and len(made) == 1
    meta._broker_client("redis://127.0.0.1:1/0").down = True
    assert meta._broker() == "error: ConnectionError"  # a broken connection still says so
