"""Property test over every operation of schema.yml (issue 10 item 4): generated
bodies (valid, schema-violating and hostile: deep nesting, lone surrogates, NUL,
non-UTF-8, NaN), query parameters and headers never give a 5xx; every error is
`{code, detail}` JSON; and a refused request writes nothing.

Cases come from schemathesis (positive and negative generation); the game id
is often a real running toy game of the caller's, so requests reach the
services and not only the 404 path. Bounded by MAX_EXAMPLES per operation
(a few seconds per operation on either database)."""

from __future__ import annotations

import json
import string
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.utils import timezone
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.core import NotSet
from schemathesis.generation.modes import GenerationMode

from accounts.models import Profile
from events.models import StoredEvent
from games.models import CommandReceipt, Game, Seat
from games.services.errors import ErrorCode
from heartbeats.beat import beat
from tests.conftest import Api, create, register

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = schemathesis.openapi.from_path(str(ROOT / "schema.yml"))
OPERATIONS = [r.ok() for r in SCHEMA.get_all_operations()]
STREAMS = {"/api/v1/accounts/me/stream"}  # live SSE: never ends; its errors are tested in test_stream.py
MAX_EXAMPLES = 12
CODES = {c.value for c in ErrorCode}

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
HOSTILE = [  # each one is sent to every operation with a body (test_hostile_bodies_...)
    b"[" * 1000 + b"]" * 1000,
    b"[" * 30000 + b"]" * 30000,
    b'{"a":' * 65 + b"1" + b"}" * 65,
    b'{"command":{"type":"\\ud800"}}',
    b'{"command":{"type":"bid","amount":1},"expected_version":"\\udfff"}',
    b'{"username":"\\udfff","password":"Xq9!mountain-river"}',
    b'{"text":"a\\u0000b","to":null}',
    b'{"\\u0000":1}',
    b'{"reason":"\\u0000"}',
    b'{"players":NaN}',
    b'{"players":1e400}',
    b'{"players":1e999999}',
    b'{"username":1.5,"password":"Xq9!mountain-river"}',
    b'{"username":"fuzzy","password":12345678901}',
    b'{"ruleset":"toy-auction","players":"2"}',
    b'{"ruleset":"toy-auction","players":2,"time_control":{"a":1}}',
    b'{"ruleset":"toy-auction","players":2,"name":"\\u0000"}',
    b'{"email_notifications":"yes"}',
    b'{"vacation_until":"9999-12-31T23:59:59+14:00"}',
    b'{"faction":["red"]}',
    b"\xff\xfe{}",
    b"",
    b"null",
    b"[]",
    b'"text"',
    b"{",
    b"1" * 5000,
]
HOSTILE_BODIES = st.one_of(
    st.sampled_from(HOSTILE), _json.map(lambda v: json.dumps(v).encode()), st.binary(max_size=64)
)
LATIN1 = st.text(st.characters(max_codepoint=255), max_size=40)
EXTRA_HEADERS = st.fixed_dictionaries(
    {},
    optional={
        "CONTENT_TYPE": st.sampled_from(
            [
                "application/json",
                "application/json; charset=latin-1",
                "text/plain",
                "application/json; charset=bogus",
                "multipart/form-data",
                ";;",
            ]
        ),
        "HTTP_X_FORWARDED_FOR": LATIN1,
        "HTTP_IDEMPOTENCY_KEY": LATIN1,
        "HTTP_IF_NONE_MATCH": LATIN1,
        "HTTP_AUTHORIZATION": st.sampled_from(
            ["", "Bearer", "Bearer x", "Basic Zm9vOmJhcg==", "Bearer \x00"]
        ),
        "HTTP_TRANSFER_ENCODING": st.just("chunked"),
        "CONTENT_LENGTH": st.sampled_from(["-1", "abc", "99999999999"]),
    },
)


def _counts() -> tuple:
    return tuple(
        m.objects.count() for m in (StoredEvent, Game, Seat, get_user_model(), CommandReceipt, Profile)
    )


@pytest.fixture
def world(db, settings):
    """A caller seated at seat 0 of a running toy game. (A fast password hasher:
    generated register/token bodies hash passwords, and time is bounded.)"""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    host, player = register("fuzzhost"), register("fuzzplayer")
    game = create(Api(), host)
    assert Api(player.token).post(f"/api/v1/games/{game['id']}/seats", {}).status_code == 201
    assert Api(host.token).post(f"/api/v1/games/{game['id']}/start").status_code == 200
    return host, game["id"]


