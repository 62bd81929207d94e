"""Every path and query parameter of `schema.yml`, given a hostile value, answers
4xx `{code, detail}` -- never a 5xx (issue 31): integers out of range (negative,
2**63 and beyond a 64-bit column), non-numbers, unknown enum values.

The walk is read from the committed schema, so an operation or a parameter added
later is walked too. The other path parameters are real (a running game of the
signed-in host, its token id, a seat, an existing takeback request), so each
value reaches the code that parses it instead of stopping at a 404 for the game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.core.signals import request_finished
from django.db import close_old_connections

pytestmark = pytest.mark.django_db

SCHEMA = yaml.safe_load((Path(__file__).resolve().parents[2] / "schema.yml").read_text())
HUGE = [2**63, 99999999999999999999]
HOSTILE_INTEGERS = [-1, *HUGE, "abc", "1.5", ""]
HOSTILE_STRINGS = [-1, *HUGE, "abc"]
UNKNOWN_ENUM = "not-a-listed-value"


def _operations():
    for path, ops in SCHEMA["paths"].items():
        for method, op in ops.items():
            if isinstance(op, dict) and "operationId" in op:
                params = [p for p in op.get("parameters", []) if p["in"] in ("path", "query")]
                yield path, method, op["operationId"], params


def _values(param: dict) -> list:
    schema = param["schema"]
    if schema.get("type") == "boolean":
        return ["abc", *HUGE]
    values = list(HOSTILE_INTEGERS if schema.get("type") == "integer" else HOSTILE_STRINGS)
    if "enum" in schema:
        values.append(UNKNOWN_ENUM)
    if param["in"] == "path":
        values = [v for v in values if v != ""]  # an empty segment is another URL, not this parameter
    return values


def _must_refuse(param: dict, value) -> bool:
    """Values the contract refuses outright: out-of-range or non-integer integers and
    unknown enum values (a free-text parameter such as `ruleset` may just match nothing)."""
    schema = param["schema"]
    if schema.get("type") == "integer":
        return value != "" or param["in"] == "path"
    return "enum" in schema and value in (UNKNOWN_ENUM, *HOSTILE_STRINGS)


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Each operation registers two accounts: a cheap hash keeps the walk fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def real(api, host, player, running_game):
    me = api.as_(host).get("/api/v1/accounts/me").json()
    return {
        "game_id": running_game["id"],
        "token_id": me["tokens"][0]["id"],
        "index": 0,
        "request_seq": 1,
        "ruleset_id": "toy-auction",
    }


def _call(api, who, method, url):
    client = api.as_(who)
    if method == "get":
        return client.get(url)
    if method == "delete":
        return client.delete(url)
    if method == "patch":
        return client.patch(url, {})
    return client.post(url, {})


def _close_stream(resp) -> None:
    """A stream that did open frees its slot. As Django's test client does it: the
    request_finished signal must not close the test's database connection (on
    PostgreSQL, inside the test's transaction, that broke every later request)."""
    if not resp.streaming:
        return  # the test client closed it already
    request_finished.disconnect(close_old_connections)
    try:
        resp.close()
    finally:
        request_finished.connect(close_old_connections)


def _check(resp, refuse: bool, label: str) -> None:
    assert resp.status_code < 500, f"{label}: {resp.status_code} {resp.content[:300]!r}"
    if refuse:
        assert 400 <= resp.status_code < 500, f"{label}: {resp.status_code} {resp.content[:300]!r}"
    if resp.status_code >= 400:
        assert resp["Content-Type"].startswith("application/json"), label
        body = resp.json()
        assert {"code", "detail"} <= set(body), f"{label}: {body}"


@pytest.mark.parametrize(
    ("path", "method", "params"),
    [pytest.param(path, method, params, id=op_id) for path, method, op_id, params in _operations() if params],
)
def test_every_parameter_refuses_hostile_values(api, host, real, path, method, params):
    """One test per operation (its fixtures are made once), every parameter x value in it."""
    failures = []
    for param in params:
        for value in _values(param):
            url = path
            for name, real_value in real.items():
                target = value if param["in"] == "path" and param["name"] == name else real_value
                url = url.replace("{" + name + "}", str(target))
            if param["in"] == "query":
                url += f"?{param['name']}={value}"
            resp = _call(api, host, method, url)
            try:
                _check(resp, _must_refuse(param, value), f"{method.upper()} {url}")
            except AssertionError as exc:
                failures.append(str(exc))
            finally:
                _close_stream(resp)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("value", [*HUGE, -1, "abc"])
@pytest.mark.parametrize("how", ["query", "header"])
def test_a_stream_validates_before_it_starts(api, host, running_game, value, how):
    """`?stream=1&after=<huge>` (or Last-Event-ID) is a 400 before any byte of the
    stream, not a stream that breaks off after its headers."""
    url = f"/api/v1/games/{running_game['id']}/events?stream=1"
    extra = {"HTTP_LAST_EVENT_ID": str(value)} if how == "header" else {}
    if how == "query":
        url += f"&after={value}"
    r = api.as_(host).get(url, **extra)
    assert r.status_code == 400, r
    assert not r.streaming
    assert r.json()["code"] == "invalid"


@pytest.mark.parametrize("value", [*HUGE, -1, "abc"])
def test_user_stream_validates_before_it_starts(api, host, value):
    r = api.as_(host).get(f"/api/v1/accounts/me/stream?after={value}", HTTP_ACCEPT="text/event-stream")
    assert r.status_code == 400, r
    assert not r.streaming


@pytest.mark.parametrize("fmt", ["x", "zzz", "openapi", "json", "yaml"])
def test_the_schema_document_never_fails(api, fmt):
    """`/api/v1/schema?format=x` is public: an unknown format is a 404 `{code, detail}`."""
    r = api.get(f"/api/v1/schema?format={fmt}")
    assert r.status_code < 500, r.content[:300]
    if r.status_code >= 400:
        assert {"code", "detail"} <= set(r.json())


@pytest.mark.parametrize("seq", ["99999999999999999999", str(2**63), str(2**63 - 1)])
@pytest.mark.parametrize("answer", ["accept", "refuse"])
def test_takeback_answer_with_a_huge_request_seq(api, host, running_game, seq, answer):
    r = api.as_(host).post(f"/api/v1/games/{running_game['id']}/takeback/{seq}/{answer}")
    assert r.status_code == 404, r.content
    assert r.json()["code"] in ("takeback_not_found", "not_found")
