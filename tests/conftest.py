"""Shared fixtures: the test-only ruleset, an API client with personas."""

from __future__ import annotations

import json
import os
import re
import runpy
from pathlib import Path

import pytest
from django.core.cache import caches
from rest_framework.throttling import SimpleRateThrottle

from games import plugins
from games.rules import registry
from tests.support import toy

# Not a server process: config/asgi.py must not freeze the test run's objects
# (tests/ops/test_gc_policy.py turns the policy on for itself).
os.environ.setdefault("GC_POLICY", "off")

registry.register("toy-auction", "tests.support.toy:RULES")
plugins.register(toy.PLUGINS)


def pytest_sessionstart(session):
    """The gettext catalogues are compiled, not committed (scripts/compile_messages.py)."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "compile_messages.py"
    runpy.run_path(str(script), run_name="compile")["main"]()


@pytest.fixture(scope="session", autouse=True)
def _own_redis_database(request):
    """Each xdist worker caches in a Redis database of its own: `cache.clear()` below is
    FLUSHDB, and one worker's flush wiped the counters of a throttle test running in
    the other (tests/api/test_throttles.py failed once on the PostgreSQL + Redis pass)."""
    from django.conf import settings
    from django.test import override_settings

    worker = getattr(request.config, "workerinput", {}).get("workerid", "")
    location = str(settings.CACHES["default"].get("LOCATION", ""))
    if not worker.startswith("gw") or not location.startswith("redis"):
        yield
        return
    url = re.sub(r"/\d*$", "", location) + f"/{int(worker[2:]) + 1}"
    caches = {
        name: {**conf, "LOCATION": url} if conf.get("LOCATION") == location else conf
        for name, conf in settings.CACHES.items()
    }
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def _fresh_caches(request):
    """Throttle counters and the in-process state cache start empty in each test
    that uses Django (engine tests do not touch either)."""
    import sys

    if "django.conf" in sys.modules and sys.modules["django.conf"].settings.configured:
        from django.core.cache import cache

        from games.services.state import clear_cache

        cache.clear()
        clear_cache()
        # per-process stream slots (no Redis) are keyed by user id, and ids repeat
        # across tests: a stream an earlier test left open must not count here
        from api.live import slots

        slots._local.clear()
        slots._open.clear()
        # ... and so do the throttles' leases (hits a process counted ahead, per key)
        from api import throttles

        throttles.forget_leases()
        # The shared throttle cache is a database table without Redis: clear it
        # where the test may touch the database (transactional tests keep rows).
        db = request.node.get_closest_marker("django_db") is not None
        if db:
            _clear_throttle_cache()
            request.addfinalizer(_clear_throttle_cache)
        # Tests see the after-commit work (deadlines, notifications, bots) happen
        # in-process; the real worker path is exercised by tests/pbem's worker test.
        request.getfixturevalue("settings").SENGOKU = {
            **sys.modules["django.conf"].settings.SENGOKU,
            "HOOKS_INLINE": True,
            "BOT_MCTS_SECONDS": 0.02,  # mcts seats think briefly in tests
        }
    yield


def _clear_throttle_cache():
    from django.core.cache import caches

    caches["throttle"].clear()


class Api:
    """A thin JSON client that can switch persona: api.as_(alice).get(...)."""

    def __init__(self, token: str | None = None):
        from rest_framework.test import APIClient  # lazy: engine tests run without Django

        self.client = APIClient()
        if token:
            self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    def as_(self, persona) -> Api:
        return Api(persona.token if persona is not None else None)

    def get(self, url, **extra):
        return self.client.get(url, **extra)

    def post(self, url, data=None, **extra):
        return self.client.post(
            url, json.dumps(data if data is not None else {}), content_type="application/json", **extra
        )

    def delete(self, url, **extra):
        return self.client.delete(url, **extra)

    def patch(self, url, data=None, **extra):
        return self.client.patch(url, json.dumps(data or {}), content_type="application/json", **extra)


class Persona:
    def __init__(self, name: str, data: dict, password: str):
        self.name, self.id, self.token, self.password = name, data["id"], data["token"], password

    def __repr__(self) -> str:
        return f"<{self.name}>"


def register(name: str) -> Persona:
    pw = "Tr0ub4dor&3-" + name[::-1]
    r = Api().post(
        "/api/v1/accounts/register", {"username": name, "password": pw, "email": f"{name}@example.org"}
    )
    assert r.status_code == 201, r.content
    return Persona(name, r.json(), pw)


@pytest.fixture
def api():
    return Api()


@pytest.fixture
def host(db):
    return register("hana")


@pytest.fixture
def player(db):
    return register("kenji")


@pytest.fixture
def outsider(db):
    return register("outsider")


@pytest.fixture
def third(db):
    return register("mitsu")


def create(api, who, ruleset="toy-auction", players=2, **body):
    r = api.as_(who).post("/api/v1/games", {"ruleset": ruleset, "players": players, **body})
    assert r.status_code == 201, r.content
    return r.json()


@pytest.fixture
def open_game(api, host):
    return create(api, host)


@pytest.fixture
def running_game(api, host, player, open_game):
    gid = open_game["id"]
    assert api.as_(player).post(f"/api/v1/games/{gid}/seats", {}).status_code == 201
    r = api.as_(host).post(f"/api/v1/games/{gid}/start")
    assert r.status_code == 200, r.content
    return r.json()


@pytest.fixture
def rates(monkeypatch, settings):
    """Small limits, counted in a database cache private to this test database
    (under xdist with REDIS_URL, workers would otherwise share one Redis)."""
    settings.CACHES = {
        **settings.CACHES,
        "throttle": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "sengoku_cache"},
    }
    caches["throttle"].clear()

    def set_(register="1000/hour", failures="1000/hour"):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "register", register)
        settings.THROTTLE_LOGIN_FAILURES = failures

    set_()
    return set_