def _url(case) -> str:
    params = {k: quote(str(v), safe="") for k, v in case.path_parameters.items()}
    path = case.path.format(**params) if params else case.path
    if case.path == "/api/v1/games/{game_id}/events":
        case.query.pop("stream", None)
    query = urlencode({k: v for k, v in case.query.items() if v is not None}, doseq=True)
    return path + ("?" + query if query else "")


def _meta(case, token: str, extra: dict) -> dict:
    meta = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    for k, v in case.headers.items():
        if k.lower() not in ("accept", "user-agent", "x-schemathesis-testcaseid"):
            meta["HTTP_" + k.upper().replace("-", "_")] = str(v)
    meta.update(extra)
    return meta


@pytest.mark.parametrize("op", [o for o in OPERATIONS if o.path not in STREAMS], ids=lambda o: o.label)
def test_generated_requests_never_fail_with_5xx_and_refusals_write_nothing(op, world, client):
    host, game_id = world
    # a worker and beat are alive (their heartbeats): /health's 503 for a dead worker is
    # a true answer, not a server error, and is tested in tests/api/test_meta.py
    now = timezone.now()
    beat("worker", "celery@fuzz", now)
    beat("scheduler", "beat@fuzz", now)

    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )  # no shrinking: bounded time
    @given(data=st.data())
    def run(data):
        mode = data.draw(st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE]), "mode")
        fixed = (
            {"game_id": game_id} if "{game_id}" in op.path and data.draw(st.booleans(), "real game") else None
        )
        case = data.draw(op.as_strategy(mode, path_parameters=fixed), "case")
        raw = (
            b""
            if isinstance(case.body, NotSet)
            else (case.body if isinstance(case.body, bytes) else json.dumps(case.body).encode())
        )
        if data.draw(st.integers(0, 3), "hostile?") == 0:
            raw = data.draw(HOSTILE_BODIES, "hostile body")
        extra = data.draw(EXTRA_HEADERS, "headers")
        meta = _meta(case, host.token, extra)
        meta.setdefault("CONTENT_TYPE", "application/json")
        before = _counts()
        r = client.generic(case.method.upper(), _url(case), raw, **meta)
        if r.streaming:
            assert r.status_code < 500
            r.close()
            return
        _check(r, f"{case.method.upper()} {_url(case)} {raw[:200]!r} {extra}", before)

    run()


def _check(r, where: str, before: tuple) -> None:
    assert r.status_code < 500, f"{where} -> {r.status_code} {r.content[:300]!r}"
    if r.status_code >= 400:
        assert r["Content-Type"].startswith("application/json"), f"{where} -> {r.content[:200]!r}"
        err = r.json()
        assert isinstance(err.get("code"), str) and isinstance(err.get("detail"), str), f"{where} -> {err}"
        assert err["code"] in CODES, f"{where} -> {err['code']!r} is not an ErrorCode"
        assert _counts() == before, f"{where} -> {r.status_code} {err} but something was written"


BODY_OPERATIONS = [o for o in OPERATIONS if o.method.upper() in ("POST", "PATCH", "PUT")]


@pytest.mark.parametrize("op", BODY_OPERATIONS, ids=lambda o: o.label)
def test_hostile_bodies_to_every_operation_with_a_body(op, world, client):
    """Every body of HOSTILE, to the caller's real game: 400/4xx JSON, nothing written."""
    host, game_id = world
    url = op.path.replace("{game_id}", game_id).replace("{index}", "0").replace("{request_seq}", "1")
    for raw in HOSTILE:
        before = _counts()
        r = client.generic(
            op.method.upper(),
            url,
            raw,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {host.token}",
        )
        _check(r, f"{op.method.upper()} {url} {raw[:80]!r}", before)


def test_every_operation_of_the_schema_is_covered():
    assert len(OPERATIONS) >= 30
    assert {o.path for o in OPERATIONS} >= {"/api/v1/accounts/register", "/api/v1/games/{game_id}/commands"}
    assert all(set(o.label) <= set(string.printable) for o in OPERATIONS)
