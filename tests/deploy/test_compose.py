"""Deployment files are consistent: compose services, healthchecks, volumes, a
non-root image, and settings documented in .env.example. No Docker daemon or
database is needed: these tests only read files."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yml"
DOCKERFILE = ROOT / "docker" / "Dockerfile"
ENV_EXAMPLE = ROOT / ".env.example"
SETTINGS = ROOT / "config" / "settings.py"

# Read by docker/compose.yml's postgres image, not by Django settings.
COMPOSE_ONLY_VARS = {"POSTGRES_DB", "POSTGRES_USER", "POSTGRES_PASSWORD"}


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


@pytest.fixture(scope="module")
def services(compose) -> dict:
    return compose["services"]


def example_vars() -> dict[str, str]:
    """Active (uncommented) KEY=value lines of .env.example."""
    out = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        m = re.match(r"^([A-Z][A-Z0-9_]*)=(.*)$", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def test_required_services_exist(services):
    assert {"web", "worker", "beat", "postgres", "redis", "migrate"} <= set(services)


def test_postgres_is_15_with_pg_isready_and_volume(compose, services):
    pg = services["postgres"]
    assert pg["image"].split(":")[1].startswith("15")
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    mounts = [v.split(":")[0] for v in pg["volumes"]]
    assert any(m in compose["volumes"] for m in mounts), "postgres data must be on a named volume"


def test_redis_has_ping_healthcheck_and_volume(compose, services):
    redis = services["redis"]
    assert "redis-cli" in redis["healthcheck"]["test"] and "ping" in redis["healthcheck"]["test"]
    assert any(v.split(":")[0] in compose["volumes"] for v in redis["volumes"])


def test_web_runs_gunicorn_asgi_with_uvicorn_workers_and_a_health_probe(services):
    web = services["web"]
    assert web["healthcheck"]["test"][-2:] == ["docker/healthcheck.py", "web"]
    assert "/api/v1/health" in (ROOT / "docker" / "healthcheck.py").read_text()
    command = " ".join(web["command"])
    entrypoint = (ROOT / "docker" / "entrypoint.sh").read_text()
    assert "gunicorn config.asgi:application" in entrypoint and command == "web"
    conf = (ROOT / "docker" / "gunicorn.conf.py").read_text()
    assert 'worker_class = "uvicorn_worker.UvicornWorker"' in conf


def test_web_scales_behind_one_proxy(services):
    """`docker compose up --scale web=3 --scale worker=2`: no fixed host port on
    web or worker (a second container could not bind it); one proxy publishes
    the port and finds every web container by DNS; web trusts its X-Forwarded-For."""
    for name in ("web", "worker", "beat"):
        assert not services[name].get("ports"), f"{name} must not publish a host port (it could not scale)"
        assert not services[name].get("container_name"), f"{name} must not fix its container name"
    proxy = services["proxy"]
    assert proxy["ports"] and proxy["ports"][0].endswith(":80")
    assert any(v.startswith("./Caddyfile:") for v in proxy["volumes"])
    caddy = (ROOT / "docker" / "Caddyfile").read_text()
    assert re.search(r"dynamic a web 8000", caddy) and "flush_interval -1" in caddy
    assert services["web"]["environment"]["FORWARDED_ALLOW_IPS"] == "*"
    assert "forwarded_allow_ips" in (ROOT / "docker" / "gunicorn.conf.py").read_text()


@pytest.mark.parametrize("name,role", [("worker", "worker"), ("beat", "scheduler")])
def test_worker_and_beat_are_probed_by_their_heartbeats(services, name, role):
    assert services[name]["healthcheck"]["test"][-2:] == ["docker/healthcheck.py", role]


@pytest.mark.parametrize("name", ["web", "worker", "beat"])
def test_app_services_wait_for_healthy_backends_and_migrations(services, name):
    deps = services[name]["depends_on"]
    assert deps["postgres"]["condition"] == "service_healthy"
    assert deps["redis"]["condition"] == "service_healthy"
    assert deps["migrate"]["condition"] == "service_completed_successfully"


def test_migrate_is_a_one_shot(services):
    migrate = services["migrate"]
    assert migrate["command"] == ["migrate"]
    assert migrate.get("restart") == "no"
    assert "migrate --noinput" in (ROOT / "docker" / "entrypoint.sh").read_text()


def test_worker_and_beat_use_the_celery_app():
    entrypoint = (ROOT / "docker" / "entrypoint.sh").read_text()
    assert "celery -A config.celery:app worker" in entrypoint
    assert "celery -A config.celery:app beat" in entrypoint


def test_app_services_read_dotenv(services):
    for name in ("web", "worker", "beat", "migrate", "postgres"):
        env_file = services[name]["env_file"]
        assert (env_file if isinstance(env_file, str) else env_file[0]) == "../.env", name


def test_dockerfile_is_multistage_and_runs_as_non_root():
    text = DOCKERFILE.read_text()
    stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\S+))?", text, re.M | re.I)
    assert len(stages) >= 2, "multi-stage build expected"
    assert "python:${PYTHON_VERSION}-slim" in stages[-1][0] and "ARG PYTHON_VERSION=3.11" in text
    assert "requirements.lock" in text
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert users, "the final stage must switch to a non-root USER"
    assert users[-1].split(":")[0] not in {"root", "0"}
    last_from = text.rfind("\nFROM ")
    assert text.rfind("\nUSER ") > last_from, "USER must be set in the final stage"
    assert "gunicorn" in text and "config.asgi:application" in text


def test_entrypoint_is_executable():
    mode = (ROOT / "docker" / "entrypoint.sh").stat().st_mode
    assert mode & stat.S_IXUSR


def test_every_env_example_variable_is_read_by_settings():
    settings = SETTINGS.read_text()
    missing = [k for k in example_vars() if k not in COMPOSE_ONLY_VARS and f'"{k}"' not in settings]
    assert not missing, f".env.example documents variables config/settings.py never reads: {missing}"


def test_compose_only_variables_are_used_by_compose():
    text = COMPOSE.read_text()
    example = example_vars()
    for k in COMPOSE_ONLY_VARS:
        assert k in example
    assert "POSTGRES_USER" in text and "POSTGRES_DB" in text


def test_every_setting_read_from_env_is_documented():
    """The other direction: a new env var in settings must be added to .env.example."""
    settings = SETTINGS.read_text()
    read = set(
        re.findall(
            r'\.(?:str|bool|int|float|list|dict|json|url|db|db_url|email_url|cache_url|path)\(\s*"([A-Z][A-Z0-9_]*)"',
            settings,
        )
    )
    read |= set(
        re.findall(r'_[a-z_]+\(\s*"([A-Z][A-Z0-9_]*)"', settings)
    )  # typed helpers like _positive_int("X", ...)
    documented = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", ENV_EXAMPLE.read_text(), re.M))
    missing = sorted(read - documented)
    assert not missing, f"settings read {missing} but .env.example does not document them"


def test_example_database_url_matches_postgres_credentials():
    """The compose URL is a commented `# compose` line (the active file is for `make run`)."""
    ex = example_vars()
    compose = dict(re.findall(r"^#\s*([A-Z][A-Z0-9_]*)=(\S*)\s+# compose\b", ENV_EXAMPLE.read_text(), re.M))
    url = compose["DATABASE_URL"]
    assert url.startswith("postgres://")
    assert f"{ex['POSTGRES_USER']}:{ex['POSTGRES_PASSWORD']}@postgres:5432/{ex['POSTGRES_DB']}" in url
    assert compose["REDIS_URL"].startswith("redis://redis:")


def test_ci_entry_point_runs_make_test():
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in ci and "make test" in ci


def test_makefile_has_the_readme_targets():
    makefile = (ROOT / "Makefile").read_text()
    for target in ("install", "run", "test", "schema", "bench", "lock"):
        assert re.search(rf"^{target}:", makefile, re.M), target


def test_lock_pins_every_direct_dependency():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = project["dependencies"] + project.get("optional-dependencies", {}).get("dev", [])
    pins = {
        re.sub(r"[-_.]+", "-", line.split("==")[0]).lower()
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    names = {re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", d).group(0)).lower() for d in deps}
    assert not names - pins, f"requirements.lock lacks pins for {sorted(names - pins)}: run `make lock`"


@pytest.mark.parametrize(
    "script",
    [
        "scripts/services.sh",
        "scripts/test.sh",
        "scripts/install.sh",
        "scripts/lock.sh",
        "scripts/bench.sh",
        ".ci/run",
        "docker/entrypoint.sh",
    ],
)
def test_shell_scripts_parse_and_are_executable(script):
    import subprocess

    path = ROOT / script
    assert path.stat().st_mode & stat.S_IXUSR, f"{script} is not executable"
    shell = "sh" if script.endswith("entrypoint.sh") else "bash"
    result = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
